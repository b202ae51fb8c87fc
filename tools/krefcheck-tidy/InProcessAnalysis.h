//===- InProcessAnalysis.h - The analyzer on a parsed TU --------*- C++ -*-===//
//
// Runs the static analyzer, with the refcount checkers registered, over the
// AST a host (clang-tidy, clangd) has already built, and returns what it
// found instead of printing it.
//
//=== ---------------------------------------------------------------------===//
#ifndef KREFCHECK_TIDY_INPROCESSANALYSIS_H
#define KREFCHECK_TIDY_INPROCESSANALYSIS_H

#include "clang/Basic/SourceLocation.h"
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace krefcheck::tidy {

/// One step of a report's path (an analyzer path note).
struct PathNote {
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<clang::SourceRange> Ranges;
};

/// One analyzer report.
struct Finding {
  std::string Checker; // "refcount.GetOnZero"
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<clang::SourceRange> Ranges;
  std::vector<PathNote> Path;
};

struct AnalysisRequest {
  /// Checkers and packages to enable ("core", "refcount.Leak", ...).
  std::vector<std::string> Checkers;
  /// -analyzer-config key=value pairs.
  std::vector<std::pair<std::string, std::string>> Config;
};

struct AnalysisResult {
  std::vector<Finding> Findings;
  /// Errors the analyzer reported about its configuration (unknown option,
  /// bad value, unreadable model file, ...): the analysis did not run, or
  /// ran without what the message names.
  std::vector<std::string> ConfigErrors;
  /// The analysis crashed and was recovered from: Findings is incomplete.
  bool Crashed = false;
};

/// Analyzes the translation unit of \p Ctx (the top-level declarations of its
/// traversal scope) like `clang --analyze` would. Safe to call from several
/// threads on different ASTs.
AnalysisResult analyzeTU(clang::ASTContext &Ctx, clang::Preprocessor &PP,
                         const AnalysisRequest &Request);

} // namespace krefcheck::tidy

#endif
