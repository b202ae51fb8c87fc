//===- InternalRefs.h - Recognising internal (uncounted) references -*- C++
//-*-===//
//
// An internal reference is a pointer reached through the owning subsystem's
// index: it holds no count. Recognised from
//  - the lookup functions of the kernel's indexes (idr_find, xa_load, ...),
//    by their result;
//  - statement expressions expanded from container_of over a list_head,
//    hlist_node or rb_node (list_for_each_entry, list_first_entry, rb_entry,
//    hlist_entry_safe all end in one), and from rcu_dereference*.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_INTERNALREFS_H
#define KREFCHECK_INTERNALREFS_H

#include "CountState.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class CastExpr;
class SourceManager;
class LangOptions;
} // namespace clang

namespace krefcheck {

/// The origin of the result of a call to an index lookup function.
std::optional<InternalOrigin> lookupCallOrigin(llvm::StringRef Callee);

/// The origin of a statement expression's value when it is a container_of
/// over an index node or an rcu_dereference.
std::optional<InternalOrigin>
statementExprOrigin(const clang::StmtExpr *SE, const clang::SourceManager &SM,
                    const clang::LangOptions &LO);

/// The origin of a container_of spelled as pointer arithmetic, as older
/// kernels and other code bases define it: `(type *)((char *)(ptr) -
/// offsetof(type, member))`, the offset a constant (`__builtin_offsetof`, or
/// `(size_t)&((type *)0)->member`). As for the statement-expression form,
/// the type of `ptr` (an index node) tells the origin; no macro name is
/// needed.
std::optional<InternalOrigin>
offsetofContainerOrigin(const clang::CastExpr *CE,
                        const clang::ASTContext &Ctx);

/// The macros the code at Loc was expanded from, innermost first.
llvm::SmallVector<llvm::StringRef, 8> macroChain(clang::SourceLocation Loc,
                                                 const clang::SourceManager &SM,
                                                 const clang::LangOptions &LO);

/// The lock expression `L` when CE is the `(void)(L)` that
/// lockdep_assert_held(L) expands to without CONFIG_LOCKDEP: the function
/// states that its caller holds L.
const clang::Expr *assertedHeldLock(const clang::CastExpr *CE,
                                    const clang::SourceManager &SM,
                                    const clang::LangOptions &LO);

/// The lock expression `L` when CE is the `lock_is_held(&(L)->dep_map)`
/// that lockdep_assert_held(L) expands to with CONFIG_LOCKDEP (the model's
/// `calls: lock-held-tests` inside a `macros: lock-held-asserts` macro).
const clang::Expr *assertedHeldLockCall(const clang::CallExpr *CE,
                                        const clang::SourceManager &SM,
                                        const clang::LangOptions &LO);

/// Is the code at Loc inside an assertion (WARN_ON, BUG_ON, VM_BUG_ON...)?
bool inAssertion(clang::SourceLocation Loc, const clang::SourceManager &SM,
                 const clang::LangOptions &LO);

} // namespace krefcheck

namespace krefcheck {
/// The list or tree node field a container_of() (its statement expression
/// or its `(type *)(p - offsetof(type, member))` cast) steps back from:
/// `member`, or null.
const clang::FieldDecl *containerMember(const clang::Stmt *S);
} // namespace krefcheck

#endif
