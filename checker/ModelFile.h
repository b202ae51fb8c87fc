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
// the table lookups (lookupCountAPI, lookupLifetimeAPI, lookupLockAPI) read
// it.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_MODELFILE_H
#define KREFCHECK_MODELFILE_H

#include "KernelTables.h"
#include "LifetimeAPI.h"
#include "PutStyle.h"
#include "RefcountAPI.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"
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

struct CallContract;

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

/// A function with a role (LifetimeAPI.h: CallRole) in a model file.
struct RoleRow {
  CallRole Role = CallRole::None;
  /// DriverData: the device argument.
  int Arg = NoArg;
  ContractSource Src = ContractSource::BuiltinModel;
};

/// The names of a model list; `*` in one matches any run of characters.
class NameSet {
public:
  void insert(llvm::StringRef Name);
  bool contains(llvm::StringRef Name) const;

private:
  llvm::StringSet<> Exact;
  std::vector<std::string> Globs;
  /// Names already matched against Globs (a model is per thread, and a TU
  /// asks about the same callees on every path).
  mutable llvm::StringMap<bool> GlobMemo;
};

/// The words of callee names that the naming heuristics of the rule
/// registry (Rules.def) read, split at '_' (`name-words:`).
struct NameWords {
  NameSet TakesOwnership; ///< device_add, list_add_tail, *_set_*.
  NameSet Releases;       ///< *_put, *_free, *_unregister.
  NameSet UndoesVotes;    ///< *_disable, *_off: runtime-PM undo.
  NameSet LooksUp;        ///< *_get_*, *_find_*: another object.
};

/// Struct names the model reads (`types:`).
struct TypeNames {
  /// Pointers stored into a field name the object they point to when the
  /// field is reloaded (`ctrl->dev = &pdev->dev`).
  NameSet CountedObjects;
  /// A field of one of these types passed to a call links the object into
  /// a list or tree.
  NameSet ListNodes;
  /// The node types of node getters (`of_get_parent(np)`).
  NameSet Nodes;
  /// Fields of a driver-data handle that point to the device it was taken
  /// from (`led_cdev->dev`).
  NameSet HandleDeviceFields;
  /// Function-pointer fields of a counted object that its put calls when
  /// the count drops to zero (`dev->release`; rule release-callback-puts).
  NameSet ReleaseFields;
  /// Records that are a lock or part of one: `&obj->lock.rlock` is the lock
  /// `obj->lock` (LockModel.cpp).
  NameSet LockRecords;
  /// The member an object embeds to be freed after an RCU grace period
  /// (`struct rcu_head`, the kernel's `callback_head`).
  NameSet RcuHeads;
  /// Counter types (typedefs or records) of lifetime counts (kref,
  /// refcount_t), and of the atomics that may be one (atomic_t).
  NameSet LifetimeCounters;
  NameSet AtomicCounters;
};

/// `*` matches any run of characters; everything else itself.
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Name);

/// Function names the checkers read by what the function does (`calls:`).
struct CallNames {
  /// kzalloc(): the counts in the new memory are zero until initialized.
  NameSet ZeroFilledAllocators;
  /// kmalloc(), kmem_cache_alloc(): raw memory, whose counts no constructor
  /// set (rule fresh-object-init: an object from a constructor such as
  /// netfs_alloc_request() comes with its counts set).
  NameSet MemoryAllocators;
  /// lock_is_held_type(): what lockdep_assert_held(l) calls with
  /// CONFIG_LOCKDEP (`macros: lock-held-asserts`).
  NameSet LockHeldTests;
  /// kfree(), call_rcu(), *_release(): frees or releases an object.
  NameSet Frees;
  /// kfree(), kmem_cache_free(): frees raw memory and nothing it points to
  /// (rule freed-container: references stored in it leak).
  NameSet MemoryFrees;
  /// Release callbacks that end neither the object nor its count (the
  /// free deferred to a list, or the count set again): a put that hit zero
  /// through one freed nothing and left the count unknown.
  NameSet NonFreeingReleases;
  /// atomic_add_unless(v, 1, 0) is atomic_inc_not_zero(v).
  NameSet AddUnless;
  /// *_inc_not_zero(), *_dec_and_test(): a use that shows a lifetime count.
  NameSet LifetimeOps;
  /// arch_atomic*(), __refcount*(): the counting API's own bodies.
  NameSet CountingImplementations;
  /// page_ref_*(), percpu_ref_*(): the APIs of other counter types.
  NameSet CounterTypeImplementations;
};

/// Macro names the checkers read in expansion chains (`macros:`).
struct MacroNames {
  /// rcu_dereference(p): reads an RCU-published pointer.
  NameSet RcuDereference;
  /// container_of(): the object around an index node.
  NameSet ContainerOf;
  /// lockdep_assert_held(l): the function runs with l held.
  NameSet LockHeldAsserts;
  /// WARN_ON(), BUG_ON(): a count read inside one is a check, not a use.
  NameSet Assertions;
};

/// Does `foo::users`, `struct foo::users` or `users` name this field?
bool fieldMatches(llvm::StringRef Spec, const clang::FieldDecl *FD);

class Model {
public:
  Model();
  ~Model();

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
  /// The role row of a function name: an exact row, else the first glob
  /// row (`*printk*`) that matches; nullptr when none.
  const RoleRow *role(llvm::StringRef Name) const;
  const CountAPI *countAPI(llvm::StringRef Name) const {
    auto It = Counting.find(Name);
    return It == Counting.end() ? nullptr : &It->second;
  }
  /// The `indexes:` row of a function name; nullptr when none.
  const IndexAPI *indexAPI(llvm::StringRef Name) const {
    auto It = Indexes.find(Name);
    return It == Indexes.end() ? nullptr : &It->second;
  }
  /// The `locks:` row of a function name; nullptr when none.
  const LockAPI *lockAPI(llvm::StringRef Name) const {
    auto It = Locks.find(Name);
    return It == Locks.end() ? nullptr : &It->second;
  }

  /// The family of that name, created for a user family on first use.
  Family family(llvm::StringRef Name);
  /// The family's name in model files (`node`, `pm-runtime`, a user's).
  std::string familyName(Family F) const;
  /// The put to name in advice for a user family: its first release API.
  std::string releaseName(Family F) const;

  /// The contract of a function's krefcheck_* annotations (Annotations.h),
  /// cached per declaration; nullptr when it has none.
  const LifetimeAPI *annotatedAPI(const clang::FunctionDecl *FD) const;

  /// What the `counters:` entries and the field's annotations (which win)
  /// say about a counter field, cached; nullptr when nothing.
  const CounterConfig *counterConfig(const clang::FieldDecl *FD) const;

  llvm::StringSet<> BiasAllowList;
  NameWords Words;
  TypeNames Types;
  /// Functions whose own fwnode walks are over ACPI nodes
  /// (`uncounted-fwnode-walkers:`, globs).
  std::vector<std::string> UncountedFwnodeWalkers;
  std::vector<CounterConfig> Counters;
  /// The node types of each index, by InternalOrigin (`index-nodes:`).
  NameSet IndexNodes[NumInternalOrigins];
  MacroNames Macros;
  CallNames Calls;
  /// The TU analyzed with this model (to find annotated puts in advice).
  clang::ASTContext *Ctx = nullptr;

private:
  llvm::StringMap<LifetimeAPI> Lifetime;
  llvm::StringMap<CountAPI> Counting;
  llvm::StringMap<RoleRow> Roles;
  llvm::StringMap<LockAPI> Locks;
  llvm::StringMap<IndexAPI> Indexes;
  std::vector<std::pair<std::string, RoleRow>> RoleGlobs;
  std::vector<std::string> UserFamilies;
  /// Contracts.cpp's cache: one contract per callee and analysis.
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         std::unique_ptr<CallContract>>
      Contracts;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver{Alloc};
  mutable llvm::DenseMap<const clang::FunctionDecl *,
                         std::unique_ptr<LifetimeAPI>>
      Annotated;
  mutable llvm::DenseMap<const clang::FieldDecl *,
                         std::unique_ptr<CounterConfig>>
      FieldConfigs;
  friend class ModelParser;
  friend const CallContract &contractFor(const clang::FunctionDecl *FD);
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
