//===- Registration.h - Registering the refcount checkers -------*- C++ -*-===//
//
// The entry points shared by the analyzer plugin (Plugin.cpp) and the
// clang-tidy module (tools/krefcheck-tidy).
//
//=== ---------------------------------------------------------------------===//
#ifndef KREFCHECK_REGISTRATION_H
#define KREFCHECK_REGISTRATION_H

#include "llvm/ADT/StringRef.h"

namespace clang::ento {
class CheckerManager;
class CheckerRegistry;
} // namespace clang::ento

namespace krefcheck {

/// Adds the `refcount` package's checkers, dependencies and options.
void registerCheckers(clang::ento::CheckerRegistry &Registry);

/// The user-facing checkers, `refcount.<name>`, in registration order. The
/// clang-tidy module names its checks after them (`krefcheck-<name>`); a lit
/// test compares this list with the analyzer's checker help.
inline constexpr const char *PublicCheckers[] = {
    "GetOnZero",   "UnsafePromotion", "Leak",       "Underflow",
    "UseAfterPut", "BiasedCount",     "MixedStyle", "OpenCoded"};

/// Checkers that run only when named on their own (or enabled by their
/// `Enable` option), not when the whole package is enabled.
inline bool isOptInChecker(llvm::StringRef Name) { return Name == "OpenCoded"; }

/// Forgets the per-TU databases the checkers cache and the model loaded for
/// the TU. Needed by hosts that analyze several translation units in one
/// process (clang-tidy, clangd): a new AST may reuse the address of a freed
/// one, and the next file may have another .krefcheck.yaml.
void resetTUCaches();

/// In a C translation unit, builds the CFG without implicit destructors, so
/// that paths leaving the scope of a cleanup variable (guard(), __free())
/// reach the function's end (CleanupScopes.cpp); option
/// refcount:KeepCleanupPaths=false keeps the analyzer's default.
void keepPathsThroughCleanups(clang::ento::CheckerManager &Mgr);

} // namespace krefcheck

#endif
