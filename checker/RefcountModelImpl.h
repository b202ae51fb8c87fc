//===- RefcountModelImpl.h - The refcount.Model checker ---------*- C++ -*-===//
//
// refcount.Model (hidden) is one checker whose callbacks live in two files,
// split by reason to change:
//
//   RefcountEvalCall.cpp  eval::Call: the counting APIs evaluated by name
//                         (and decodeCountCall, which the checkers share)
//   RefcountModel.cpp     the other callbacks: internal references,
//                         zero-filled objects, held locks, flow-control
//                         comparisons, direct stores into a counter and the
//                         facts' lifetimes; the notes; registration
//
// Private to those two files.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_REFCOUNTMODELIMPL_H
#define KREFCHECK_REFCOUNTMODELIMPL_H

#include "Compat.h"
#include "KernelTables.h"
#include "clang/StaticAnalyzer/Core/Checker.h"

namespace krefcheck {

/// refcount.Model: owns and writes the facts of CountState.h.
class RefcountModel
    : public clang::ento::Checker<
          clang::ento::eval::Call, clang::ento::check::PostCall,
          clang::ento::check::PostStmt<clang::CastExpr>,
          clang::ento::check::PostStmt<clang::BinaryOperator>,
          clang::ento::check::Location, clang::ento::check::Bind,
          clang::ento::check::PointerEscape, clang::ento::check::LiveSymbols,
          clang::ento::check::DeadSymbols> {
public:
  bool evalCall(const clang::ento::CallEvent &Call,
                clang::ento::CheckerContext &C) const;
  void checkPostCall(const clang::ento::CallEvent &Call,
                     clang::ento::CheckerContext &C) const;
  void checkPostStmt(const clang::CastExpr *CE,
                     clang::ento::CheckerContext &C) const;
  void checkPostStmt(const clang::BinaryOperator *BO,
                     clang::ento::CheckerContext &C) const;
  void checkLocation(clang::ento::SVal Loc, bool IsLoad, const clang::Stmt *S,
                     clang::ento::CheckerContext &C) const;
  void checkBind(clang::ento::SVal Loc, clang::ento::SVal Val,
                 const clang::Stmt *S, clang::ento::CheckerContext &C) const;
#if LLVM_VERSION_MAJOR >= 22
  void checkBind(clang::ento::SVal Loc, clang::ento::SVal Val,
                 const clang::Stmt *S, bool AtDeclInit,
                 clang::ento::CheckerContext &C) const {
    checkBind(Loc, Val, S, C);
  }
#endif
  clang::ento::ProgramStateRef
  checkPointerEscape(clang::ento::ProgramStateRef State,
                     const clang::ento::InvalidatedSymbols &Escaped,
                     const clang::ento::CallEvent *Call,
                     clang::ento::PointerEscapeKind Kind) const;
  void checkLiveSymbols(clang::ento::ProgramStateRef State,
                        clang::ento::SymbolReaper &SR) const;
  void checkDeadSymbols(clang::ento::SymbolReaper &SR,
                        clang::ento::CheckerContext &C) const;
  void printState(llvm::raw_ostream &Out, clang::ento::ProgramStateRef State,
                  const char *NL, const char *Sep) const override;

private:
  /// A note shown only in refcount reports that care about Counter.
  const clang::ento::NoteTag *counterNote(clang::ento::CheckerContext &C,
                                          const clang::ento::MemRegion *Counter,
                                          std::string Msg) const;
  /// A note shown in refcount reports that care about the object Obj;
  /// with CountsOnly, not in the lifetime checkers' (a leak of a created
  /// object needs no word on its zero-filled counts).
  const clang::ento::NoteTag *objectNote(clang::ento::CheckerContext &C,
                                         clang::ento::SymbolRef Obj,
                                         std::string Msg,
                                         bool CountsOnly = false) const;
  void markOrigin(clang::ento::CheckerContext &C, clang::ento::SVal V,
                  InternalOrigin O, llvm::StringRef What,
                  const clang::FieldDecl *Member = nullptr) const;
};

} // namespace krefcheck

#endif
