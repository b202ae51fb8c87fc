//===- ModelLoading.cpp - The model of the analysis in progress -----------===//
//
// Which model an analysis runs with: the built-in kernel model (the text of
// kernel-model.yaml, embedded at build time), then the user's file, named by
// refcount:ModelFile or found as the nearest .krefcheck.yaml. Loaded once per
// analysis when the first checker registers, reported through the analyzer's
// diagnostics when bad, and forgotten after the analysis (resetModel).
//
//===----------------------------------------------------------------------===//

#include "Contracts.h"
#include "ModelFile.h"
#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/StaticAnalyzer/Core/AnalyzerOptions.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace krefcheck;
using llvm::StringRef;

namespace {
const char BuiltinText[] =
#include "kernel-model.inc"
    ;
} // namespace

StringRef krefcheck::builtinModelText() {
  return StringRef(BuiltinText, sizeof(BuiltinText) - 1);
}

namespace {
// The model is per thread and forgotten after each analysis (resetModel),
// like the TU caches (TUCache.h): clangd (krefcheck-clangd) analyzes several
// files at once, each may have its own .krefcheck.yaml, and the next AST or
// CheckerManager may reuse the address of a freed one.
std::unique_ptr<Model> &activeSlot() {
  static thread_local std::unique_ptr<Model> Active;
  return Active;
}

/// The analysis the active model was loaded for, and whether that went well.
struct LoadState {
  const void *Mgr = nullptr;
  const void *AST = nullptr;
  bool OK = false;
};
LoadState &loadState() {
  static thread_local LoadState State;
  return State;
}

std::unique_ptr<Model> builtinModel(std::string &Error) {
  auto M = std::make_unique<Model>();
  M->addFile(builtinModelText(), "<built-in>/kernel-model.yaml", Error);
  return M;
}

/// The user's model file: the option, else the nearest .krefcheck.yaml from
/// the main file's directory up to the root; empty when there is none.
std::string findModelFile(clang::ento::CheckerManager &Mgr) {
  const auto &Config = Mgr.getAnalyzerOptions().Config;
  auto It = Config.find("refcount:ModelFile");
  if (It != Config.end() && !It->second.empty())
    return It->second;
  const clang::SourceManager &SM = Mgr.getASTContext().getSourceManager();
  clang::FileID Main = SM.getMainFileID();
  if (Main.isInvalid())
    return "";
  llvm::SmallString<256> Dir(SM.getFilename(SM.getLocForStartOfFile(Main)));
  if (Dir.empty() || llvm::sys::fs::make_absolute(Dir))
    return "";
  llvm::sys::path::remove_filename(Dir);
  for (StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".krefcheck.yaml");
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
  }
  return "";
}
} // namespace

Model &krefcheck::activeModel() {
  std::unique_ptr<Model> &Active = activeSlot();
  if (!Active) {
    std::string Error;
    Active = builtinModel(Error);
  }
  return *Active;
}

bool krefcheck::loadModel(clang::ento::CheckerManager &Mgr) {
  // Every checker's registration asks; the first one of an analysis loads.
  LoadState &State = loadState();
  if (State.Mgr == &Mgr && State.AST == &Mgr.getASTContext())
    return State.OK;
  State.Mgr = &Mgr;
  State.AST = &Mgr.getASTContext();

  std::string Error;
  std::unique_ptr<Model> M = builtinModel(Error);
  const auto &Config = Mgr.getAnalyzerOptions().Config;
  auto Option = [&](StringRef Key) -> StringRef {
    auto It = Config.find(Key);
    return It == Config.end() ? StringRef() : StringRef(It->second);
  };
  configureContractDump(Option("refcount:DumpContracts") == "true");
  if (Error.empty())
    configureRules(Option("refcount:DisableRules"),
                   Option("refcount:EnableRules"),
                   Option("refcount:RuleStats") == "true", Error);
  if (Error.empty()) {
    std::string Path = findModelFile(Mgr);
    if (!Path.empty()) {
      auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buf)
        Error =
            Path + ": cannot read the model file: " + Buf.getError().message();
      else
        M->addFile((*Buf)->getBuffer(), Path, Error);
    }
  }
  State.OK = Error.empty();
  if (!State.OK) {
    clang::DiagnosticsEngine &Diags = Mgr.getASTContext().getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << ("krefcheck: " + Error);
    // Nothing runs on this TU; keep a usable model for any lookup anyway.
    std::string Ignored;
    M = builtinModel(Ignored);
  }
  M->Ctx = &Mgr.getASTContext();
  activeSlot() = std::move(M);
  return State.OK;
}

void krefcheck::resetModel() {
  activeSlot().reset();
  loadState() = LoadState();
}
