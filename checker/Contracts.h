//===- Contracts.h - One call contract per callee ---------------*- C++ -*-===//
//
// What a call does with the references it is given and what it returns, as
// one value (clang's RetainSummaryManager shape): the lifetime model applies
// contracts and never reads callee names. A contract is built once per
// callee, from, in order of precedence,
//
//   1. the krefcheck_* annotations on its declaration (Annotations.h),
//   2. the user's model file, 3. the built-in kernel model (ModelFile.h):
//      a get/put row (LifetimeAPI) or a role row (CallRole),
//   4. the naming rules of the rule registry (Rules.def), which read the
//      model file's name-words and can each be turned off.
//
//   effect on argument i   Acquire / Release (a get/put row), Consume (the
//                          callee owns it now), Borrow (lent for the call),
//                          Keep (name-takes-ownership, or an indirect call),
//                          GiveUp (name-gives-up), Store (kept where it
//                          outlives the call: idr_alloc), None
//   effect on the result   NewReference (+1 of the family), SameAsArg(n)
//                          (of_node_get), DriverDataOf(n), MaybeViewOfArg
//                          (converted-view: another view of an argument of
//                          the same object type), SameResult (the same
//                          arguments give the same result on a path:
//                          object identity through an opaque getter),
//                          Unknown
//
// refcount:DumpContracts=true prints the contract of every call the model
// sees (once per call site), to tell why a call did or did not count.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_CONTRACTS_H
#define KREFCHECK_CONTRACTS_H

#include "LifetimeAPI.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace clang {
class FunctionDecl;
namespace ento {
class CallEvent;
class CheckerContext;
} // namespace ento
} // namespace clang

namespace krefcheck {

enum class ArgEffect : unsigned char {
  None,    ///< Looks at the object and keeps nothing.
  Acquire, ///< +1 on it (get_device).
  Release, ///< -1 on it (of_node_put; an iterator's previous node).
  Consume, ///< Takes over the caller's reference (kind consume).
  Borrow,  ///< Lent for the call: never a hand-over (kind borrow).
  Keep,    ///< May keep it: a takes-ownership name, or an indirect call.
  GiveUp,  ///< Gives it up: a releases name (device_unregister, kfree).
  Store,   ///< Stores it where it outlives the call (an index insert): what
           ///< the caller holds is handed over, a later get is the store's.
};

enum class ReturnEffect : unsigned char {
  Unknown,        ///< A value the model knows nothing of.
  NewReference,   ///< A new +1 reference of the row's family.
  SameAsArg,      ///< Argument ReturnArg (of_node_get(np) returns np).
  DriverDataOf,   ///< The driver data of the device in ReturnArg.
  MaybeViewOfArg, ///< Maybe another view of an argument's object
                  ///< (rule converted-view; decided by argument types).
  SameResult,     ///< A pure getter: on one path the same arguments give
                  ///< the same result (regmap_get_device(map)).
};

struct CallContract {
  /// The callee (canonical declaration); null for a call through a
  /// function pointer.
  const clang::FunctionDecl *Callee = nullptr;
  llvm::StringRef Name;
  /// The get/put row (or annotation) of the callee, if any.
  const LifetimeAPI *API = nullptr;
  CallRole Role = CallRole::None;
  /// DriverData: the device argument.
  int RoleArg = NoArg;
  /// Where API or Role came from; Heuristic when only naming rules apply.
  ContractSource Source = ContractSource::None;
  /// The naming rules whose words the callee's name has. They apply only
  /// where no row says otherwise (see argEffect()).
  bool NameKeeps = false;       ///< rule name-takes-ownership
  bool NameGivesUp = false;     ///< rule name-gives-up
  bool NameUndoesVotes = false; ///< rule undo-helper-votes
  bool NameLooksUp = false;     ///< rule converted-view's exception

  bool isIndirect() const { return !Callee; }
  /// Does the call take or drop a count (acquire, release, iterator step)?
  /// Then the model evaluates it, and the other effects do not apply.
  bool changesCount() const { return API && krefcheck::changesCount(*API); }
  /// Reads only the pointer's value (IS_ERR, PTR_ERR, ERR_CAST).
  bool valueOnly() const {
    return Role == CallRole::ErrTest || Role == CallRole::ErrOrNullTest ||
           Role == CallRole::ErrValue || Role == CallRole::ValueOnly ||
           Role == CallRole::MakesErrPtr;
  }
  /// What the call does with argument I, before the rules are asked
  /// (Keep and GiveUp come from naming rules; the model checks
  /// applyRule() where it acts on them).
  ArgEffect argEffect(unsigned I) const;
  ReturnEffect returnEffect(int &ReturnArg) const;
  void print(llvm::raw_ostream &OS) const;
};

/// The contract of a callee; FD null means an indirect call. Cached per
/// analysis.
const CallContract &contractFor(const clang::FunctionDecl *FD);
const CallContract &contractFor(const clang::ento::CallEvent &Call);

/// The put to name in advice for a reference acquired by A: its row's
/// `put:`, else the family's release.
std::string matchingPut(const LifetimeAPI &A);

/// With refcount:DumpContracts=true, prints the call's contract to stderr,
/// once per call site ("file:line:col: contract of foo(): ...").
void dumpContract(const clang::ento::CallEvent &Call,
                  clang::ento::CheckerContext &C);

/// Reads refcount:DumpContracts for this thread's analyses.
void configureContractDump(bool On);

} // namespace krefcheck

#endif
