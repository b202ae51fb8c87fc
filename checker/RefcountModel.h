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

/// Does the code look at the call's result (a condition, an operand, a
/// stored value)? An ignored result (a statement of its own, a cast to
/// void) leaves both outcomes the analyzer's split, not the code's claim;
/// a returned one is the caller's to test, and the caller may hold another
/// count.
bool resultTested(const clang::CallExpr *CE, const clang::ParentMap &PM);

/// A call to a function whose body holds an asm goto, evaluated without the
/// body (rule asm-goto-calls, AsmGotoCalls.cpp): true when it did.
bool evalAsmGotoCall(const clang::ento::CallEvent &Call,
                     clang::ento::CheckerContext &C);
/// Forgets the functions AsmGotoCalls.cpp looked at (a new TU).
void resetAsmGotoCache();

/// Is the call inside the operand of `__builtin_constant_p()`, which the
/// code never runs (rule unevaluated-operand, UnevaluatedCalls.cpp)?
bool inUnevaluatedOperand(const clang::ento::CallEvent &Call,
                          clang::ento::CheckerContext &C);
/// Evaluates such a call without its body or effects: true when it did.
bool evalUnevaluatedCall(const clang::ento::CallEvent &Call,
                         clang::ento::CheckerContext &C);

/// Bug category shared by every refcount report.
inline constexpr const char *RefcountCategory = "Reference counting";

} // namespace krefcheck

#endif
