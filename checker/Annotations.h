//===- Annotations.h - krefcheck_* annotations on declarations -*- C++ -*-===//
//
// include/krefcheck/annotations.h spells the contracts as
// __attribute__((annotate("krefcheck_<what>[:<argument>]"))) on functions and
// struct fields. This file reads them back. An annotation on a declaration
// overrides the model files' row for the same name.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_ANNOTATIONS_H
#define KREFCHECK_ANNOTATIONS_H

#include "LifetimeAPI.h"
#include "PutStyle.h"
#include <optional>
#include <string>

namespace clang {
class FieldDecl;
class FunctionDecl;
} // namespace clang

namespace krefcheck {

/// The contract of a function's annotations (on any of its declarations);
/// nullopt when it has none. Annotated APIs belong to family UserFamily. A
/// malformed annotation is reported as an error at its location and ignored.
std::optional<LifetimeAPI> annotatedContract(const clang::FunctionDecl *FD,
                                             Family UserFamily);

/// Whether the function is annotated KREF_SAME_RESULT (no side effects, and
/// on one path the same arguments give the same result).
bool annotatedSameResult(const clang::FunctionDecl *FD);

/// What the annotations of a counter field say about it.
struct FieldAnnotation {
  std::optional<PutStyleKind> Style;
  /// For kcref style: the lock as written (`foo_lock`, `foo::lock`).
  std::string Lock;
  bool Refcount = false;
};
std::optional<FieldAnnotation> annotatedField(const clang::FieldDecl *FD);

} // namespace krefcheck

#endif
