//===- LifetimeAPI.h - The kernel's object get/put APIs, as a table -*- C++
//-*-===//
//
// One row per API function: whether it acquires a counted reference (+1),
// releases one, or releases one argument and returns a new reference
// (of_get_next_child), which argument or the return value holds the
// reference, and how the API reports that it failed to acquire. The rows come
// from the model files (checker/kernel-model.yaml, the user's model file:
// ModelFile.h) and from krefcheck_* annotations on declarations
// (include/krefcheck/annotations.h), which override the files.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_LIFETIMEAPI_H
#define KREFCHECK_LIFETIMEAPI_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class FunctionDecl;
}

namespace krefcheck {

/// What the API does with a reference.
enum class LifeOp : unsigned char {
  Acquire,        ///< +1 on the argument (get_device) or a new +1 result.
  Release,        ///< -1 on the argument (of_node_put).
  ConsumeAcquire, ///< Puts ConsumedArg and returns a new +1 result.
  Consume,        ///< Takes over the caller's reference on RefArg (a store).
  Borrow,         ///< Only borrows RefArg: passing it hands nothing over,
                  ///< and the function must not put it.
  Store,          ///< Stores RefArg where it outlives the call (an index:
                  ///< idr_alloc, xa_store): a reference the caller holds is
                  ///< handed over, and a get after the store is the
                  ///< stored pointer's count.
};

/// How an acquiring API says it failed (and then holds no reference).
enum class Failure : unsigned char {
  Never,  ///< Always acquires (pm_runtime_get_sync, get_device(non-NULL)).
  Null,   ///< Returns NULL.
  ErrPtr, ///< Returns an ERR_PTR() value.
  NullOrErrPtr, ///< Returns NULL or an ERR_PTR() value.
  NegErrno,     ///< Returns a negative errno; >= 0 means acquired.
  Errno,        ///< Returns 0 when acquired, else a negative errno (never
                ///< a positive value: pm_runtime_resume_and_get).
  NotPositive,  ///< Returns <= 0; > 0 means acquired (pm_runtime_get_if_*).
  Zero,         ///< Returns 0/false; non-zero means acquired (try-gets).
};

/// Failure conventions told by an integer result (negative, errno,
/// not-positive, zero).
inline bool isIntegerFailure(Failure F) {
  return F == Failure::NegErrno || F == Failure::Errno ||
         F == Failure::NotPositive || F == Failure::Zero;
}

/// Which count the reference is on. APIs of one family release each other's
/// references (put_device() releases what pci_get_device() returned).
enum class Family : unsigned char {
  Node,      ///< device_node and fwnode_handle.
  Device,    ///< struct device and its embedders, kobject.
  PmRuntime, ///< The runtime-PM usage count of a device (not its lifetime).
  NetDev,    ///< dev_hold/dev_put.
  Sock,      ///< sock_hold/sock_put.
  Net,       ///< get_net/put_net.
  Dentry,    ///< dget/dput.
  Kref,      ///< kref_get/kref_put, refcount_inc/refcount_dec_and_test.
  FirstUser, ///< Families named in model files get this value and up.
};

/// What a function is to the lifetime model besides a get or a put: calls it
/// evaluates itself, and calls whose effect on the references they are given
/// is known (model file kinds of the same names, docs/configuration.md).
enum class CallRole : unsigned char {
  None,
  ErrTest,       ///< IS_ERR(p): evaluated from what the path knows of p.
  ErrOrNullTest, ///< IS_ERR_OR_NULL(p).
  ErrValue,      ///< PTR_ERR(p).
  ValueOnly,     ///< Reads the pointer's value, never the object
                 ///< (PTR_ERR_OR_ZERO).
  MakesErrPtr,   ///< ERR_PTR(), ERR_CAST(): returning it returns an error.
  AcpiNodeTest,  ///< is_acpi_node(fwnode): ACPI nodes hold no count.
  DriverData,    ///< dev_get_drvdata(dev): the handle a get function gives out.
  ClaimBit,      ///< test_and_set_bit(): `if (!claim) get` is the bit's get.
  Logging,       ///< dev_err(): prints, keeps nothing it is given.
  Allocator,     ///< kmalloc(): returns new memory, whose fields hold counts
                 ///< of their own.
  ManagedAllocator, ///< devm_kzalloc(): new memory, as Allocator, that the
                    ///< device frees when its driver detaches.
  SameResult,       ///< regmap_get_device(map): no side effects, and on one
                    ///< path the same arguments give the same result.
  IntegrityCheck,   ///< __list_add_valid_or_report(): true unless memory is
                    ///< corrupted (which it reports): evaluated as true.
  KeepsNothing,     ///< strscpy(), memcpy(): reads or writes what it is
                    ///< given (fields included) and keeps none of it.
};

inline bool isAllocatorRole(CallRole R) {
  return R == CallRole::Allocator || R == CallRole::ManagedAllocator;
}

/// The argument index of "the return value".
inline constexpr int RetVal = -1;
inline constexpr int NoArg = -2;

/// Where a contract came from, highest precedence first.
enum class ContractSource : unsigned char {
  Annotation, ///< krefcheck_* annotations on the declaration.
  UserModel,  ///< The user's model file (refcount:ModelFile, .krefcheck.yaml).
  BuiltinModel, ///< checker/kernel-model.yaml.
  Heuristic,    ///< A rule of the rule registry (Rules.def), from the name
                ///< or the types of the callee.
  None,         ///< Nothing is known about the callee.
};

struct LifetimeAPI {
  llvm::StringRef Name;
  LifeOp Op;
  Family Fam;
  /// Acquire: the argument that gets +1, or RetVal for a new +1 result.
  /// Release: the argument that is put.
  int RefArg;
  /// ConsumeAcquire: the argument that is put (the iterator's previous node).
  int ConsumedArg = NoArg;
  Failure Fail = Failure::Never;
  /// Acquire of an argument: the result is that argument (of_node_get).
  bool ReturnsArg = false;
  /// The call is evaluated by refcount.Model (kref_*, refcount_*): only
  /// observe it after the fact, never evaluate it.
  bool Observe = false;
  /// Release: a counting put with no release callback (refcount_dec(),
  /// refcount_dec_and_test()): when it drops the last count, the code after
  /// it is the release, which uses the object on purpose.
  bool ReleaseInCaller = false;
  /// Acquire: the put to name in advice (`put:`); empty for the family's.
  llvm::StringRef Put;
  /// Acquire: a sentence added to a leak report (`advice:`).
  llvm::StringRef Advice;
  /// Acquire: the object found is bound to the caller's own driver, whose
  /// binding keeps it alive after the put (`bound-to-caller:`).
  bool BoundToCaller = false;
  /// Acquire: creates an object (`creates:`), which an `__init` function may
  /// keep for good.
  bool Creates = false;
  /// Acquire: an init row with `tracked: true` (kref_init, refcount_set):
  /// setting the count of an object the path allocated to one creates its
  /// first reference, a new one like a +1 result (rule fresh-object-init
  /// decides when the object counts as fresh).
  bool InitsFresh = false;
  /// A row with `tracked: created` (the atomic_t rows): the call takes or
  /// drops a tracked reference only on an object whose first reference this
  /// path created, and its init creates one only on a counter the TU uses
  /// as a lifetime count (rule created-atomic-count).
  bool CreatedOnly = false;
  /// Works on firmware-node handles, and ACPI's hold no count
  /// (`acpi-uncounted:`).
  bool AcpiUncounted = false;
  /// Acquire of a new reference that fails with NULL: the argument whose
  /// negative value makes the result NULL before anything is looked up
  /// (`null-if-negative:`; get_net_ns_by_id(net, id) with id < 0). NoArg
  /// when none does.
  int NullIfNegativeArg = NoArg;
  /// Acquire of an argument: the call also keeps the object when it
  /// succeeds (`kept-on-success:`; device_register() = device_initialize()
  /// + device_add()): on the path where it succeeds the reference is handed
  /// over, on the path where it fails by this convention the caller still
  /// holds it. Never when the row has no such key.
  Failure KeptOnSuccess = Failure::Never;
  /// kept-on-success: the call that undoes the registration once it
  /// succeeded (`undo:`; device_unregister()); empty for the put.
  llvm::StringRef Undo;
  /// Acquire with first-reference: once the count is set up, only the put
  /// may end the object (`put-only:`; device_initialize(): "Never directly
  /// free @dev after calling this function"): freeing its memory skips the
  /// release and leaks what the object owns (its name).
  bool PutOnly = false;
  /// Borrow: the call gives the object a name its release frees (`names:`;
  /// dev_set_name()).
  bool Names = false;
  ContractSource Src = ContractSource::BuiltinModel;
};

/// Looks up an API by function name in the model; nullptr when it is not
/// one.
const LifetimeAPI *lookupLifetimeAPI(llvm::StringRef Name);

/// The API contract of a callee: its krefcheck_* annotations when it has
/// any, else the model's row for its name.
const LifetimeAPI *lookupLifetimeAPI(const clang::FunctionDecl *FD);

/// Does the API evaluate or observe the call (acquire, release, iterator
/// step), rather than only say what happens to an argument passed to it
/// (consume, borrow)?
inline bool changesCount(const LifetimeAPI &A) {
  return A.Op != LifeOp::Consume && A.Op != LifeOp::Borrow &&
         A.Op != LifeOp::Store;
}

/// The release function to name in advice for a family ("of_node_put").
llvm::StringRef releaseNameFor(Family F);

/// Whether the family's count keeps the object alive (false for the
/// runtime-PM usage count: using a device after pm_runtime_put is fine).
bool isLifetimeFamily(Family F);

/// Whether storing the pointer somewhere hands the reference over (false for
/// the runtime-PM usage count, which is not owned by a pointer).
bool escapesOnStore(Family F);

/// Whether the acquired reference is a new one the caller did not have before
/// (a +1 result) rather than a second count on a pointer it already had.
inline bool isNewReference(const LifetimeAPI &A) {
  return A.Op == LifeOp::ConsumeAcquire ||
         (A.Op == LifeOp::Acquire && (A.RefArg == RetVal || A.InitsFresh));
}

} // namespace krefcheck

#endif
