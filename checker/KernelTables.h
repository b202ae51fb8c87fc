//===- KernelTables.h - Rows of the model's lock and index tables -*- C++
//-*-===//
//
// The row types of the model file's `locks:` and `indexes:` sections
// (docs/configuration.md), kept free of analyzer headers so that the model
// (ModelFile.h) and the code that reads it can share them.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_KERNELTABLES_H
#define KREFCHECK_KERNELTABLES_H

#include "llvm/ADT/StringRef.h"

namespace krefcheck {

/// What a `locks:` row's function does to the lock in argument LockArg.
enum class LockOp {
  Acquire,          ///< lock
  Release,          ///< unlock
  TryAcquire,       ///< trylock: held when it returns non-zero
  RcuLock,          ///< rcu-lock: enters an RCU read-side section
  RcuUnlock,        ///< rcu-unlock
  TryAcquireOnZero, ///< trylock-zero: held when it returns 0
  PassesLock,       ///< passes-lock: returns its lock argument
};

struct LockAPI {
  llvm::StringRef Name;
  LockOp Op;
  unsigned LockArg = 0;
};

/// How an internal reference was found.
enum class InternalOrigin : unsigned char {
  List,
  HList,
  RBTree,
  IDR,
  XArray,
  RadixTree,
  RHashtable,
  RCU
};
constexpr unsigned NumInternalOrigins = unsigned(InternalOrigin::RCU) + 1;

/// An `indexes:` row: a lookup returns an entry of index Origin (an
/// internal reference); a removal takes an object off its index.
struct IndexAPI {
  bool Removal = false;
  InternalOrigin Origin = InternalOrigin::List;
};

} // namespace krefcheck

#endif
