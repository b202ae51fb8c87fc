//===- ReportUtil.h - Pieces shared by the refcount reports -----*- C++ -*-===//
#ifndef KREFCHECK_REPORTUTIL_H
#define KREFCHECK_REPORTUTIL_H

#include "PutStyle.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"

namespace krefcheck {

/// Adds the note "put style of X is Y, shown by this put" at the put.
void addStyleNote(clang::ento::PathSensitiveBugReport &R,
                  const clang::FieldDecl *Counter, const PutStyleInfo &Info,
                  const clang::SourceManager &SM);

/// The function the analysis of this path started in.
const clang::Decl *topLevelDecl(clang::ento::CheckerContext &C);

} // namespace krefcheck

#endif
