//===- LockModel.cpp - Which locks a path holds ---------------------------===//

#include "LockModel.h"
#include "CounterKey.h"
#include "clang/AST/Decl.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

// A list keeps acquisition order for messages; lock sets are small.
REGISTER_LIST_WITH_PROGRAMSTATE(HeldLockList, const MemRegion *)
REGISTER_TRAIT_WITH_PROGRAMSTATE(RcuDepth, unsigned)
// Locks this path released (so a later get "after unlocking L" is provable).
REGISTER_SET_WITH_PROGRAMSTATE(ReleasedLocks, const MemRegion *)

namespace {
using L = LockOp;
// clang-format off
const LockAPI LockTable[] = {
  {"spin_lock", L::Acquire}, {"spin_lock_bh", L::Acquire},
  {"spin_lock_irq", L::Acquire}, {"spin_lock_irqsave", L::Acquire},
  {"spin_lock_nested", L::Acquire},
  {"_raw_spin_lock", L::Acquire}, {"_raw_spin_lock_bh", L::Acquire},
  {"_raw_spin_lock_irq", L::Acquire}, {"_raw_spin_lock_irqsave", L::Acquire},
  {"_raw_spin_lock_nested", L::Acquire},
  {"raw_spin_lock", L::Acquire}, {"raw_spin_lock_irq", L::Acquire},
  {"raw_spin_lock_irqsave", L::Acquire},
  {"spin_unlock", L::Release}, {"spin_unlock_bh", L::Release},
  {"spin_unlock_irq", L::Release}, {"spin_unlock_irqrestore", L::Release},
  {"_raw_spin_unlock", L::Release}, {"_raw_spin_unlock_bh", L::Release},
  {"_raw_spin_unlock_irq", L::Release},
  {"_raw_spin_unlock_irqrestore", L::Release},
  {"raw_spin_unlock", L::Release}, {"raw_spin_unlock_irq", L::Release},
  {"raw_spin_unlock_irqrestore", L::Release},
  {"spin_trylock", L::TryAcquire}, {"_raw_spin_trylock", L::TryAcquire},
  {"read_lock", L::Acquire}, {"write_lock", L::Acquire},
  {"read_lock_bh", L::Acquire}, {"write_lock_bh", L::Acquire},
  {"read_lock_irq", L::Acquire}, {"write_lock_irq", L::Acquire},
  {"_raw_read_lock", L::Acquire}, {"_raw_write_lock", L::Acquire},
  {"_raw_read_lock_bh", L::Acquire}, {"_raw_write_lock_bh", L::Acquire},
  {"_raw_read_lock_irqsave", L::Acquire}, {"_raw_write_lock_irqsave", L::Acquire},
  {"read_unlock", L::Release}, {"write_unlock", L::Release},
  {"read_unlock_bh", L::Release}, {"write_unlock_bh", L::Release},
  {"read_unlock_irq", L::Release}, {"write_unlock_irq", L::Release},
  {"_raw_read_unlock", L::Release}, {"_raw_write_unlock", L::Release},
  {"_raw_read_unlock_bh", L::Release}, {"_raw_write_unlock_bh", L::Release},
  {"_raw_read_unlock_irqrestore", L::Release},
  {"_raw_write_unlock_irqrestore", L::Release},
  {"mutex_lock", L::Acquire}, {"mutex_lock_nested", L::Acquire},
  {"mutex_unlock", L::Release}, {"mutex_trylock", L::TryAcquire},
  // An interrupted mutex_lock_interruptible() returns non-zero: held on 0.
  {"down_read", L::Acquire}, {"down_write", L::Acquire},
  {"up_read", L::Release}, {"up_write", L::Release},
  {"down_read_trylock", L::TryAcquire}, {"down_write_trylock", L::TryAcquire},
  {"rcu_read_lock", L::RcuLock}, {"rcu_read_unlock", L::RcuUnlock},
  {"rcu_read_lock_bh", L::RcuLock}, {"rcu_read_unlock_bh", L::RcuUnlock},
  {"rcu_read_lock_sched", L::RcuLock}, {"rcu_read_unlock_sched", L::RcuUnlock},
};
// clang-format on

/// Lock calls whose zero result means "acquired" (they return an error code).
bool acquiredOnZero(StringRef Name) {
  return Name == "mutex_lock_interruptible" || Name == "mutex_lock_killable" ||
         Name == "down_read_interruptible" || Name == "down_write_killable" ||
         Name == "down_read_killable";
}

bool isLockRecord(QualType T) {
  if (T.isNull())
    return false;
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  if (RD->getName().empty()) // anonymous union inside spinlock_t
    return true;
  StringRef N = RD->getName();
  return N == "spinlock" || N == "raw_spinlock" || N == "mutex" ||
         N == "rw_semaphore" || N == "qrwlock" || N == "rwlock_t";
}
} // namespace

const LockAPI *krefcheck::lookupLockAPI(StringRef Name) {
  static const llvm::StringMap<const LockAPI *> Map = [] {
    llvm::StringMap<const LockAPI *> M;
    for (const LockAPI &A : LockTable)
      M[A.Name] = &A;
    return M;
  }();
  return Map.lookup(Name);
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
      if (FD->getIdentifier() && FD->getName() == "spinlock_check" &&
          CE->getNumArgs() == 1)
        return lockDeclFromExpr(CE->getArg(0));
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
  const LockAPI *API = lookupLockAPI(Name);
  bool ZeroMeansHeld = !API && acquiredOnZero(Name);
  if (!API && !ZeroMeansHeld)
    return Out;
  if (API && API->Op == LockOp::RcuLock) {
    Out.push_back(State->set<RcuDepth>(State->get<RcuDepth>() + 1));
    return Out;
  }
  if (API && API->Op == LockOp::RcuUnlock) {
    unsigned D = State->get<RcuDepth>();
    Out.push_back(State->set<RcuDepth>(D ? D - 1 : 0));
    return Out;
  }
  unsigned Arg = API ? API->LockArg : 0;
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

  if (API && API->Op == LockOp::Acquire) {
    Out.push_back(Add(State));
    return Out;
  }
  if (API && API->Op == LockOp::Release) {
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
