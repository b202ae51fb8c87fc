//===- RefcountCheck.cpp - clang-tidy checks krefcheck-<checker> ----------===//

#include "RefcountCheck.h"
#include "InProcessAnalysis.h"
#include "Registration.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy;
using namespace krefcheck::tidy;

namespace {
constexpr llvm::StringLiteral CheckPrefix = "krefcheck-";
constexpr llvm::StringLiteral PackagePrefix = "refcount.";
// Options shared by all krefcheck checks (CheckOptions keys).
constexpr llvm::StringLiteral CoreCheckersKey = "krefcheck.CoreCheckers";
constexpr llvm::StringLiteral ModelFileKey = "krefcheck.ModelFile";
constexpr llvm::StringLiteral AnalyzerConfigKey = "krefcheck.AnalyzerConfig";

/// clang-tidy diagnostics are format strings.
std::string escapeFormat(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}
} // namespace

RefcountCheck::RefcountCheck(StringRef Name, ClangTidyContext *Context,
                             StringRef Checker)
    : ClangTidyCheck(Name, Context), Context(Context), Checker(Checker) {}

std::vector<std::string> RefcountCheck::enabledCheckers() const {
  const ClangTidyOptions &Opts = Context->getOptions();
  std::vector<std::string> Enabled;
  for (StringRef Name : krefcheck::PublicCheckers) {
    std::string CheckName = (CheckPrefix + Name).str();
    if (!Context->isCheckEnabled(CheckName))
      continue;
    if (krefcheck::isOptInChecker(Name)) {
      // Like the analyzer package: a glob (krefcheck-*) does not enable an
      // opt-in checker; naming it, or its Enable option, does.
      bool Named = false;
      // The globs point into Checks, which must outlive them.
      const std::string Checks = Opts.Checks.value_or("");
      llvm::SmallVector<StringRef> Globs;
      StringRef(Checks).split(Globs, ',');
      for (StringRef G : Globs)
        Named |= G.trim() == CheckName;
      auto It = Opts.CheckOptions.find(CheckName + ".Enable");
      bool EnabledByOption = It != Opts.CheckOptions.end() &&
                             StringRef(It->second.Value).trim() == "true";
      if (!Named && !EnabledByOption)
        continue;
    }
    Enabled.push_back(Name.str());
  }
  return Enabled;
}

void RefcountCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                                        Preprocessor *) {
  this->PP = PP;
}

void RefcountCheck::registerMatchers(MatchFinder *Finder) {
  std::vector<std::string> Enabled = enabledCheckers();
  // The first enabled check runs the analysis for all of them.
  if (Enabled.empty() || Enabled.front() != Checker)
    return;
  RunFor = std::move(Enabled);
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void RefcountCheck::reportConfigError(SourceLocation FileStart,
                                      StringRef Message) {
  // The checkers' own errors (a bad model file: "krefcheck: FILE:LINE:COL:
  // what is wrong") already say where they come from.
  Message.consume_front("krefcheck: ");
  llvm::errs() << "krefcheck: " << Context->getCurrentFile()
               << ": configuration error: " << Message << "\n";
  diag(FileStart, "Bad krefcheck configuration: %0", DiagnosticIDs::Error)
      << Message;
}

void RefcountCheck::check(const MatchFinder::MatchResult &Result) {
  if (!PP || RunFor.empty())
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  const ClangTidyOptions::OptionMap &Options =
      Context->getOptions().CheckOptions;
  auto option = [&](StringRef Key) -> std::optional<std::string> {
    auto It = Options.find(Key);
    if (It == Options.end())
      return std::nullopt;
    return It->second.Value;
  };

  AnalysisRequest Request;
  // Core checkers model what the refcount checkers rely on (null
  // dereferences end a path, ...); only refcount reports are shown.
  llvm::SmallVector<StringRef> Core;
  std::string CoreCheckers = option(CoreCheckersKey).value_or("core");
  StringRef(CoreCheckers).split(Core, ',', -1, /*KeepEmpty=*/false);
  for (StringRef C : Core)
    Request.Checkers.push_back(C.trim().str());
  for (const std::string &Name : RunFor)
    Request.Checkers.push_back((PackagePrefix + Name).str());

  // Checker options: krefcheck-<Checker>.<Option> is
  // refcount.<Checker>:<Option>.
  for (StringRef Name : krefcheck::PublicCheckers) {
    std::string Prefix = (CheckPrefix + Name + ".").str();
    for (const auto &KV : Options) {
      StringRef Key = KV.getKey();
      if (Key.consume_front(Prefix))
        Request.Config.emplace_back((PackagePrefix + Name + ":" + Key).str(),
                                    KV.getValue().Value);
    }
  }
  if (std::optional<std::string> Model = option(ModelFileKey)) {
    // Relative to the compile command's directory, as under the compiler.
    llvm::SmallString<256> Path(*Model);
    auto CWD =
        SM.getFileManager().getVirtualFileSystem().getCurrentWorkingDirectory();
    if (!Path.empty() && !llvm::sys::path::is_absolute(Path) && CWD) {
      Path = *CWD;
      llvm::sys::path::append(Path, *Model);
    }
    Request.Config.emplace_back("refcount:ModelFile", Path.str().str());
  }
  if (std::optional<std::string> Extra = option(AnalyzerConfigKey)) {
    llvm::SmallVector<StringRef> Items;
    StringRef(*Extra).split(Items, ';', -1, /*KeepEmpty=*/false);
    for (StringRef Item : Items) {
      auto [Key, Value] = Item.split('=');
      if (Item.trim().empty())
        continue;
      if (!Item.contains('=') || Key.trim().empty()) {
        reportConfigError(FileStart, ("option " + AnalyzerConfigKey + ": '" +
                                      Item.trim() + "' is not key=value")
                                         .str());
        return;
      }
      Request.Config.emplace_back(Key.trim().str(), Value.trim().str());
    }
  }

  AnalysisResult R = analyzeTU(*Result.Context, *PP, Request);
  for (const std::string &E : R.ConfigErrors)
    reportConfigError(FileStart, E);
  if (R.Crashed) {
    llvm::errs() << "krefcheck: " << Context->getCurrentFile()
                 << ": the analyzer crashed; refcount diagnostics for this "
                    "file are incomplete\n";
    diag(FileStart, "The krefcheck analysis crashed on this file; refcount "
                    "diagnostics for it are incomplete");
  }

  for (const Finding &F : R.Findings) {
    StringRef Name = F.Checker;
    if (!Name.consume_front(PackagePrefix))
      continue; // a core checker's report
    std::string CheckName = (CheckPrefix + Name).str();
    {
      DiagnosticBuilder D =
          Context->diag(CheckName, F.Loc, escapeFormat(F.Message));
      for (SourceRange Range : F.Ranges)
        D << Range;
    }
    for (const PathNote &N : F.Path) {
      DiagnosticBuilder D = Context->diag(
          CheckName, N.Loc, escapeFormat(N.Message), DiagnosticIDs::Note);
      for (SourceRange Range : N.Ranges)
        D << Range;
    }
  }
}

void RefcountCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  // The options are the analyzer's: echo the ones that are set.
  const ClangTidyOptions::OptionMap &Options =
      Context->getOptions().CheckOptions;
  std::string Prefix = (CheckPrefix + Checker + ".").str();
  for (const auto &KV : Options) {
    StringRef Key = KV.getKey();
    if (Key.starts_with(Prefix) || Key == CoreCheckersKey ||
        Key == ModelFileKey || Key == AnalyzerConfigKey)
      Opts[Key] = KV.getValue();
  }
}
