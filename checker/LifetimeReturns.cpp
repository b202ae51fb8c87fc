//===- LifetimeReturns.cpp - References at a return -----------------------===//
//
// What a return does to the path's references: a reference returned is
// the caller's; an error return of an inlined callee that holds counts gets
// a note (heldAtErrorReturn); rule keeper-failed gives a created object
// back to the path when the call that may have kept it failed.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

/// A status a call returned (an int the analyzer could not compute) that
/// the path assumed nonzero but not of a sign: `if (ret) return ret;`.
static const CallExpr *nonzeroCallStatus(SVal V, ProgramStateRef State,
                                         CheckerContext &C) {
  const auto *Sym = dyn_cast_or_null<SymbolConjured>(V.getAsSymbol());
  const auto *CE = Sym ? dyn_cast_or_null<CallExpr>(Sym->getStmt()) : nullptr;
  if (!CE || !Sym->getType()->isSignedIntegerType() ||
      assumeCmpZero(State, V, BO_EQ, C))
    return nullptr;
  return CE;
}

/// Whether the function returns an error: NULL or an ERR_PTR(), a value
/// known negative, or (rule nonzero-status-error) a call's nonzero status,
/// that call then in *FailedCall.
static bool isErrorReturn(const Expr *RetE, SVal V, ProgramStateRef State,
                          CheckerContext &C,
                          const CallExpr **FailedCall = nullptr) {
  const Expr *E = RetE->IgnoreParenCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (contractFor(FD).Role == CallRole::MakesErrPtr)
        return true;
  if (RetE->getType()->isPointerType()) {
    if (V.isZeroConstant())
      return true;
    if (auto CI = V.getAs<loc::ConcreteInt>())
      return apsInt(CI->getValue()).getZExtValue() >= (uint64_t)-4095;
    return false;
  }
  if (!RetE->getType()->isSignedIntegerType())
    return false;
  // -EINPROGRESS is the status of an asynchronous operation under way
  // (pm_runtime_get() queued the resume), -EIOCBQUEUED that of an I/O
  // queued for completion (__blkdev_direct_IO()): not failures.
  constexpr int EInProgress = 115; // include/uapi/asm-generic/errno.h
  constexpr int EIocbQueued = 529; // include/linux/errno.h
  if (auto NL = V.getAs<NonLoc>()) {
    SValBuilder &SVB = C.getSValBuilder();
    for (int Status : {EInProgress, EIocbQueued}) {
      SVal Eq = SVB.evalBinOpNN(
          State, BO_EQ, *NL,
          SVB.makeIntVal(-Status, C.getASTContext().IntTy).castAs<NonLoc>(),
          SVB.getConditionType());
      if (auto D = Eq.getAs<DefinedOrUnknownSVal>())
        if (State->assume(*D, true) && !State->assume(*D, false) &&
            applyRule(RuleId::InProgressNotError))
          return false;
    }
  }
  ProgramStateRef Neg = assumeCmpZero(State, V, BO_LT, C);
  ProgramStateRef NonNeg = assumeCmpZero(State, V, BO_GE, C);
  if (!V.getAs<NonLoc>())
    return false;
  if (Neg && !NonNeg)
    return true;
  const CallExpr *CE = Neg && NonNeg ? nonzeroCallStatus(V, State, C) : nullptr;
  if (!CE || !applyRule(RuleId::NonzeroStatusError))
    return false;
  if (FailedCall)
    *FailedCall = CE;
  return true;
}

/// A callee the analyzer inlined returns an error while holding counts it
/// took itself: a leak reported later, at its caller's return, gets a note
/// here, where the put is missing; rule callee-failed-holding marks those
/// counts as leaked whatever the caller's own outcome.
static const NoteTag *
heldAtErrorReturn(const Expr *RetE, ProgramStateRef &State, CheckerContext &C) {
  const LocationContext *LC = C.getLocationContext();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(LC->getDecl());
  if (!FD || !FD->getIdentifier())
    return nullptr;
  const ParentMap &PM = LC->getParentMap();
  SmallVector<std::pair<const MemRegion *, std::string>, 2> Held;
  SmallVector<RefKey, 2> Keys;
  for (const auto &KV : allRefs(State))
    if (KV.second.isOwned() && KV.second.AcquireSite &&
        PM.hasParent(KV.second.AcquireSite)) {
      Held.push_back({KV.first.Region, describeRef(KV.first, KV.second)});
      Keys.push_back(KV.first);
    }
  // Only then ask whether the value is an error: that takes constraint
  // solving, on every return of every inlined function.
  if (Held.empty() || !isErrorReturn(RetE, C.getSVal(RetE), State, C))
    return nullptr;
  for (const RefKey &K : Keys) {
    RefEntry E = *getRef(State, K);
    if (!E.HeldAtCalleeError && applyRule(RuleId::CalleeFailedHolding)) {
      E.HeldAtCalleeError = true;
      State = setRef(State, K, E);
    }
  }
  std::string Fn = FD->getName().str() + "()";
  return C.getNoteTag([Held, Fn](PathSensitiveBugReport &BR) -> std::string {
    if (BR.getBugType().getCheckerName() != "refcount.Leak")
      return "";
    for (const auto &H : Held) {
      const auto *SR = dyn_cast<SymbolicRegion>(H.first);
      if (BR.isInteresting(H.first) ||
          (SR && BR.isInteresting(SR->getSymbol())))
        return Fn +
               " returns an error here without dropping the count it took on " +
               H.second;
    }
    return "";
  });
}

/// Rule keeper-failed: the function returns, as its own, the nonzero
/// status of the call that may have kept a created object (`ret =
/// start(c); if (ret) return ret;`): that call failed, and a failing callee
/// keeps nothing. The object is the path's again.
static ProgramStateRef keeperFailed(SVal V, ProgramStateRef State,
                                    CheckerContext &C, const NoteTag *&Tag) {
  // Known negative: an error return already (isErrorReturn()).
  const CallExpr *Status = nonzeroCallStatus(V, State, C);
  if (!Status || !assumeCmpZero(State, V, BO_GE, C))
    return State;
  for (const auto &KV : allRefs(State)) {
    RefEntry E = KV.second;
    if (!E.MayBeKept || E.KeptBy != Status || !E.isHeld() ||
        !applyRule(RuleId::KeeperFailed))
      continue;
    // The analyzed function returns that failure (reported at its return,
    // as any error return); an inlined one leaves the object to die with
    // its pointer.
    if (C.inTopFrame()) {
      State = setReturnsError(State, PathError::Known);
    } else {
      E.MayBeKept = false;
      State = setRef(State, KV.first, E);
    }
    const FunctionDecl *FD = Status->getDirectCallee();
    std::string Callee = FD ? FD->getName().str() + "()" : "the call";
    Tag = refNote(C, KV.first.Region, KV.first.Fam, "",
                  [Callee](const std::string &N) {
                    return "Returning the nonzero status of " + Callee +
                           ": it failed and kept nothing, so " + N +
                           " is still this path's to put";
                  });
  }
  return State;
}

/// Adds State with up to two notes (chained: one transition carries one).
static void addTransitionWithNotes(CheckerContext &C, ProgramStateRef State,
                                   const NoteTag *First,
                                   const NoteTag *Second) {
  if (First && Second) {
    if (ExplodedNode *N = C.addTransition(State, First))
      C.addTransition(State, N, Second);
    return;
  }
  C.addTransition(State, First ? First : Second);
}

void lifetime::noteReturn(const ReturnStmt *RS, CheckerContext &C) {
  const Expr *RetE = RS->getRetValue();
  if (!RetE)
    return;
  const NoteTag *KeeperTag = nullptr;
  ProgramStateRef State =
      keeperFailed(C.getSVal(RetE), C.getState(), C, KeeperTag);
  if (!C.inTopFrame()) {
    // keeper-failed's note says why the object is still held.
    const NoteTag *Tag =
        KeeperTag ? nullptr : heldAtErrorReturn(RetE, State, C);
    // `pci_dev_put(dev); return dev;`: the function deliberately returns a
    // pointer it holds no count on (the object is kept alive elsewhere, e.g.
    // on a bus list); its caller uses it as a borrowed pointer.
    if (const MemRegion *R = refRegion(C.getSVal(RetE)))
      for (const auto &KV : allRefs(State)) {
        if (KV.first.Region->getBaseRegion() != R->getBaseRegion() ||
            KV.second.K != RefEntry::Kind::Released ||
            !applyRule(RuleId::ReturnedAfterPut))
          continue;
        RefEntry E = KV.second;
        State = setRef(State, KV.first, E.escaped());
      }
    addTransitionWithNotes(C, State, KeeperTag, Tag);
    return;
  }
  SVal V = C.getSVal(RetE);
  const Expr *Stripped = RetE->IgnoreParenCasts();
  const MemRegion *R = refRegion(V);
  const MemRegion *Base = R ? R->getBaseRegion() : nullptr;
  for (const auto &KV : allRefs(State)) {
    RefEntry E = KV.second;
    if (E.K != RefEntry::Kind::Owned && E.K != RefEntry::Kind::Lost)
      continue;
    const MemRegion *RefBase = KV.first.Region->getBaseRegion();
    bool Returned =
        E.AcquireSite == Stripped ||
        (Base && escapesOnStore(keyFamily(KV.first)) &&
         (RefBase == Base ||
          (isa<SymbolicRegion>(Base) &&
           convertedFrom(State, cast<SymbolicRegion>(Base)->getSymbol()) ==
               RefBase &&
           applyRule(RuleId::ReturnedView))));
    if (Returned) {
      State = setRef(State, KV.first, E.escaped());
    }
  }
  // Whether the path returns an error matters only to the counts still
  // held when the function ends (checkEndFunction).
  const CallExpr *Failed = nullptr;
  const NoteTag *StatusTag = nullptr;
  if (hasRefs(State) && returnsError(State) == PathError::None &&
      isErrorReturn(RetE, V, State, C, &Failed)) {
    State = setReturnsError(State, Failed ? PathError::NonzeroStatus
                                          : PathError::Known);
    const FunctionDecl *FD = Failed ? Failed->getDirectCallee() : nullptr;
    if (FD && !KeeperTag) {
      std::string Msg = "Returning the nonzero status of " +
                        FD->getName().str() +
                        "(): a failure, by the kernel's 0-or-errno convention";
      StatusTag = C.getNoteTag([Msg](PathSensitiveBugReport &) { return Msg; },
                               /*IsPrunable=*/true);
    }
  }
  addTransitionWithNotes(C, State, KeeperTag, StatusTag);
}

bool lifetime::failurePassedThrough(const ExplodedNode *N, const RefEntry &E) {
  const StackFrameContext *Top = N ? N->getStackFrame() : nullptr;
  for (; N; N = N->getFirstPred()) {
    if (N->getStackFrame() != Top)
      return false; // an inlined call: the function handled the failure
    auto PS = N->getLocationAs<PostStmt>();
    const auto *CE = PS ? dyn_cast<CallExpr>(PS->getStmt()) : nullptr;
    if (!CE)
      continue;
    if (CE == E.AcquireSite)
      return applyRule(RuleId::FailurePassedThrough);
    // Logging, and the compiler builtins its macros expand to
    // (`__builtin_constant_p()` in printk's index), do no cleanup.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD ||
        (!FD->getBuiltinID() && contractFor(FD).Role != CallRole::Logging))
      return false;
  }
  return false;
}
