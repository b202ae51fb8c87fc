//===- RefcountAPI.cpp - The kernel's counting APIs, as a table ----------===//

#include "RefcountAPI.h"
#include "llvm/ADT/StringMap.h"

using namespace krefcheck;

namespace {
using O = CountOp;
using F = CounterFamily;
constexpr std::nullopt_t None = std::nullopt;

// clang-format off
const CountAPI Table[] = {
  // name                         op          family      ctr value lock release
  {"kref_init",                   O::Init,    F::Kref,     0, None, None, None},
  {"kref_get",                    O::Get,     F::Kref,     0, None, None, None},
  {"kref_get_unless_zero",        O::TryGet,  F::Kref,     0, None, None, None},
  {"kref_put",                    O::PutTest, F::Kref,     0, None, None, 1},
  {"kref_put_lock",               O::PutLock, F::Kref,     0, None, 2,    1},
  {"kref_put_mutex",              O::PutLock, F::Kref,     0, None, 2,    1},
  {"kref_read",                   O::Read,    F::Kref,     0, None, None, None},

  {"refcount_set",                O::Init,    F::Refcount, 0, 1,    None, None},
  {"refcount_set_release",        O::Init,    F::Refcount, 0, 1,    None, None},
  {"refcount_read",               O::Read,    F::Refcount, 0, None, None, None},
  {"refcount_inc",                O::Get,     F::Refcount, 0, None, None, None},
  {"refcount_add",                O::Get,     F::Refcount, 1, None, None, None},
  {"refcount_inc_not_zero",       O::TryGet,  F::Refcount, 0, None, None, None},
  {"refcount_add_not_zero",       O::TryGet,  F::Refcount, 1, None, None, None},
  {"refcount_dec",                O::Put,     F::Refcount, 0, None, None, None},
  {"refcount_dec_and_test",       O::PutTest, F::Refcount, 0, None, None, None},
  {"refcount_sub_and_test",       O::PutTest, F::Refcount, 1, None, None, None},
  {"refcount_dec_and_lock",       O::PutLock, F::Refcount, 0, None, 1,    None},
  {"refcount_dec_and_lock_irqsave", O::PutLock, F::Refcount, 0, None, 1,  None},
  {"refcount_dec_and_mutex_lock", O::PutLock, F::Refcount, 0, None, 1,    None},
  {"refcount_dec_if_one",         O::PutTest, F::Refcount, 0, None, None, None},
  {"refcount_dec_not_one",        O::Put,     F::Refcount, 0, None, None, None},

  {"atomic_set",                  O::Init,    F::Atomic,   0, 1,    None, None},
  {"atomic_long_set",             O::Init,    F::Atomic,   0, 1,    None, None},
  {"atomic64_set",                O::Init,    F::Atomic,   0, 1,    None, None},
  {"atomic_read",                 O::Read,    F::Atomic,   0, None, None, None},
  {"atomic_long_read",            O::Read,    F::Atomic,   0, None, None, None},
  {"atomic64_read",               O::Read,    F::Atomic,   0, None, None, None},
  {"atomic_inc",                  O::Get,     F::Atomic,   0, None, None, None},
  {"atomic_long_inc",             O::Get,     F::Atomic,   0, None, None, None},
  {"atomic64_inc",                O::Get,     F::Atomic,   0, None, None, None},
  {"atomic_inc_not_zero",         O::TryGet,  F::Atomic,   0, None, None, None},
  {"atomic_long_inc_not_zero",    O::TryGet,  F::Atomic,   0, None, None, None},
  {"atomic64_inc_not_zero",       O::TryGet,  F::Atomic,   0, None, None, None},
  {"atomic_dec",                  O::Put,     F::Atomic,   0, None, None, None},
  {"atomic_long_dec",             O::Put,     F::Atomic,   0, None, None, None},
  {"atomic64_dec",                O::Put,     F::Atomic,   0, None, None, None},
  {"atomic_dec_and_test",         O::PutTest, F::Atomic,   0, None, None, None},
  {"atomic_long_dec_and_test",    O::PutTest, F::Atomic,   0, None, None, None},
  {"atomic64_dec_and_test",       O::PutTest, F::Atomic,   0, None, None, None},
  {"atomic_sub_and_test",         O::PutTest, F::Atomic,   1, None, None, None},
  {"atomic_long_sub_and_test",    O::PutTest, F::Atomic,   1, None, None, None},
  {"atomic_dec_and_lock",         O::PutLock, F::Atomic,   0, None, 1,    None},
  {"_atomic_dec_and_lock",        O::PutLock, F::Atomic,   0, None, 1,    None},
  {"atomic_dec_and_lock_irqsave", O::PutLock, F::Atomic,   0, None, 1,    None},
  {"_atomic_dec_and_lock_irqsave", O::PutLock, F::Atomic,  0, None, 1,    None},
  {"atomic_dec_and_mutex_lock",   O::PutLock, F::Atomic,   0, None, 1,    None},
};
// clang-format on

// atomic_add_unless(v, 1, 0) is the long form of atomic_inc_not_zero; its
// arguments decide, so it is recognised by the model, not this table.

const llvm::StringMap<const CountAPI *> &index() {
  static const llvm::StringMap<const CountAPI *> Map = [] {
    llvm::StringMap<const CountAPI *> M;
    for (const CountAPI &A : Table)
      M[A.Name] = &A;
    return M;
  }();
  return Map;
}
} // namespace

const CountAPI *krefcheck::lookupCountAPI(llvm::StringRef Name) {
  return index().lookup(Name);
}

llvm::StringRef krefcheck::tryGetNameFor(CounterFamily Fam) {
  switch (Fam) {
  case CounterFamily::Kref:
    return "kref_get_unless_zero()";
  case CounterFamily::Refcount:
    return "refcount_inc_not_zero()";
  case CounterFamily::Atomic:
    return "atomic_inc_not_zero()";
  }
  return "";
}
