//===- ModelFile.h - The API model: built-in YAML, the user's -*- C++ -*-===//
//
// Everything krefcheck knows about a code base's reference-counting APIs
// comes from model files (docs/configuration.md): the built-in kernel model
// (checker/kernel-model.yaml, embedded at build time) and then the user's
// file, named by the package option refcount:ModelFile or found as
// .krefcheck.yaml next to the main source file or in one of its ancestor
// directories. Both are read by the same parser, so the built-in table and
// the user-visible format cannot drift.
//
// The model is loaded once per analysis, when the first checker registers;
// the table lookups (lookupCountAPI, lookupLifetimeAPI) read it.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_MODELFILE_H
#define KREFCHECK_MODELFILE_H

#include "LifetimeAPI.h"
#include "PutStyle.h"
#include "RefcountAPI.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
namespace ento {
class CheckerManager;
}
} // namespace clang

namespace krefcheck {

/// A `counters:` entry: what the model says about one counter field.
struct CounterConfig {
  /// `foo::users` (the `struct ` prefix stripped), or a bare field name.
  std::string Field;
  std::optional<PutStyleKind> Style;
  /// For kcref style: the lock's global variable or field (`foo::lock`).
  std::string Lock;
  /// Treat the field as a reference count even if the TU does not show it.
  bool Refcount = false;
};

/// Does `foo::users`, `struct foo::users` or `users` name this field?
bool fieldMatches(llvm::StringRef Spec, const clang::FieldDecl *FD);

class Model {
public:
  /// Reads one model file's text and merges it over what the model holds:
  /// its rows replace rows of the same name, its `disable:` entries remove
  /// rows. On a bad file returns false, leaves the model unchanged and sets
  /// Error to "FILE:LINE:COL: what is wrong".
  bool addFile(llvm::StringRef Text, llvm::StringRef FileName,
               std::string &Error);

  const LifetimeAPI *lifetimeAPI(llvm::StringRef Name) const {
    auto It = Lifetime.find(Name);
    return It == Lifetime.end() ? nullptr : &It->second;
  }
  const CountAPI *countAPI(llvm::StringRef Name) const {
    auto It = Counting.find(Name);
    return It == Counting.end() ? nullptr : &It->second;
  }

  /// The family of that name, created for a user family on first use.
  Family family(llvm::StringRef Name);
  /// The put to name in advice for a user family: its first release API.
  std::string releaseName(Family F) const;

  /// The contract of a function's krefcheck_* annotations (Annotations.h),
  /// cached per declaration; nullptr when it has none.
  const LifetimeAPI *annotatedAPI(const clang::FunctionDecl *FD) const;

  /// What the `counters:` entries and the field's annotations (which win)
  /// say about a counter field, cached; nullptr when nothing.
  const CounterConfig *counterConfig(const clang::FieldDecl *FD) const;

  llvm::StringSet<> BiasAllowList;
  std::vector<CounterConfig> Counters;
  /// The TU analyzed with this model (to find annotated puts in advice).
  clang::ASTContext *Ctx = nullptr;

private:
  llvm::StringMap<LifetimeAPI> Lifetime;
  llvm::StringMap<CountAPI> Counting;
  std::vector<std::string> UserFamilies;
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         std::unique_ptr<LifetimeAPI>>
      Annotated;
  mutable llvm::DenseMap<const clang::FieldDecl *,
                         std::unique_ptr<CounterConfig>>
      FieldConfigs;
  friend class ModelParser;
};

/// The model of the analysis in progress (the built-in one until a checker
/// registration loaded the user's).
Model &activeModel();

/// Loads the model for this analysis: the built-in file, then the file named
/// by refcount:ModelFile or else the nearest .krefcheck.yaml. Called by
/// every checker's registration function; the work is done once per
/// analysis. On a bad or missing file reports one error through the
/// analyzer's diagnostics (clang then exits non-zero) and returns false: the
/// caller registers nothing, so no checker runs on the TU.
bool loadModel(clang::ento::CheckerManager &Mgr);

/// Forgets this thread's model after an analysis, so that the next one
/// (another file in the same clang-tidy or clangd process) loads its own.
void resetModel();

/// The text of checker/kernel-model.yaml.
llvm::StringRef builtinModelText();

} // namespace krefcheck

#endif
