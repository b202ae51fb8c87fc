//===- InProcessAnalysis.cpp - The analyzer on an already parsed TU -------===//
//
// clang-tidy's own clang-analyzer-* route builds its AnalysisConsumer while
// the TU is parsed and takes only the checkers compiled into clang. A
// clang-tidy check sees the TU after parsing (in clangd, only then), so this
// replays what the frontend would have done: analyzer options parsed like
// `clang -cc1 -analyze` parses them (every option gets its default, bad
// values are errors), a CompilerInstance that only lends the host's
// preprocessor and AST to CreateAnalysisConsumer, the refcount checkers
// added with AddCheckerRegistrationFn, and the top-level declarations fed in.
//
//=== ---------------------------------------------------------------------===//

#include "InProcessAnalysis.h"
#include "Registration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Analysis/PathDiagnostic.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/StaticAnalyzer/Core/AnalyzerOptions.h"
#include "clang/StaticAnalyzer/Frontend/AnalysisConsumer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include <mutex>

using namespace clang;
using namespace krefcheck::tidy;

namespace {

/// Keeps what the analyzer reports, for the check to turn into clang-tidy
/// diagnostics once the analysis is over (in clangd the host's diagnostics
/// engine is not ours to write to while the analysis borrows it).
class FindingCollector : public ento::PathDiagnosticConsumer {
public:
  explicit FindingCollector(std::vector<Finding> &Out) : Out(Out) {}

  void FlushDiagnosticsImpl(std::vector<const ento::PathDiagnostic *> &Diags,
                            FilesMade *) override {
    for (const ento::PathDiagnostic *PD : Diags) {
      Finding F;
      F.Checker = PD->getCheckerName().str();
      F.Loc = PD->getLocation().asLocation();
      F.Message = PD->getShortDescription().str();
      if (!PD->path.empty())
        F.Ranges.assign(PD->path.back()->getRanges().begin(),
                        PD->path.back()->getRanges().end());
      // The notes `-analyzer-output=text` prints, in the same order.
      for (const auto &Piece : PD->path.flatten(/*ShouldFlattenMacros=*/true))
        F.Path.push_back(
            {Piece->getLocation().asLocation(),
             Piece->getString().str(),
             {Piece->getRanges().begin(), Piece->getRanges().end()}});
      Out.push_back(std::move(F));
    }
  }
  StringRef getName() const override { return "krefcheck-tidy"; }
  bool supportsLogicalOpControlFlow() const override { return true; }
  bool supportsCrossFileDiagnostics() const override { return true; }

private:
  std::vector<Finding> &Out;
};

/// Collects the errors the analyzer reports through the host's diagnostics
/// engine (checker option validation, the checkers' own configuration
/// errors), so that they become one located diagnostic instead of a
/// location-less error that clangd would drop.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<std::string> Errors;
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    if (Level >= DiagnosticsEngine::Error)
      Errors.push_back(Msg.str().str());
    else if (Level == DiagnosticsEngine::Warning)
      llvm::errs() << "krefcheck: analyzer warning: " << Msg << "\n";
  }
};

/// Points a diagnostics engine at another consumer for a while.
class ScopedDiagRedirect {
public:
  ScopedDiagRedirect(DiagnosticsEngine &Diags, DiagnosticConsumer &To)
      : Diags(Diags), Old(Diags.getClient()), OwnedOld(Diags.takeClient()) {
    Diags.setClient(&To, /*ShouldOwnClient=*/false);
  }
  ~ScopedDiagRedirect() {
    if (OwnedOld)
      Diags.setClient(OwnedOld.release(), /*ShouldOwnClient=*/true);
    else
      Diags.setClient(Old, /*ShouldOwnClient=*/false);
  }

private:
  DiagnosticsEngine &Diags;
  DiagnosticConsumer *Old;
  std::unique_ptr<DiagnosticConsumer> OwnedOld;
};

/// A diagnostics engine of our own, reporting to \p Client.
class PrivateDiags {
public:
  explicit PrivateDiags(DiagnosticConsumer &Client)
#if LLVM_VERSION_MAJOR >= 21
      : Engine(DiagnosticIDs::create(), Opts, &Client, false){}
#else
      : Engine(new DiagnosticIDs(), new DiagnosticOptions(), &Client, false) {
  }
#endif
        DiagnosticsEngine
        & get() {
    return Engine;
  }

private:
#if LLVM_VERSION_MAJOR >= 21
  DiagnosticOptions Opts;
#endif
  DiagnosticsEngine Engine;
};

/// Fills \p Invocation's analyzer options from a -cc1 command line, which
/// gives every option its default and validates -analyzer-config.
bool parseAnalyzerOptions(CompilerInvocation &Invocation,
                          const AnalysisRequest &Request,
                          std::vector<std::string> &Errors) {
  std::vector<std::string> Args = {"-analyze"};
  std::string Checkers;
  for (const std::string &C : Request.Checkers)
    Checkers += (Checkers.empty() ? "" : ",") + C;
  if (!Checkers.empty())
    Args.push_back("-analyzer-checker=" + Checkers);
  for (const auto &[Key, Value] : Request.Config) {
    Args.push_back("-analyzer-config");
    Args.push_back(Key + "=" + Value);
  }
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());

  TextDiagnosticBuffer Buffer;
  PrivateDiags Diags(Buffer);
  bool OK = CompilerInvocation::CreateFromArgs(Invocation, Argv, Diags.get());
  for (auto It = Buffer.err_begin(); It != Buffer.err_end(); ++It)
    Errors.push_back(It->second);
  return OK && Buffer.err_begin() == Buffer.err_end();
}

/// The declarations the analyzer would have been handed while parsing: the
/// whole TU, or, when the host limits traversal to the main file (clangd
/// skips its preamble), that scope.
std::vector<Decl *> topLevelDecls(ASTContext &Ctx) {
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  auto Scope = Ctx.getTraversalScope();
  if (Scope.size() == 1 && Scope.front() == TU)
    return std::vector<Decl *>(TU->decls_begin(), TU->decls_end());
  return std::vector<Decl *>(Scope.begin(), Scope.end());
}

} // namespace

AnalysisResult krefcheck::tidy::analyzeTU(ASTContext &Ctx, Preprocessor &PP,
                                          const AnalysisRequest &Request) {
  AnalysisResult Result;
  // One analysis at a time in a process: the analyzer keeps process-wide
  // state that is not thread-safe, and clangd builds several files at once.
  // Since LLVM 21 every analysis appends to the entry-point statistics
  // registry (a global vector) and hooks its cleanup onto the ASTContext the
  // consumer is created with; two analyses at once, or an analysis while
  // clangd frees an AST on another thread, corrupt the heap. The lock is
  // taken outside the crash-recovery scope, so a crash cannot leave it held.
  static std::mutex AnalysisMutex;
  std::lock_guard<std::mutex> OneAtATime(AnalysisMutex);
  auto Invocation = std::make_shared<CompilerInvocation>();
  if (!parseAnalyzerOptions(*Invocation, Request, Result.ConfigErrors))
    return Result;
  Invocation->getLangOpts() = Ctx.getLangOpts();
  AnalyzerOptions &Opts = Invocation->getAnalyzerOpts();
  // Reports come back through FindingCollector only.
  Opts.AnalysisDiagOpt = PD_NONE;
  // Parsing sets every option, so the frontend would inject bodies from
  // *.model files looked up in the current directory for every function;
  // only do that when a model path is given.
  auto ModelPath = Opts.Config.find("model-path");
  if (ModelPath != Opts.Config.end() && ModelPath->second.empty())
    Opts.Config.erase(ModelPath);

#if LLVM_VERSION_MAJOR >= 21
  // The consumer is created with an empty ASTContext of ours (it analyzes
  // the one Initialize() hands it): the statistics cleanup it registers runs
  // when that context dies at the end of this function, under the lock,
  // instead of whenever the host frees its AST. Declared before the instance
  // that holds it, so that it outlives it.
  LangOptions StatsLangOpts;
  llvm::IntrusiveRefCntPtr<ASTContext> StatsCtx(new ASTContext(
      StatsLangOpts, Ctx.getSourceManager(), PP.getIdentifierTable(),
      PP.getSelectorTable(), PP.getBuiltinInfo(), TU_Complete));
#endif

  // The instance only lends the host's files, preprocessor and (before LLVM
  // 21) AST: all reference-counted but the preprocessor, whose deleter does
  // nothing.
#if LLVM_VERSION_MAJOR >= 21
  CompilerInstance CI(Invocation);
#else
  CompilerInstance CI;
  CI.setInvocation(Invocation);
#endif
  CI.setFileManager(&Ctx.getSourceManager().getFileManager());
  CI.setSourceManager(&Ctx.getSourceManager());
  CI.setPreprocessor(std::shared_ptr<Preprocessor>(&PP, [](Preprocessor *) {}));
#if LLVM_VERSION_MAJOR >= 21
  CI.setASTContext(StatsCtx);
#else
  CI.setASTContext(&Ctx);
#endif

  // The analyzer skips a TU whose diagnostics engine has seen an error. The
  // host's has when a warning was promoted by -Werror (kernel builds use it,
  // and clangd warns about what its preamble leaves out): only errors that
  // keep the code from compiling should stop the analysis, as they do under
  // the compiler. So the analysis reports to an engine of its own, as does
  // the checker registry through the host's (redirected) engine; errors from
  // either are configuration errors.
  DiagnosticsEngine &HostDiags = PP.getDiagnostics();
  if (HostDiags.hasUncompilableErrorOccurred())
    return Result;
  ErrorCollector Errors;
  PrivateDiags AnalysisDiags(Errors);
  AnalysisDiags.get().setSourceManager(&Ctx.getSourceManager());
  bool Completed;
  {
    ScopedDiagRedirect Redirect(Ctx.getDiagnostics(), Errors);
    PP.setDiagnostics(AnalysisDiags.get());
    // A crash in a checker must not take the host (clangd) down with it: the
    // analysis runs under crash recovery, and what it allocated before the
    // crash is leaked.
    static std::once_flag EnableRecovery;
    std::call_once(EnableRecovery,
                   [] { llvm::CrashRecoveryContext::Enable(); });
    llvm::CrashRecoveryContext CRC;
    Completed = CRC.RunSafely([&] {
      std::unique_ptr<ento::AnalysisASTConsumer> Consumer =
          ento::CreateAnalysisConsumer(CI);
      Consumer->AddCheckerRegistrationFn(krefcheck::registerCheckers);
#if LLVM_VERSION_MAJOR >= 21
      Consumer->AddDiagnosticConsumer(
          std::make_unique<FindingCollector>(Result.Findings));
#else
      Consumer->AddDiagnosticConsumer(new FindingCollector(Result.Findings));
#endif
      Consumer->Initialize(Ctx);
      if (!Errors.Errors.empty())
        return; // the checkers' configuration is bad
      for (Decl *D : topLevelDecls(Ctx))
        Consumer->HandleTopLevelDecl(DeclGroupRef(D));
      Consumer->HandleTranslationUnit(Ctx);
    });
    PP.setDiagnostics(HostDiags);
  }
  krefcheck::resetTUCaches();
  Result.ConfigErrors.insert(Result.ConfigErrors.end(), Errors.Errors.begin(),
                             Errors.Errors.end());
  Result.Crashed = !Completed;
  return Result;
}
