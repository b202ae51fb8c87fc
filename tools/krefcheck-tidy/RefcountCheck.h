//===- RefcountCheck.h - clang-tidy checks krefcheck-<checker> --*- C++ -*-===//
//
// One clang-tidy check per refcount checker: krefcheck-GetOnZero reports
// what refcount.GetOnZero finds, and so on. The analyzer runs once per TU
// for all of them: the first enabled check (in PublicCheckers order) runs it
// with every enabled checker and reports each finding under its own check.
//
//=== ---------------------------------------------------------------------===//
#ifndef KREFCHECK_TIDY_REFCOUNTCHECK_H
#define KREFCHECK_TIDY_REFCOUNTCHECK_H

#include "ClangTidyCheck.h"
#include <string>
#include <vector>

namespace krefcheck::tidy {

class RefcountCheck : public clang::tidy::ClangTidyCheck {
public:
  RefcountCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                llvm::StringRef Checker);

  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  /// The refcount checkers (names without the package) whose tidy checks
  /// are enabled for the current file.
  std::vector<std::string> enabledCheckers() const;
  void reportConfigError(clang::SourceLocation FileStart,
                         llvm::StringRef Message);

  clang::tidy::ClangTidyContext *Context;
  std::string Checker;
  clang::Preprocessor *PP = nullptr;
  /// Set on the check that runs the analysis for all of them.
  std::vector<std::string> RunFor;
};

} // namespace krefcheck::tidy

#endif
