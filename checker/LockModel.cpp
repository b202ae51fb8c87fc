//===- LockModel.cpp - Which locks a path holds ---------------------------===//
//
// The lock functions and lock types are rows of the active model (the model
// file's `locks:` and `types: lock-records`).
//
//===----------------------------------------------------------------------===//

#include "LockModel.h"
#include "CounterKey.h"
#include "ModelFile.h"
#include "clang/AST/Decl.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

// A list keeps acquisition order for messages; lock sets are small.
REGISTER_LIST_WITH_PROGRAMSTATE(HeldLockList, const MemRegion *)
REGISTER_TRAIT_WITH_PROGRAMSTATE(RcuDepth, unsigned)
// Locks this path released (so a later get "after unlocking L" is provable).
REGISTER_SET_WITH_PROGRAMSTATE(ReleasedLocks, const MemRegion *)

namespace {
bool isLockRecord(QualType T) {
  if (T.isNull())
    return false;
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  if (RD->getName().empty()) // anonymous union inside spinlock_t
    return true;
  return activeModel().Types.LockRecords.contains(RD->getName());
}
} // namespace

const LockAPI *krefcheck::lookupLockAPI(StringRef Name) {
  const LockAPI *API = activeModel().lockAPI(Name);
  if (!API || API->Op == LockOp::TryAcquireOnZero ||
      API->Op == LockOp::PassesLock)
    return nullptr;
  return API;
}

const MemRegion *krefcheck::lockRegion(const MemRegion *R) {
  if (!R)
    return nullptr;
  R = R->StripCasts();
  while (const auto *FR = dyn_cast<FieldRegion>(R)) {
    const auto *Super = dyn_cast<TypedValueRegion>(FR->getSuperRegion());
    if (!Super || !isLockRecord(Super->getValueType()))
      break;
    R = Super;
  }
  return R;
}

/// One declaration per lock: `extern struct mutex mtd_table_mutex;` in a
/// header and its definition in the .c file are the same lock.
static const ValueDecl *canonicalLock(const ValueDecl *D) {
  return D ? cast<ValueDecl>(D->getCanonicalDecl()) : nullptr;
}

const ValueDecl *krefcheck::lockDecl(const MemRegion *Lock) {
  if (const auto *FR = dyn_cast_or_null<FieldRegion>(Lock))
    return FR->getDecl();
  if (const auto *VR = dyn_cast_or_null<VarRegion>(Lock))
    return canonicalLock(VR->getDecl());
  if (const auto *ER = dyn_cast_or_null<ElementRegion>(Lock))
    return lockDecl(ER->getSuperRegion()); // bucket locks: lock[i]
  return nullptr;
}

const ValueDecl *krefcheck::lockDeclFromExpr(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripAddrOf(E);
  // `&obj->lock.rlock` names obj->lock: skip members inside lock records.
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenCasts();
    QualType BT = Base->getType();
    if (ME->isArrow())
      BT = BT->getPointeeType();
    if (!isLockRecord(BT))
      return ME->getMemberDecl();
    E = Base;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return lockDeclFromExpr(ASE->getBase());
  // spin_lock_irqsave(lock, f) is _raw_spin_lock_irqsave(spinlock_check(lock)).
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier())
        if (const LockAPI *API = activeModel().lockAPI(FD->getName()))
          if (API->Op == LockOp::PassesLock && CE->getNumArgs() > API->LockArg)
            return lockDeclFromExpr(CE->getArg(API->LockArg));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return canonicalLock(DRE->getDecl());
  return nullptr;
}

std::string krefcheck::describeLock(const ValueDecl *D) {
  if (!D)
    return "a lock";
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    return "'" + FD->getParent()->getName().str() + "::" + FD->getName().str() +
           "'";
  return "'" + D->getName().str() + "'";
}

ProgramStateRef krefcheck::addHeldLock(ProgramStateRef State,
                                       const MemRegion *Lock) {
  Lock = lockRegion(Lock);
  if (!Lock)
    return State;
  for (const MemRegion *R : State->get<HeldLockList>())
    if (R == Lock)
      return State;
  return State->add<HeldLockList>(Lock);
}

SmallVector<ProgramStateRef, 2> krefcheck::applyLockCall(const CallEvent &Call,
                                                         CheckerContext &C) {
  SmallVector<ProgramStateRef, 2> Out;
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II)
    return Out;
  ProgramStateRef State = C.getState();
  StringRef Name = II->getName();
  const LockAPI *API = activeModel().lockAPI(Name);
  if (!API || API->Op == LockOp::PassesLock)
    return Out;
  // An interrupted mutex_lock_interruptible() returns non-zero: held on 0.
  bool ZeroMeansHeld = API->Op == LockOp::TryAcquireOnZero;
  if (API->Op == LockOp::RcuLock) {
    Out.push_back(State->set<RcuDepth>(State->get<RcuDepth>() + 1));
    return Out;
  }
  if (API->Op == LockOp::RcuUnlock) {
    unsigned D = State->get<RcuDepth>();
    Out.push_back(State->set<RcuDepth>(D ? D - 1 : 0));
    return Out;
  }
  unsigned Arg = API->LockArg;
  if (Call.getNumArgs() <= Arg)
    return Out;
  const MemRegion *Lock = lockRegion(Call.getArgSVal(Arg).getAsRegion());
  if (!Lock)
    return Out;

  auto Add = [&](ProgramStateRef S) { return addHeldLock(S, Lock); };
  auto Remove = [&](ProgramStateRef S) {
    auto &F = S->get_context<HeldLockList>();
    HeldLockListTy Kept = F.getEmptyList();
    SmallVector<const MemRegion *, 4> Rest;
    for (const MemRegion *R : S->get<HeldLockList>())
      if (R != Lock)
        Rest.push_back(R);
    for (auto I = Rest.rbegin(), E = Rest.rend(); I != E; ++I)
      Kept = F.add(*I, Kept);
    return S->set<HeldLockList>(Kept);
  };

  if (API->Op == LockOp::Acquire) {
    Out.push_back(Add(State));
    return Out;
  }
  if (API->Op == LockOp::Release) {
    Out.push_back(Remove(State)->add<ReleasedLocks>(Lock));
    return Out;
  }
  // Trylocks: split on the result.
  SVal Ret = Call.getReturnValue();
  auto DV = Ret.getAs<DefinedOrUnknownSVal>();
  if (!DV || DV->isUnknown()) {
    Out.push_back(State);
    return Out;
  }
  auto [NonZero, Zero] = State->assume(*DV);
  ProgramStateRef Held = ZeroMeansHeld ? Zero : NonZero;
  ProgramStateRef NotHeld = ZeroMeansHeld ? NonZero : Zero;
  // mutex_lock_interruptible() fails with a negative errno (-EINTR), which
  // a caller that returns it returns as its error.
  if (ZeroMeansHeld && NotHeld)
    if (auto NL = Ret.getAs<NonLoc>()) {
      SValBuilder &SVB = C.getSValBuilder();
      SVal Neg = SVB.evalBinOpNN(
          NotHeld, BO_LT, *NL,
          SVB.makeZeroVal(Call.getResultType()).castAs<NonLoc>(),
          SVB.getConditionType());
      if (auto D = Neg.getAs<DefinedOrUnknownSVal>())
        NotHeld = NotHeld->assume(*D, true);
    }
  if (Held)
    Out.push_back(Add(Held));
  if (NotHeld)
    Out.push_back(NotHeld);
  return Out;
}

SmallVector<const MemRegion *, 4> krefcheck::heldLocks(ProgramStateRef State) {
  SmallVector<const MemRegion *, 4> Locks;
  for (const MemRegion *R : State->get<HeldLockList>())
    Locks.push_back(R);
  std::reverse(Locks.begin(), Locks.end());
  return Locks;
}

SmallVector<const MemRegion *, 4>
krefcheck::releasedLocks(ProgramStateRef State) {
  SmallVector<const MemRegion *, 4> Locks;
  for (const MemRegion *R : State->get<ReleasedLocks>())
    Locks.push_back(R);
  return Locks;
}

bool krefcheck::inRcuReadSection(ProgramStateRef State) {
  return State->get<RcuDepth>() > 0;
}
