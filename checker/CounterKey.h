//===- CounterKey.h - Which memory is a reference counter -------*- C++ -*-===//
//
// A counter is identified two ways:
//  - on a path, by its memory region (the struct kref / refcount_t / atomic_t
//    object itself, never a field inside it), so two objects stay apart;
//  - across the translation unit, by its field declaration
//    (`struct item::ref`), so a put style learnt in one function applies to
//    every object of that type.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_COUNTERKEY_H
#define KREFCHECK_COUNTERKEY_H

#include "clang/AST/Expr.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/MemRegion.h"
#include <string>

namespace krefcheck {

/// `E` without parentheses, casts and a leading `&` (`&obj->ref` -> obj->ref).
const clang::Expr *stripAddrOf(const clang::Expr *E);

/// True for struct kref, refcount_t, atomic_t, atomic_long_t and atomic64_t.
bool isCounterType(clang::QualType T);
/// True for struct kref and refcount_t (always lifetime counts).
bool isLifetimeCounterType(clang::QualType T);

/// The counter region a counting API argument points into: walks up from
/// `&obj->ref.refcount.refs` to `obj->ref`. Null when the argument is not a
/// known region.
const clang::ento::MemRegion *
counterRegionFromArg(const clang::ento::MemRegion *Pointee);

/// The field that declares the counter region, if it is a struct field.
const clang::FieldDecl *counterField(const clang::ento::MemRegion *Counter);

/// The field that declares the counter an expression such as `&obj->ref` or
/// `&obj->ref.refcount` points to (syntactic twin of the above).
const clang::FieldDecl *counterFieldFromExpr(const clang::Expr *E);

/// The symbol of the object that holds the counter (`obj` in `obj->ref`),
/// when the object is symbolic.
clang::ento::SymbolRef ownerSymbol(const clang::ento::MemRegion *Counter);

/// `struct item::ref` for messages and notes.
std::string describeField(const clang::FieldDecl *FD);
/// The counter as the source spells it at a call (`it->ref` for `&it->ref`),
/// falling back to its field.
std::string describeCounterArg(const clang::Expr *E,
                               const clang::ento::MemRegion *R,
                               const clang::SourceManager &SM,
                               const clang::LangOptions &LO);
/// `obj->ref` (or a best effort) for messages.
std::string describeRegion(const clang::ento::MemRegion *R);

} // namespace krefcheck

#endif
