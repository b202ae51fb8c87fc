//===- RefcountModel.cpp - refcount.Model: state transfer -----------------===//
//
// The hidden modeling checker every refcount checker depends on. It owns the
// program-state facts of CountState.h and writes them; the diagnostic
// checkers only read them (in checkPreCall, before this checker evaluates the
// call) and report. Counting APIs are evaluated by name (eval::Call, in
// RefcountEvalCall.cpp), so the kernel's inline bodies never matter; this
// file holds the checker's other callbacks, its notes and its registration.
//
//   kref_init / *_set(c, n)   -> Held (n != 0) or Zero (n == 0)
//   kref_get / *_inc          -> Held
//   *_inc_not_zero            -> split: 1 => Held, 0 => Zero
//   *_dec_and_test, kref_put  -> split: 1 => Zero, 0 => fact forgotten
//   *_dec_and_lock            -> split: 1 => Zero + lock held, 0 => forgotten
//   *_read                    -> a fresh value, remembered when the path holds
//                                no reference (a check-then-get may follow),
//                                not zero when it holds one
//   kzalloc & co              -> object zero-filled until its count is set
//   idr_find, container_of over a list node, rcu_dereference
//                             -> object is an internal reference
//
//===----------------------------------------------------------------------===//

#include "RefcountModel.h"
#include "Compat.h"
#include "CountState.h"
#include "CounterKey.h"
#include "InternalRefs.h"
#include "LifetimeModel.h"
#include "LockModel.h"
#include "ModelFile.h"
#include "RefcountModelImpl.h"
#include "clang/AST/ParentMap.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {

/// The model's `calls: zero-filled-allocators`.
bool isZeroFillingAllocator(StringRef Name) {
  return activeModel().Calls.ZeroFilledAllocators.contains(Name);
}

bool isRefcountReport(PathSensitiveBugReport &BR) {
  return BR.getBugType().getCheckerName().starts_with("refcount.");
}

} // namespace

const NoteTag *RefcountModel::counterNote(CheckerContext &C,
                                          const MemRegion *Counter,
                                          std::string Msg) const {
  return C.getNoteTag(
      [Counter, Msg](PathSensitiveBugReport &BR) -> std::string {
        if (!isRefcountReport(BR) || !BR.isInteresting(Counter))
          return "";
        return Msg;
      });
}

const NoteTag *RefcountModel::objectNote(CheckerContext &C, SymbolRef Obj,
                                         std::string Msg,
                                         bool CountsOnly) const {
  return C.getNoteTag(
      [Obj, Msg, CountsOnly](PathSensitiveBugReport &BR) -> std::string {
        if (!isRefcountReport(BR) || !BR.isInteresting(Obj) ||
            (CountsOnly && isLifetimeReport(BR)))
          return "";
        return Msg;
      });
}

void RefcountModel::markOrigin(CheckerContext &C, SVal V, InternalOrigin O,
                               StringRef What, const FieldDecl *Member) const {
  const MemRegion *R = V.getAsRegion();
  if (!R)
    return;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()->StripCasts());
  if (!SR)
    return;
  SymbolRef Obj = SR->getSymbol();
  ProgramStateRef State = C.getState();
  if (getInternalOrigin(State, Obj)) {
    // Found again by a later walk: see forgetFailedTryGets().
    ProgramStateRef New = forgetFailedTryGets(State, Obj);
    if (New != State)
      C.addTransition(New);
    return;
  }
  State = markInternalMember(markInternal(State, Obj, O), Obj, Member);
  std::string Msg =
      "Internal reference obtained from " + describeOrigin(O).str() +
      (What.empty() ? "" : (" (" + What + ")").str()) + ": it holds no count";
  C.addTransition(State, objectNote(C, Obj, Msg));
}

void RefcountModel::checkPostCall(const CallEvent &Call,
                                  CheckerContext &C) const {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || inUnevaluatedOperand(Call, C))
    return;
  StringRef Name = II->getName();

  // lockdep_assert_held(L) with CONFIG_LOCKDEP: L is held.
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr()))
    if (assertedHeldLockCall(CE, C.getSourceManager(), C.getLangOpts()))
      if (const MemRegion *DepMap = Call.getArgSVal(0).getAsRegion())
        if (const auto *FR = dyn_cast<FieldRegion>(DepMap->StripCasts())) {
          ProgramStateRef State = C.getState();
          ProgramStateRef New = addHeldLock(State, FR->getSuperRegion());
          if (New != State)
            C.addTransition(New);
          return;
        }

  SmallVector<ProgramStateRef, 2> LockStates = applyLockCall(Call, C);
  if (!LockStates.empty()) {
    for (ProgramStateRef S : LockStates)
      C.addTransition(S);
    return;
  }

  if (std::optional<InternalOrigin> O = lookupCallOrigin(Name)) {
    markOrigin(C, Call.getReturnValue(), *O, (Name + "()").str());
    return;
  }

  if (isZeroFillingAllocator(Name)) {
    SymbolRef Obj = Call.getReturnValue().getAsSymbol();
    if (!Obj)
      return;
    C.addTransition(markZeroFilled(C.getState(), Obj),
                    objectNote(C, Obj,
                               "Object allocated zero-filled by " + Name.str() +
                                   "(): its counts are zero until initialized",
                               /*CountsOnly=*/true));
  }
}

void RefcountModel::checkPostStmt(const CastExpr *CE, CheckerContext &C) const {
  // container_of() spelled as pointer arithmetic over an index node, in a
  // macro or written out.
  if (std::optional<InternalOrigin> O =
          offsetofContainerOrigin(CE, C.getASTContext())) {
    markOrigin(C, C.getSVal(CE), *O, "", containerMember(CE));
    return;
  }
  // The analyzer runs no checker callbacks on a StmtExpr itself, so the
  // value of container_of()/rcu_dereference() is caught at the cast that ends
  // their statement expression: `({ ...; ((type *)(__mptr - off)); })`.
  if (!isa<CStyleCastExpr>(CE) || !CE->getBeginLoc().isMacroID())
    return;
  if (const Expr *Lock =
          assertedHeldLock(CE, C.getSourceManager(), C.getLangOpts())) {
    ProgramStateRef State = C.getState();
    ProgramStateRef New = addHeldLock(State, C.getSVal(Lock).getAsRegion());
    if (New != State)
      C.addTransition(New);
    return;
  }
  if (!CE->getType()->isPointerType())
    return;
  const ParentMap &PM = C.getLocationContext()->getParentMap();
  const Stmt *Child = CE;
  const Stmt *P = PM.getParent(Child);
  while (isa_and_nonnull<ParenExpr>(P)) {
    Child = P;
    P = PM.getParent(P);
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(P);
  if (!Body || Body->body_empty() || Body->body_back() != Child)
    return;
  const auto *SE = dyn_cast_or_null<StmtExpr>(PM.getParent(Body));
  if (!SE)
    return;
  std::optional<InternalOrigin> O =
      statementExprOrigin(SE, C.getSourceManager(), C.getLangOpts());
  if (!O)
    return;
  markOrigin(C, C.getSVal(CE), *O, "", containerMember(SE));
}

void RefcountModel::checkPostStmt(const BinaryOperator *BO,
                                  CheckerContext &C) const {
  // A count read compared with a bound that is not a constant is flow
  // control (`sk_wmem_alloc_get(sk) < READ_ONCE(sk->sk_sndbuf)`: is there
  // room in the send buffer?), not a test for zero; the constraints it leaves
  // on the read say nothing about liveness.
  if (!BO->isComparisonOp())
    return;
  ProgramStateRef State = C.getState();
  SVal L = C.getSVal(BO->getLHS());
  SVal R = C.getSVal(BO->getRHS());
  // So is one with a constant far from zero: `sk_wmem_alloc_get(sk) <
  // SKB_TRUESIZE(1)` asks whether the socket has data in flight. Zero and
  // the sharing tests (`== 1`, `> 1`, `>= 2`) stay tests.
  auto isSmallConstant = [](SVal V) {
    if (V.getAs<loc::ConcreteInt>())
      return true;
    auto CI = V.getAs<nonloc::ConcreteInt>();
    if (!CI)
      return false;
    const llvm::APSInt &N = apsInt(CI->getValue());
    return N.isSigned() ? N.getSExtValue() >= -2 && N.getSExtValue() <= 2
                        : N.getZExtValue() <= 2;
  };
  ProgramStateRef New = State;
  if (!isSmallConstant(R))
    New = forgetUnownedReadsIn(New, L);
  if (!isSmallConstant(L))
    New = forgetUnownedReadsIn(New, R);
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::checkLocation(SVal Loc, bool IsLoad, const Stmt *S,
                                  CheckerContext &C) const {
  // See forgetPutsOutlivedBy(): a caller of a put that hit zero goes on
  // using the object, so that put was not the final one.
  const MemRegion *R = Loc.getAsRegion();
  ProgramStateRef State = C.getState();
  ProgramStateRef New =
      forgetPutsOutlivedBy(State, ownerSymbol(R), R, C.getStackFrame());
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::checkBind(SVal Loc, SVal Val, const Stmt *S,
                              CheckerContext &C) const {
  // A direct store into a counter (`obj->ref.refcount.refs.counter = 1`)
  // initializes it as far as we can tell.
  const MemRegion *R = Loc.getAsRegion();
  if (!R)
    return;
  const MemRegion *Ctr = nullptr;
  for (const MemRegion *Cur = R; Cur;) {
    if (const auto *FR = dyn_cast<FieldRegion>(Cur))
      if (isCounterType(FR->getDecl()->getType()))
        Ctr = counterRegionFromArg(FR);
    const auto *Sub = dyn_cast<SubRegion>(Cur);
    Cur = Sub ? Sub->getSuperRegion() : nullptr;
  }
  if (!Ctr)
    return;
  ProgramStateRef State = C.getState();
  State = Val.isZeroConstant()
              ? setCountState(State, Ctr,
                              CountState::zero(CountState::Why::SetZero))
              : forgetCountState(State, Ctr);
  if (SymbolRef Obj = ownerSymbol(Ctr))
    State = forgetZeroFilled(State, Obj);
  C.addTransition(State);
}

ProgramStateRef RefcountModel::checkPointerEscape(
    ProgramStateRef State, const InvalidatedSymbols &Escaped,
    const CallEvent *Call, PointerEscapeKind Kind) const {
  // An object handed to code we cannot see may have its count set there.
  for (SymbolRef Sym : Escaped)
    State = forgetZeroFilled(State, Sym);
  return State;
}

void RefcountModel::checkLiveSymbols(ProgramStateRef State,
                                     SymbolReaper &SR) const {
  markCountFactsLive(State, SR);
}

void RefcountModel::checkDeadSymbols(SymbolReaper &SR,
                                     CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  ProgramStateRef New = removeDeadCountFacts(State, SR);
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::printState(raw_ostream &Out, ProgramStateRef State,
                               const char *NL, const char *Sep) const {
  printCountFacts(Out, State, NL);
}

void registerRefcountModel(CheckerManager &Mgr) {
  Mgr.registerChecker<RefcountModel>();
}
