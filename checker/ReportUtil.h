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

/// Is a report of Checker ("refcount.Leak") at Loc silenced by a comment
/// `krefcheck: ignore[Leak] reason` (in a // or /* */ comment) on its line or
/// the line above? The brackets hold checker names without the package,
/// separated by commas, or `*` for every refcount checker.
bool suppressedByComment(llvm::StringRef Checker, clang::SourceLocation Loc,
                         const clang::SourceManager &SM);

/// Every refcount report goes out through one of these, which drop the
/// reports a `krefcheck: ignore[...]` comment silences.
void emitReport(clang::ento::CheckerContext &C,
                std::unique_ptr<clang::ento::PathSensitiveBugReport> R);
void emitReport(clang::ento::BugReporter &BR,
                std::unique_ptr<clang::ento::BugReport> R);

} // namespace krefcheck

#endif
