//===- RefcountAPI.h - The kernel's counting APIs, as a table ---*- C++ -*-===//
//
// One row per API function: what it does to the counter it is given. The
// checkers never look at the bodies of these functions (the kernel's are
// static inline and end in inline asm); they are modeled by name, so results
// are the same whether a TU sees the bodies or only prototypes.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_REFCOUNTAPI_H
#define KREFCHECK_REFCOUNTAPI_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace krefcheck {

/// What a counting API does to the count.
enum class CountOp {
  Init,    ///< kref_init, refcount_set(r, n), atomic_set(c, n).
  Get,     ///< Plain increment: kref_get, refcount_inc, atomic_inc.
  TryGet,  ///< Test-for-zero increment: result != 0 on success.
  Put,     ///< Plain decrement: refcount_dec, atomic_dec.
  PutTest, ///< Decrement and test: result != 0 when the count hit zero.
  PutLock, ///< Decrement and take a lock when the count hits zero.
  Read,    ///< kref_read, refcount_read, atomic_read.
};

/// The counter family an API belongs to (used in messages and by the
/// mixed-style check: atomic ops on the insides of a kref bypass the kref).
enum class CounterFamily { Kref, Refcount, Atomic };

struct CountAPI {
  llvm::StringRef Name;
  CountOp Op;
  CounterFamily Family;
  unsigned CounterArg = 0;
  /// For Init: the argument holding the initial value (kref_init has none:
  /// it always sets 1).
  std::optional<unsigned> ValueArg;
  /// For PutLock: the argument that is the lock taken at zero.
  std::optional<unsigned> LockArg;
  /// For PutTest/PutLock on kref: the argument holding the release function.
  std::optional<unsigned> ReleaseArg;
  /// The result is a count value that must be compared with zero to mean
  /// anything (atomic_dec_return and friends).
  bool ReturnsCount = false;
};

/// Looks up a counting API by function name; nullptr when it is not one.
const CountAPI *lookupCountAPI(llvm::StringRef Name);

/// Name of a test-for-zero get that should replace a plain get of this family
/// (for fix-it style advice in messages).
llvm::StringRef tryGetNameFor(CounterFamily F);

/// True when the counting API is a final-put (may be the one that drops the
/// count to zero and releases the object).
inline bool isFinalPut(CountOp Op) {
  return Op == CountOp::PutTest || Op == CountOp::PutLock;
}

} // namespace krefcheck

#endif
