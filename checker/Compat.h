//===- Compat.h - The few analyzer API differences between LLVM 19 and 22 -===//
#ifndef KREFCHECK_COMPAT_H
#define KREFCHECK_COMPAT_H

#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "llvm/Config/llvm-config.h"

namespace krefcheck {

/// A fresh symbol for the result of a call we evaluate ourselves.
inline clang::ento::DefinedOrUnknownSVal
conjureCallResult(const clang::ento::CallEvent &Call,
                  clang::ento::CheckerContext &C) {
#if LLVM_VERSION_MAJOR >= 21
  return C.getSValBuilder().conjureSymbolVal(Call, C.blockCount());
#else
  return C.getSValBuilder().conjureSymbolVal(
      Call.getOriginExpr(), C.getLocationContext(), Call.getResultType(),
      C.blockCount());
#endif
}

} // namespace krefcheck

#endif
