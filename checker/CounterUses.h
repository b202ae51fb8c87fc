//===- CounterUses.h - Every counting-API call on a counter field -*- C++
//-*-===//
//
// A syntactic census of the translation unit, shared by the counter-style
// checkers (BiasedCount, MixedStyle, OpenCoded): every call to a kref_*,
// refcount_* or atomic_* function whose argument is a counter field
// (`&obj->ref`, `&obj->ref.refcount.refs`), with the field it lands on and
// whether it reaches into the insides of a struct kref. The counting API's
// own implementation (kref_put is refcount_dec_and_test on the kref's
// insides) is not part of the census.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_COUNTERUSES_H
#define KREFCHECK_COUNTERUSES_H

#include "RefcountAPI.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <vector>

namespace krefcheck {

struct CounterUse {
  const clang::CallExpr *Call = nullptr;
  /// The function the call is in.
  const clang::FunctionDecl *InFunction = nullptr;
  /// The counter field, outermost counter-typed member (`struct item::ref`).
  const clang::FieldDecl *Field = nullptr;
  llvm::StringRef Callee;
  CounterFamily Family = CounterFamily::Atomic;
  /// Row of the API table, when the callee has one.
  const CountAPI *API = nullptr;
  unsigned CounterArg = 0;
  /// The argument points inside a struct kref (`&x->ref.refcount`), i.e. an
  /// atomic_*/refcount_* operation bypasses the kref API.
  bool KrefInsides = false;
  /// The struct member the counter is embedded in when it is reached with
  /// `.` from another member (`ctx->lock_context.count`: the
  /// nfs_open_context::lock_context instance of nfs_lock_context::count);
  /// null when it is reached through a pointer to its own struct.
  const clang::FieldDecl *Host = nullptr;
  /// The call is inside a counting helper of one object type (see
  /// isCounterTypeImplementation).
  bool InTypeImpl = false;
};

class CounterUseDB {
public:
  /// The census of the TU, computed on first use and cached.
  static const CounterUseDB &get(clang::ASTContext &Ctx);
  /// Forgets the cached database (see krefcheck::resetTUCaches).
  static void resetCache();

  std::vector<CounterUse> Uses;
  /// First operation per field that shows it is a lifetime count: a
  /// test-for-zero get, a decrement-and-test/-lock, or a decrement whose
  /// result is used (`atomic_dec_return`).
  llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation> LifetimeUse;
  /// First use of the kref_* API proper on a field.
  llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation> KrefAPIUse;

  /// kref and refcount_t always are reference counts; an atomic_t only when
  /// the TU gets or puts it as a lifetime count.
  bool isRefcount(const clang::FieldDecl *FD) const;
  /// The article's plain style, for rule plain-style-counter: no lifetime
  /// use of FD in the TU (no decrement-and-test or -and-lock, no
  /// test-for-zero get, no kref API), and a plain decrement of it in a
  /// function that takes no count of it (a put of its own, not the undo of
  /// a get).
  bool isPlainStyle(const clang::FieldDecl *FD) const;
};

/// The counter family a function belongs to by its name (kref_*,
/// refcount_*, atomic*_ / _atomic_*); nullopt for anything else.
std::optional<CounterFamily> familyOfCallee(llvm::StringRef Name);

/// True when the callee name is an operation that shows a lifetime count
/// (test-for-zero get, decrement-and-test, decrement-and-lock, dec_return).
bool isLifetimeOpName(llvm::StringRef Name);

/// True for the bodies of the counting API itself: kref_*/refcount_*/
/// atomic_* functions with a counter parameter and anything defined in
/// kref.{h,c}, refcount.{h,c} or an atomic*.h header. Not part of the census.
bool isCountingImplementation(const clang::FunctionDecl *FD,
                              const clang::SourceManager &SM);

/// True for counting helpers of one object type built over the API
/// (page_ref_*, folio_ref_*, percpu_ref_*, page_ref.h, percpu-refcount.*):
/// their uses tell what a counter is, but are not reported as style mixes
/// or open-coded counts.
bool isCounterTypeImplementation(const clang::FunctionDecl *FD,
                                 const clang::SourceManager &SM);

/// `struct item::ref`, naming the enclosing named struct when the field sits
/// in an anonymous struct or union (`struct mm_struct::mm_count`).
std::string describeCounterField(const clang::FieldDecl *FD);

/// The counter of a use as the source spells it (`it->ref`), or its field
/// when the argument comes from a macro body.
std::string describeUseCounter(const CounterUse &U,
                               const clang::SourceManager &SM,
                               const clang::LangOptions &LO);

/// The callee as the source spells it: atomic_dec_and_lock() is a macro over
/// _atomic_dec_and_lock().
std::string spelledCallee(const CounterUse &U, const clang::SourceManager &SM,
                          const clang::LangOptions &LO);

/// Do two counter arguments name the same memory syntactically
/// (`&obj->a.ref` twice, parentheses and casts aside)?
bool sameCounterExpr(const clang::Expr *A, const clang::Expr *B);

/// Index of the argument that points to a counter (first pointer-to-counter
/// argument); nullopt when there is none.
std::optional<unsigned> counterArgIndex(const clang::CallExpr *CE);

} // namespace krefcheck

#endif
