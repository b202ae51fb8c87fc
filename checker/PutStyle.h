//===- PutStyle.h - The put style of each counter in a TU -------*- C++ -*-===//
//
// The article's classification of reference counts by their final put:
//   kref   - bare decrement-and-test (kref_put, *_dec_and_test): the object
//            dies with its last external reference, so an internal
//            reference may only be promoted with a test-for-zero get;
//   kcref  - every final put takes a lock L as the count hits zero
//            (kref_put_lock, *_dec_and_lock, or "lock L, then dec_and_test"
//            as in iput()/dput()): a plain get under L is a valid promotion;
//   plain  - only plain inc/dec: the lifetime is owned elsewhere.
// The style of a counter field is inferred once per TU from every put of it,
// walking each function body in source order with a simple lock set (a
// syntactic approximation of what the path-sensitive lock model tracks).
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_PUTSTYLE_H
#define KREFCHECK_PUTSTYLE_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace krefcheck {

enum class PutStyleKind { Unknown, Plain, Kref, Kcref };

struct PutStyleInfo {
  PutStyleKind Kind = PutStyleKind::Unknown;
  /// A final put that shows the style (for the note "put here").
  clang::SourceLocation ExampleFinalPut;
  /// A bare final put (kref style) seen, and where.
  clang::SourceLocation BarePut;
  /// Final puts that take a lock, and where one is.
  clang::SourceLocation LockedPut;
  /// Locks taken by the locked final puts (kcref style).
  llvm::SmallVector<const clang::ValueDecl *, 2> PutLocks;
  /// Plain decrements (atomic_dec, refcount_dec) and where one is.
  clang::SourceLocation PlainDec;
  /// The release path removes the object from an index (list_del, idr_remove,
  /// ...): the index holds no count, so its entries can reach zero while
  /// still listed.
  clang::SourceLocation IndexRemovalInRelease;
  /// The node fields those removals take (`&obj->member`), when spelled so.
  llvm::SmallVector<const clang::FieldDecl *, 2> IndexRemovalMembers;
  /// What runs when the count hits zero frees or releases something (kfree,
  /// call_rcu, a *_release()/*_free() function): evidence that an atomic_t
  /// is a lifetime count, not a usage counter that happens to be tested.
  clang::SourceLocation FreeOnZero;
  /// The style comes from the model file or an annotation, not from the
  /// puts of this TU.
  bool Configured = false;
  /// The model or an annotation says the field is a reference count.
  bool DeclaredRefcount = false;
  bool hasFinalPut() const { return BarePut.isValid() || LockedPut.isValid(); }
};

class PutStyleDB {
public:
  /// The database of the TU, computed on first use and cached.
  static const PutStyleDB &get(clang::ASTContext &Ctx);
  /// Forgets the cached database (see krefcheck::resetTUCaches).
  static void resetCache();

  const PutStyleInfo *lookup(const clang::FieldDecl *Counter) const {
    auto It = Styles.find(Counter);
    return It == Styles.end() ? nullptr : &It->second;
  }

  llvm::DenseMap<const clang::FieldDecl *, PutStyleInfo> Styles;
};

llvm::StringRef styleName(PutStyleKind K);

} // namespace krefcheck

#endif
