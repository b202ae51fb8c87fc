//===- CleanupScopes.cpp - Paths through scope-based cleanup --------------===//
//
// The kernel's scope-based cleanup (guard(), scoped_guard(), __free(),
// CLASS()) declares variables with __attribute__((cleanup(f))). The CFG
// has a CleanupFunction element where such a variable leaves its scope, and
// the analyzer's engine (LLVM 19 to 22; llvm-project issue 160527, fixes
// under review) makes no successor node for that element: a path that
// leaves the scope ends there, silently, before the function's end. Every
// count still held on it is lost: `guard(mutex)(&bc->lock); ret =
// pm_runtime_get_sync(dev); if (ret < 0) return ret;` was never reported.
//
// The CFG builder adds those elements only with implicit destructors, which
// C does not have. For a C translation unit, option refcount:
// KeepCleanupPaths (on by default) builds the CFG without them: the paths
// go on to the function's end, with the cleanup call itself not modelled
// (what a __free() variable holds is handed over to it on the store: rule
// cleanup-variable; a guard()'s unlock at the end of its scope is not seen,
// so the lock counts as held to the end of the function).
//
// The checkers are registered before the analysis manager reads the
// options that shape the CFG (AnalysisConsumer::Initialize builds the
// CheckerManager, then the AnalysisManager), so setting the option here
// takes effect for the whole translation unit.
//
//===----------------------------------------------------------------------===//

#include "Registration.h"
#include "clang/StaticAnalyzer/Core/AnalyzerOptions.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"

using namespace clang;
using namespace ento;

void krefcheck::keepPathsThroughCleanups(CheckerManager &Mgr) {
  if (Mgr.getLangOpts().CPlusPlus)
    return;
  // The options object is the compiler invocation's, not a constant: the
  // manager only hands it out read-only.
  auto &Opts = const_cast<AnalyzerOptions &>(Mgr.getAnalyzerOptions());
  auto It = Opts.Config.find("refcount:KeepCleanupPaths");
  if (It != Opts.Config.end() && It->second == "false")
    return;
  Opts.ShouldIncludeImplicitDtorsInCFG = false;
}
