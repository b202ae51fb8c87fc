//===- Plugin.cpp - Registers the refcount checkers with the analyzer -----===//
//
// Loaded with `clang --analyze -Xclang -load -Xclang krefcheck.so`. Every
// checker lives in the package `refcount`; refcount.Model is the hidden
// modeling checker the others depend on.
//
//===----------------------------------------------------------------------===//

#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"

using namespace clang;
using namespace ento;

void registerRefcountModel(CheckerManager &Mgr);
void registerGetOnZero(CheckerManager &Mgr);
void registerUnsafePromotion(CheckerManager &Mgr);

namespace {
bool always(const CheckerManager &) { return true; }
constexpr const char *DocBase =
    "https://github.com/krefcheck/krefcheck/blob/main/docs/checkers/";
} // namespace

extern "C" __attribute__((visibility("default"))) void
clang_registerCheckers(CheckerRegistry &Registry) {
  Registry.addChecker(registerRefcountModel, always, "refcount.Model",
                      "Models reference counts, locks and internal references "
                      "(used by the other refcount checkers)",
                      "", /*IsHidden=*/true);
  Registry.addChecker(registerGetOnZero, always, "refcount.GetOnZero",
                      "Finds gets (increments) of a reference count that is or "
                      "may be zero",
                      std::string(DocBase) + "GetOnZero.md", false);
  Registry.addDependency("refcount.GetOnZero", "refcount.Model");
  Registry.addChecker(registerUnsafePromotion, always,
                      "refcount.UnsafePromotion",
                      "Finds internal (lookup) references promoted with a "
                      "plain get where the put style needs a test-for-zero "
                      "get or the put's lock",
                      std::string(DocBase) + "UnsafePromotion.md", false);
  Registry.addDependency("refcount.UnsafePromotion", "refcount.Model");
}

extern "C" __attribute__((visibility("default")))
const char clang_analyzerAPIVersionString[] =
    CLANG_ANALYZER_API_VERSION_STRING;
