//===- LockModel.h - Which locks a path holds -------------------*- C++ -*-===//
//
// The kcref rule ("promote an internal reference only under the lock the
// final put takes") needs the set of locks held at each point of a path, in
// the manner of PthreadLockChecker: lock calls add the lock's region, unlock
// calls remove it, a trylock holds the lock only on its success branch.
// rcu_read_lock() is counted separately: it is never a promotion lock. The
// lock functions and lock types are the model file's `locks:` and
// `types: lock-records` (docs/configuration.md).
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_LOCKMODEL_H
#define KREFCHECK_LOCKMODEL_H

#include "KernelTables.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramState.h"

namespace krefcheck {

/// The `locks:` row of a lock, unlock, trylock or RCU read-lock function in
/// the active model (not the held-on-zero trylocks, which applyLockCall
/// handles, nor the functions that pass a lock through); nullptr if none.
const LockAPI *lookupLockAPI(llvm::StringRef Name);

/// The region that stands for a lock: `&obj->lock.rlock` and `&obj->lock`
/// are the same lock.
const clang::ento::MemRegion *lockRegion(const clang::ento::MemRegion *R);

/// The declaration that names a lock across the TU: the global variable or
/// the struct field (`struct item_table::lock`). Null if neither.
const clang::ValueDecl *lockDecl(const clang::ento::MemRegion *Lock);
/// Syntactic twin: the declaration a lock argument expression names.
const clang::ValueDecl *lockDeclFromExpr(const clang::Expr *E);
std::string describeLock(const clang::ValueDecl *D);

/// Applies a lock API call to the state; returns the states to continue with
/// (two for a trylock). Empty when the call is not a lock API.
llvm::SmallVector<clang::ento::ProgramStateRef, 2>
applyLockCall(const clang::ento::CallEvent &Call,
              clang::ento::CheckerContext &C);

/// Records that the path now holds Lock (e.g. *_dec_and_lock returned 1).
clang::ento::ProgramStateRef addHeldLock(clang::ento::ProgramStateRef State,
                                         const clang::ento::MemRegion *Lock);

/// Locks held on this path, in acquisition order.
llvm::SmallVector<const clang::ento::MemRegion *, 4>
heldLocks(clang::ento::ProgramStateRef State);
bool inRcuReadSection(clang::ento::ProgramStateRef State);
/// Locks this path released (and may not hold any more).
llvm::SmallVector<const clang::ento::MemRegion *, 4>
releasedLocks(clang::ento::ProgramStateRef State);

} // namespace krefcheck

#endif
