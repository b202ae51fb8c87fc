//===- Registration.cpp - The refcount package's checkers and options -----===//
//
// One registration for every way krefcheck runs: the analyzer plugin
// (Plugin.cpp) and the clang-tidy module (tools/krefcheck-tidy), which hands
// this function to the analyzer it runs in-process. Every checker lives in
// the package `refcount`; refcount.Model is the hidden modeling checker the
// others depend on.
//
//=== ---------------------------------------------------------------------===//

#include "Registration.h"
#include "CounterUses.h"
#include "ModelFile.h"
#include "PutStyle.h"
#include "RefcountModel.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"

using namespace clang;
using namespace ento;

void registerRefcountModel(CheckerManager &Mgr);
void registerGetOnZero(CheckerManager &Mgr);
void registerUnsafePromotion(CheckerManager &Mgr);
void registerLifetimeModel(CheckerManager &Mgr);
void registerLeak(CheckerManager &Mgr);
void registerUnderflow(CheckerManager &Mgr);
void registerUseAfterPut(CheckerManager &Mgr);
void registerBiasedCount(CheckerManager &Mgr);
void registerMixedStyle(CheckerManager &Mgr);
void registerOpenCoded(CheckerManager &Mgr);
bool shouldRegisterOpenCoded(const CheckerManager &Mgr);

namespace {
bool always(const CheckerManager &) { return true; }
/// Registers the checker only when the model files are valid: a bad model
/// file is one error, and then no refcount checker runs on the TU.
template <void (*Register)(CheckerManager &)>
void withModel(CheckerManager &Mgr) {
  if (krefcheck::loadModel(Mgr))
    Register(Mgr);
}
/// refcount.Model, which every refcount checker depends on, also decides
/// how the CFG treats cleanup variables (CleanupScopes.cpp).
void registerModelAndScopes(CheckerManager &Mgr) {
  krefcheck::keepPathsThroughCleanups(Mgr);
  withModel<registerRefcountModel>(Mgr);
}
constexpr const char *DocBase =
    "https://github.com/krefcheck/krefcheck/blob/main/docs/checkers/";
} // namespace

void krefcheck::registerCheckers(CheckerRegistry &Registry) {
  // Package options need the package to exist before the checkers that
  // imply it. Every option is registered here, so
  // -analyzer-checker-option-help lists them with their defaults.
  Registry.addPackage("refcount");
  Registry.addPackageOption(
      "string", "refcount", "ModelFile", "",
      "Model file (YAML, docs/configuration.md) that adds to or changes the "
      "built-in kernel API model; when empty, the nearest .krefcheck.yaml in "
      "the main source file's directory or its ancestors is used, if any",
      "released");
  Registry.addPackageOption(
      "bool", "refcount", "BorrowedParams", "false",
      "Assume every function borrows its pointer parameters: refcount."
      "Underflow reports a put of a parameter the function never got, unless "
      "its name says it releases (put, release, free, ...) or an annotation "
      "or the model says it consumes or releases it (off: only parameters "
      "marked KREF_BORROWS / kind borrow)",
      "released");
  Registry.addPackageOption(
      "string", "refcount", "DisableRules", "",
      "Names of lifetime-model rules to turn off, separated by ';' or spaces "
      "(docs/configuration.md#rules lists them; an unknown name is an error)",
      "released");
  Registry.addPackageOption(
      "string", "refcount", "EnableRules", "",
      "Names of lifetime-model rules that are off by default to turn on "
      "(given-reference-single-put), separated by ';' or spaces; "
      "DisableRules wins over it",
      "released");
  Registry.addPackageOption(
      "bool", "refcount", "RuleStats", "false",
      "Print how often each lifetime-model rule fired in the translation "
      "unit to stderr (krefcheck-rule-stats: FILE RULE COUNT)",
      "released");
  Registry.addPackageOption(
      "bool", "refcount", "DumpContracts", "false",
      "Print the call contract the lifetime model applies to each call, "
      "once per call site, to stderr",
      "released");
  Registry.addPackageOption(
      "bool", "refcount", "KeepCleanupPaths", "true",
      "In C, build the CFG without implicit destructors, so that the "
      "analyzer does not end every path that leaves the scope of a cleanup "
      "variable (guard(), scoped_guard(), __free(); llvm-project issue "
      "160527); the cleanup call itself is not modelled",
      "released");
  Registry.addChecker(registerModelAndScopes, always, "refcount.Model",
                      "Models reference counts, locks and internal references "
                      "(used by the other refcount checkers)",
                      "", /*IsHidden=*/true);
  Registry.addChecker(withModel<registerGetOnZero>, always,
                      "refcount.GetOnZero",
                      "Finds gets (increments) of a reference count that is or "
                      "may be zero",
                      std::string(DocBase) + "GetOnZero.md", false);
  Registry.addDependency("refcount.GetOnZero", "refcount.Model");
  Registry.addChecker(withModel<registerUnsafePromotion>, always,
                      "refcount.UnsafePromotion",
                      "Finds internal (lookup) references promoted with a "
                      "plain get where the put style needs a test-for-zero "
                      "get or the put's lock",
                      std::string(DocBase) + "UnsafePromotion.md", false);
  Registry.addDependency("refcount.UnsafePromotion", "refcount.Model");
  // Lifetime checks over the get/put APIs (LifetimeAPI.cpp).
  Registry.addChecker(withModel<registerLifetimeModel>, always,
                      "refcount.LifetimeModel",
                      "Models which counted references a path holds (used by "
                      "refcount.Leak, Underflow and UseAfterPut)",
                      "", /*IsHidden=*/true);
  Registry.addDependency("refcount.LifetimeModel", "refcount.Model");
  Registry.addChecker(withModel<registerLeak>, always, "refcount.Leak",
                      "Finds references (get, +1 lookup results, iterator "
                      "nodes) not released when the path ends",
                      std::string(DocBase) + "Leak.md", false);
  Registry.addDependency("refcount.Leak", "refcount.LifetimeModel");
  Registry.addChecker(withModel<registerUnderflow>, always,
                      "refcount.Underflow",
                      "Finds puts of references a path already released",
                      std::string(DocBase) + "Underflow.md", false);
  Registry.addDependency("refcount.Underflow", "refcount.LifetimeModel");
  Registry.addChecker(withModel<registerUseAfterPut>, always,
                      "refcount.UseAfterPut",
                      "Finds uses of an object after the path put the last "
                      "reference it held",
                      std::string(DocBase) + "UseAfterPut.md", false);
  Registry.addDependency("refcount.UseAfterPut", "refcount.LifetimeModel");
  // Counter-style checks (syntactic: no dependency on refcount.Model).
  Registry.addChecker(withModel<registerBiasedCount>, always,
                      "refcount.BiasedCount",
                      "Finds reference counts biased by a large value to "
                      "store a bit of state (use a flag bit instead)",
                      std::string(DocBase) + "BiasedCount.md", false);
  Registry.addCheckerOption(
      "string", "refcount.BiasedCount", "AllowList", "",
      "Names of intentional biases (macros, enumerators, variables or "
      "fields) or of counter fields never to report, separated by ';' or "
      "spaces; when set it replaces the model's bias-allow-list (empty: the "
      "model's list, built-in PERCPU_COUNT_BIAS, GUP_PIN_COUNTING_BIAS, "
      "pagecnt_bias, IO_POLL_REF_BIAS, BIAS_MAX, SKB_DATAREF_SHIFT plus the "
      "model file's)",
      "released");
  Registry.addCheckerOption("int", "refcount.BiasedCount", "Threshold", "65536",
                            "Smallest constant magnitude that is a bias",
                            "released");
  Registry.addChecker(withModel<registerMixedStyle>, always,
                      "refcount.MixedStyle",
                      "Finds a counter released in two styles (kref insides "
                      "touched directly, plain decrements of a tested count, "
                      "kref and kcref puts mixed)",
                      std::string(DocBase) + "MixedStyle.md", false);
  Registry.addCheckerOption(
      "string", "refcount.MixedStyle", "PlainCounters", "",
      "Counter fields (`field` or `struct::field`, separated by ';' or "
      "spaces) that are plain style on purpose: plain decrements of them are "
      "not reported (as are fields the model gives style plain)",
      "released");
  Registry.addCheckerOption(
      "bool", "refcount.MixedStyle", "RefcountDec", "false",
      "Also report refcount_dec() (off: it is the kernel's checked 'not the "
      "last reference' put and warns at run time when it is)",
      "released");
  Registry.addChecker(withModel<registerOpenCoded>, shouldRegisterOpenCoded,
                      "refcount.OpenCoded",
                      "Suggests refcount_t or struct kref for an atomic_t "
                      "used as a lifetime count (opt-in: only when named "
                      "explicitly or with refcount.OpenCoded:Enable=true)",
                      std::string(DocBase) + "OpenCoded.md", false);
  Registry.addCheckerOption("bool", "refcount.OpenCoded", "Enable", "false",
                            "Run refcount.OpenCoded when the whole refcount "
                            "package is enabled",
                            "released");
}

void krefcheck::resetTUCaches() {
  resetAsmGotoCache();
  PutStyleDB::resetCache();
  CounterUseDB::resetCache();
  resetModel();
}
