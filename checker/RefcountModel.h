//===- RefcountModel.h - Shared helpers of the refcount checkers -*- C++
//-*-===//
#ifndef KREFCHECK_REFCOUNTMODEL_H
#define KREFCHECK_REFCOUNTMODEL_H

#include "RefcountAPI.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"

namespace krefcheck {

/// A call to a counting API, decoded: which API, and the counter it works on.
struct CountCall {
  const CountAPI *API = nullptr;
  const clang::ento::MemRegion *Counter = nullptr;
  explicit operator bool() const { return API != nullptr; }
};

/// Decodes a call to a counting API (including atomic_add_unless(v, 1, 0),
/// which is a test-for-zero get). Counter is null when the argument is not a
/// known region (the call is still an API call).
CountCall decodeCountCall(const clang::ento::CallEvent &Call);

/// Bug category shared by every refcount report.
inline constexpr const char *RefcountCategory = "Reference counting";

} // namespace krefcheck

#endif
