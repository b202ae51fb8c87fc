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

/// A fresh symbol of type T for the value of expression E, which the
/// analyzer left unknown.
inline clang::ento::DefinedOrUnknownSVal
conjureExprValue(const clang::Expr *E, clang::QualType T,
                 clang::ento::CheckerContext &C) {
#if LLVM_VERSION_MAJOR >= 21
  (void)E;
  return C.getSValBuilder().conjureSymbolVal(
      C.getCFGElementRef(), C.getLocationContext(), T, C.blockCount());
#else
  return C.getSValBuilder().conjureSymbolVal(E, C.getLocationContext(), T,
                                             C.blockCount());
#endif
}

/// The analyzer's symbol count at this point of the path: the id of a
/// symbol conjured here under a tag of krefcheck's own (never bound to
/// anything). Every symbol created later on the path has a larger id.
inline unsigned symbolWatermark(const clang::Stmt *Site,
                                clang::ento::CheckerContext &C) {
  static const int Tag = 0;
#if LLVM_VERSION_MAJOR >= 21
  (void)Site;
  return C.getSymbolManager()
      .conjureSymbol(C.getCFGElementRef(), C.getLocationContext(),
                     C.getASTContext().IntTy, C.blockCount(), &Tag)
      ->getSymbolID();
#else
  return C.getSymbolManager()
      .conjureSymbol(Site, C.getLocationContext(), C.getASTContext().IntTy,
                     C.blockCount(), &Tag)
      ->getSymbolID();
#endif
}

/// ConcreteInt::getValue() is an APSInt& in LLVM 19, an APSIntPtr in 22.
[[maybe_unused]] inline const llvm::APSInt &apsInt(const llvm::APSInt &V) {
  return V;
}
template <typename P> const llvm::APSInt &apsInt(const P &V) { return *V; }

} // namespace krefcheck

#endif
