//===- LifetimeModel.h - refcount.LifetimeModel interface -------*- C++ -*-===//
//
// The hidden modeling checker of the lifetime checks. It evaluates the get/put
// APIs of LifetimeAPI.h and keeps LifetimeState.h up to date. Leaks are found
// where the model drops a reference (its pointer dies, or the function ends),
// so the refcount.Leak checker registers itself here to be told.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_LIFETIMEMODEL_H
#define KREFCHECK_LIFETIMEMODEL_H

#include "LifetimeState.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"

namespace krefcheck {

/// Implemented by refcount.Leak.
class LeakReporter {
public:
  virtual ~LeakReporter() = default;
  /// References the path still holds are lost at node N (the pointers
  /// died, or the analyzed function returns).
  virtual void
  reportLeaks(clang::ento::CheckerContext &C, clang::ento::ExplodedNode *N,
              llvm::ArrayRef<std::pair<RefKey, RefEntry>> Leaks) const = 0;
  /// The memory of an object whose first reference the path holds on a
  /// put-only count (device_initialize()) is freed by the call Free at node
  /// N instead of put.
  virtual void reportFreedNotPut(clang::ento::CheckerContext &C,
                                 clang::ento::ExplodedNode *N, const RefKey &K,
                                 const RefEntry &E,
                                 const clang::ento::CallEvent &Free) const = 0;
};

/// Called by refcount.Leak's registration function.
void attachLeakReporter(clang::ento::CheckerManager &Mgr,
                        const LeakReporter *R);

/// refcount.UseAfterPut's bug type for a use after a tested kref_put()'s
/// release freed the object (rule release-ran): the count model's notes
/// explain that path, the reference notes do not.
inline constexpr const char *UseAfterReleaseBugName = "Use after release";

/// Is this report one of the lifetime checkers' (Leak, Underflow,
/// UseAfterPut) about a reference? Their notes speak only in those.
bool isLifetimeReport(clang::ento::PathSensitiveBugReport &BR);

/// Does the call's tracked-count contract apply to the counter it is given?
/// Always for `tracked: true` rows; for `tracked: created` rows (the
/// atomic_t API, rule created-atomic-count) only on a counter the TU uses as
/// a lifetime count, and, for a get or a put, only on the one whose first
/// reference this path created.
bool followsCount(const clang::ento::CallEvent &Call, const LifetimeAPI &API,
                  clang::ento::ProgramStateRef State);

/// The reference the path holds on exactly the counter a counting call is
/// given (no other counter of the same object), or null.
const RefEntry *counterRef(const clang::ento::CallEvent &Call,
                           const LifetimeAPI &API,
                           clang::ento::ProgramStateRef State);

/// Marks the reference's region (and its symbol) interesting, so the model's
/// notes about it appear in the report.
void markRefInteresting(clang::ento::PathSensitiveBugReport &BR,
                        const RefKey &K);

} // namespace krefcheck

#endif
