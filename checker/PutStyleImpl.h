//===- PutStyleImpl.h - The parts of the put-style pass ---------*- C++ -*-===//
//
// PutStyleDB::get (PutStyle.cpp) infers each counter field's put style from
// parts split by reason to change:
//
//   PutStyleCollector.cpp  the walk of every function body in source order
//                          with a syntactic lock set (lock wrappers
//                          included): each final put and the locks held at
//                          it, and the locks held around every call
//   PutStyleRelease.cpp    what runs when a count hits zero: does it free the
//                          counter's object, does it take it off an index
//
// PutStyle.cpp turns the recorded puts into styles and applies the styles
// the model file and annotations give. Private to those files.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_PUTSTYLEIMPL_H
#define KREFCHECK_PUTSTYLEIMPL_H

#include "PutStyle.h"
#include "clang/AST/Expr.h"

namespace krefcheck {
namespace putstyle {

inline const clang::FunctionDecl *calleeOf(const clang::CallExpr *CE) {
  return CE ? CE->getDirectCallee() : nullptr;
}

// PutStyleCollector.cpp
/// Records every put of every counter field of the TU into DB: plain
/// decrements, and final puts as bare or locked (PutStyleInfo).
void collectPuts(PutStyleDB &DB, clang::ASTContext &Ctx);

// PutStyleRelease.cpp
/// The variable that holds the counter's object: `c` in `&c->refcnt`.
const clang::ValueDecl *ownerOf(const clang::Expr *CounterArg);
/// Where the statement frees or releases the counter's object Owner (any
/// object when null); invalid when it does not.
clang::SourceLocation findFree(const clang::Stmt *S,
                               const clang::ValueDecl *Owner);
/// The function a release argument (kref_put()'s second) names, or null.
const clang::FunctionDecl *releaseCallback(const clang::Expr *ReleaseArg);
/// A release callback of the model file's `calls: non-freeing-releases`:
/// it ends neither the object nor its count.
bool isNonFreeingRelease(const clang::FunctionDecl *Release);
/// Does the kref release callback \p ReleaseArg (kref_put()'s argument) free
/// its object? A callback whose body this TU does not have, or one called
/// through a pointer, does: that is the kref contract; one of `calls:
/// non-freeing-releases` does not. A body does when it,
/// or a function with a body it calls directly, passes the object (its
/// parameter, a container_of() view of it, `&o->rcu`) to a free-like call
/// (`complete(&o->done)` alone frees nothing, `kfree(o->buf)` frees another
/// object). \p Release is set to the callback's declaration when the
/// argument names one.
bool releaseCallbackFrees(const clang::Expr *ReleaseArg,
                          const clang::FunctionDecl *&Release);
/// Where a statement (or a function it calls directly, Depth levels) takes
/// an object off an index: the first removal, or the call leading to it,
/// and the node fields the removals name (`global_l` in
/// `list_del(&chan->global_l)`).
struct IndexRemovals {
  clang::SourceLocation First;
  llvm::SmallVector<const clang::FieldDecl *, 2> Members;
};
IndexRemovals findIndexRemovals(const clang::Stmt *S, unsigned Depth = 1);

} // namespace putstyle
} // namespace krefcheck

#endif
