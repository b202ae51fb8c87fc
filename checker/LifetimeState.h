//===- LifetimeState.h - Which references a path holds ----------*- C++ -*-===//
//
// Program-state facts of the lifetime checks (refcount.Leak, Underflow,
// UseAfterPut), written by refcount.LifetimeModel and read by the three
// diagnostic checkers. The traits live in LifetimeState.cpp.
//
// A reference is keyed by (object region, family): the region the get/put
// argument points to (`np`, `&pdev->dev`) and the count it is on (the
// device_node count, the runtime-PM usage count of a device, ...).
//
//            +1 result / get                 put (count > 1)
//   (none) -------------------> Owned(n) <-------------+
//     |                          |  |  |               |
//     | put of a pointer         |  |  +---------------+
//     | this path never got      |  | put (count == 1)
//     v                          |  v
//   BorrowedPut                  |  Released --put--> refcount.Underflow
//     |--put--> Underflow        |     \--deref/use--> refcount.UseAfterPut
//     |   (an iterator step; or  |
//     |   a pointer the function |
//     |   was given: rule        |
//     |   given-reference-       |
//     |   single-put, which also |
//     |   reports a use)         |
//     |--get--> (none): the caller's count is back
//     |--passed to a call--> (none): the callee may take its own
//                                |
//                                | stored / returned / handed to a
//                                | consuming API: Escaped (never reported)
//                                | region dies: refcount.Leak (new +1
//                                v references at once; gets on a pointer
//                              Lost      the caller passed: Lost, reported at
//                                        the end if the function fails)
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_LIFETIMESTATE_H
#define KREFCHECK_LIFETIMESTATE_H

#include "LifetimeAPI.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramState.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SymbolManager.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/ImmutableMap.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <optional>
#include <utility>

namespace krefcheck {

/// A reference is keyed by the object its pointer points to and the count it
/// is on.
struct RefKey {
  const clang::ento::MemRegion *Region;
  Family Fam;
  bool operator==(const RefKey &O) const {
    return Region == O.Region && Fam == O.Fam;
  }
  bool operator<(const RefKey &O) const {
    return Region != O.Region ? std::less<const void *>()(Region, O.Region)
                              : Fam < O.Fam;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddPointer(Region);
    ID.AddInteger(static_cast<unsigned>(Fam));
  }
};

inline RefKey makeRefKey(const clang::ento::MemRegion *R, Family F) {
  return {R, F};
}
inline Family keyFamily(const RefKey &K) { return K.Fam; }

class RefEntry {
public:
  enum class Kind : unsigned char {
    Owned,       ///< Count references acquired on this path and still held.
    Released,    ///< This path acquired and then put all of them.
    BorrowedPut, ///< Put once without having been acquired on this path.
    Escaped,     ///< Handed over (stored, returned, consumed): not tracked.
    Lost,        ///< Owned, but the pointer is dead (a get on a borrowed
                 ///< pointer, reported only if the function fails).
  };

  Kind K = Kind::Owned;
  unsigned Count = 0;
  /// The API that acquired the first reference of this path (null for
  /// BorrowedPut).
  const LifetimeAPI *Acquirer = nullptr;
  /// The acquiring call (report uniqueing location).
  const clang::Stmt *AcquireSite = nullptr;
  /// A local variable the reference was stored in (for messages).
  const clang::VarDecl *Var = nullptr;
  /// The get's argument (`&pdev->dev`), for messages when there is no Var.
  const clang::Expr *ArgExpr = nullptr;
  /// The put that released it (Released/BorrowedPut).
  const LifetimeAPI *Releaser = nullptr;
  /// For a put whose caller runs the release (ReleaseInCaller) and whose
  /// result the code tested: the function that tested it, where the release
  /// code is (rule put-helper-returned). Null otherwise.
  const clang::StackFrameContext *ReleaseFrame = nullptr;
  /// The analyzer's symbol count when this path took the count (or, for
  /// BorrowedPut, made the put): a pointer whose symbol is newer came from
  /// a call made after it, and may name the same object
  /// (ObjectIdentity.cpp).
  unsigned Since = 0;
  /// A created object passed to a function with no body in the TU and no
  /// contract: that function may have kept it (rule opaque-call-may-keep),
  /// so it leaks only on a path that returns an error.
  bool MayBeKept = false;
  /// The call that may have kept it (MayBeKept): returning its nonzero
  /// result says it failed and kept nothing (rule keeper-failed).
  const clang::Stmt *KeptBy = nullptr;
  /// Escaped into a field of memory this path allocated and has not given to
  /// any call: the symbol of that memory (rule freed-container). Freeing it
  /// gives the reference back to the path; a call given it may have put it.
  clang::ento::SymbolRef Container = nullptr;
  /// Still held when the inlined function that took it returned an error
  /// (rule callee-failed-holding): a leak at the analyzed function's end
  /// even if that function does not fail.
  bool HeldAtCalleeError = false;
  /// Registered by a kept-on-success call that succeeded (device_register())
  /// (rule registered-until-success): the registration keeps the object
  /// once the function returns success; a path that returns an error must
  /// undo it. The pointer's death ends nothing.
  bool Registered = false;

  /// A first count this path takes through API at Site (the get's argument
  /// ArgE, for messages), keeping what the entry knew of the pointer.
  RefEntry acquiredBy(const LifetimeAPI &API, const clang::Stmt *Site,
                      const clang::Expr *ArgE, unsigned Since) const;
  /// A put of a pointer this path never got.
  static RefEntry borrowedPut(const LifetimeAPI &Releaser, unsigned Since) {
    RefEntry E;
    E.K = Kind::BorrowedPut;
    E.Releaser = &Releaser;
    E.Since = Since;
    return E;
  }
  /// The same reference, handed over / lost / released by Put.
  RefEntry escaped() const { return escapedInto(nullptr); }
  /// Stored into a field of the path's private memory Mem (null: handed
  /// over for good).
  RefEntry escapedInto(clang::ento::SymbolRef Mem) const {
    return withKind(Kind::Escaped, Mem);
  }
  /// The memory holding it was freed: the path holds the reference again.
  RefEntry freedContainer() const { return withKind(Kind::Owned); }
  RefEntry lost() const { return withKind(Kind::Lost); }
  /// Still held, by a registration that keeps it once the function
  /// returns success (rule registered-until-success).
  RefEntry registered() const {
    RefEntry E = *this;
    E.Registered = true;
    return E;
  }
  RefEntry releasedBy(const LifetimeAPI &Put,
                      const clang::StackFrameContext *ReleaseFrame) const {
    RefEntry E = withKind(Kind::Released);
    E.Count = 0;
    E.Releaser = &Put;
    E.ReleaseFrame = ReleaseFrame;
    return E;
  }
  /// Held by this path (and so the path's to drop or hand over).
  bool isHeld() const { return K == Kind::Owned || K == Kind::Lost; }

  bool isOwned() const { return K == Kind::Owned; }
  bool isReleased() const { return K == Kind::Released; }
  bool isNewReference() const {
    return Acquirer && krefcheck::isNewReference(*Acquirer);
  }

  void dump(llvm::raw_ostream &OS) const;

  bool operator==(const RefEntry &O) const {
    return K == O.K && Count == O.Count && Acquirer == O.Acquirer &&
           AcquireSite == O.AcquireSite && Var == O.Var &&
           Releaser == O.Releaser && ReleaseFrame == O.ReleaseFrame &&
           ArgExpr == O.ArgExpr && Since == O.Since &&
           MayBeKept == O.MayBeKept && KeptBy == O.KeptBy &&
           Container == O.Container &&
           HeldAtCalleeError == O.HeldAtCalleeError &&
           Registered == O.Registered;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddInteger(static_cast<unsigned>(K));
    ID.AddInteger(Count);
    ID.AddPointer(Acquirer);
    ID.AddPointer(AcquireSite);
    ID.AddPointer(Var);
    ID.AddPointer(Releaser);
    ID.AddPointer(ReleaseFrame);
    ID.AddPointer(ArgExpr);
    ID.AddInteger(Since);
    ID.AddBoolean(MayBeKept);
    ID.AddPointer(KeptBy);
    ID.AddPointer(Container);
    ID.AddBoolean(HeldAtCalleeError);
    ID.AddBoolean(Registered);
  }

private:
  RefEntry withKind(Kind NewK,
                    clang::ento::SymbolRef NewContainer = nullptr) const {
    RefEntry E = *this;
    E.K = NewK;
    E.Container = NewContainer;
    return E;
  }
};

using clang::ento::MemRegion;
using clang::ento::ProgramStateRef;

const RefEntry *getRef(ProgramStateRef S, const RefKey &K);
ProgramStateRef setRef(ProgramStateRef S, const RefKey &K, const RefEntry &E);
ProgramStateRef removeRef(ProgramStateRef S, const RefKey &K);
/// The path's references, a persistent map: iterating it copies nothing,
/// and it stays valid while the loop builds new states.
using RefMap = llvm::ImmutableMap<RefKey, RefEntry>;
RefMap allRefs(ProgramStateRef S);
/// Does the path track any reference (cheaper than allRefs().empty())?
bool hasRefs(ProgramStateRef S);

/// The reference an API argument names: the entry of exactly this region and
/// family, else one on the same object (`put_device(&pdev->dev)` releases
/// what `pci_get_device()` returned as `pdev`).
std::optional<std::pair<RefKey, RefEntry>>
findRef(ProgramStateRef S, const MemRegion *R, Family F);

/// The region a get/put argument points to, casts stripped (null when the
/// value is not a region, e.g. NULL or an ERR_PTR constant).
const MemRegion *refRegion(clang::ento::SVal V);

/// Whether Sym is a value read from memory the path did not write (a
/// parameter's value on entry, a field of one, a global's content).
bool readFromMemory(clang::ento::SymbolRef Sym);
/// Whether R lies in memory the function did not allocate or find by a
/// call: an object it was given (a parameter's value on entry, or a pointer
/// read out of one) or a global.
bool inGivenMemory(const MemRegion *R);
/// The first reference a register call (`first-reference` with
/// `kept-on-success`) set up on memory the function did not allocate
/// (rule given-object-registered).
bool isGivenRegistered(const MemRegion *R, const RefEntry &E);

/// The field a symbolic pointer was loaded from (`dev->parent`), if any.
const MemRegion *loadedFrom(const MemRegion *Base);
/// The object a symbolic pointer was read out of: `adsp` for a pointer
/// loaded from `adsp->pds[0]` or `adsp->dev`, `pds` for one loaded from
/// `pds[i]`; null for other pointers.
const MemRegion *loadedOutOf(const MemRegion *Base);

/// The parameter of the analyzed (top) function a pointer was given in: R
/// points into the object the parameter's value on entry points to
/// (`dev`, `&pdev->dev`), or R's pointer was read out of such an object
/// (`priv->np`, `dev->parent->of_node`). Null for other pointers (call
/// results, globals, locals).
const clang::ParmVarDecl *givenParam(const MemRegion *R);

/// Is R (or the object R was loaded from, e.g. `l->supplier`) an internal
/// reference found by a list walk or an index lookup?
bool reachedFromInternal(ProgramStateRef State, const MemRegion *R);

/// A pointer the function was given (givenParam) whose reference this path
/// may treat as the caller's: not one the path handed to a call that may
/// keep it first (wasKeptGiven), nor a list walk's or index lookup's entry
/// reached through the parameter (reachedFromInternal).
bool isGivenPointer(ProgramStateRef S, const MemRegion *R);

/// A put of a pointer the function was given, of a count that keeps the
/// object alive, that this path made without a get (rule
/// given-reference-single-put decides whether to act on it); not when the
/// path handed the object to a call that may keep it first (wasKeptGiven).
bool isGivenReferencePut(ProgramStateRef S, const RefKey &K, const RefEntry &E);

/// The object of a pointer the function was given was handed to a call that
/// may keep it (a takes-ownership name: device_register(), device_add(); an
/// index insert): a later put may drop the count that call set up or took
/// (`if (device_register(&mtd->dev)) goto fail; ... fail:
/// put_device(&mtd->dev);`), not the one the function was given.
ProgramStateRef markKeptGiven(ProgramStateRef S, const MemRegion *R);
bool wasKeptGiven(ProgramStateRef S, const MemRegion *R);

/// Pointers stored into memory outliving the function before any get:
/// a later get on them is that memory's reference (`hub->hdev = hdev;
/// usb_get_dev(hdev);`).
ProgramStateRef markStored(ProgramStateRef S, clang::ento::SymbolRef Sym);
/// Objects a `names` row (dev_set_name()) named on this path: their release
/// frees the name, so freeing them directly leaks it (row key put-only).
ProgramStateRef markNamed(ProgramStateRef S, clang::ento::SymbolRef Sym);
bool isNamed(ProgramStateRef S, clang::ento::SymbolRef Sym);
/// The status a `names` call (dev_set_name()) returned for the object Sym
/// it named: once that status dies known nonzero, the name is forgotten.
ProgramStateRef noteNamingResult(ProgramStateRef S, clang::ento::SymbolRef Sym,
                                 clang::ento::SVal Result);
bool isStored(ProgramStateRef S, clang::ento::SymbolRef Sym);
/// Whether the object Sym points to is one field away from a stored
/// pointer: read out of one (`type->parent = parent; get_device(parent->dev)`)
/// or holding one (`priv->chan = md->chan; kref_get(&md->ref)`).
bool linkedToStored(ProgramStateRef S, clang::ento::SymbolRef Sym);
/// Records a pointer loaded from a field of a stored pointer while that
/// pointer is live (it may die before the get that uses the field).
ProgramStateRef noteReadOutOfStored(ProgramStateRef S,
                                    clang::ento::SymbolRef Sym);
/// Drops the stored marks and reads of dead symbols, and settles the naming
/// results whose status died (a nonzero one unnames the object).
ProgramStateRef removeDeadStored(ProgramStateRef S,
                                 clang::ento::SymbolReaper &SR);

/// Results of calls that took a held reference and returned another view of
/// its object (`adapter = i2c_verify_adapter(dev)`): returning the result
/// hands the reference over, and while the result is live the reference is.
ProgramStateRef markConverted(ProgramStateRef S, clang::ento::SymbolRef Result,
                              const MemRegion *RefBase);
/// The reference's object a converted result stands for, if any.
const MemRegion *convertedFrom(ProgramStateRef S, clang::ento::SymbolRef Sym);
/// Whether a live converted result stands for the object RefBase.
bool hasLiveConversion(ProgramStateRef S, const MemRegion *RefBase,
                       clang::ento::SymbolReaper &SR);
/// A held reference's pointer stored into a field (`ctrl->dev =
/// &pdev->dev`): the field reloaded after a call invalidated it still
/// names that object.
/// The pointer noteFieldCopy() stored into Field, or null.
const MemRegion *fieldCopyIn(ProgramStateRef S, const MemRegion *Field);
ProgramStateRef noteFieldCopy(ProgramStateRef S, const MemRegion *Field,
                              const MemRegion *Ref);
/// Whether a live field holds R (noteFieldCopy), so that the path can name
/// R again by reading that field.
bool storedInLiveField(ProgramStateRef S, const MemRegion *R,
                       clang::ento::SymbolReaper &SR);
ProgramStateRef removeDeadFieldCopies(ProgramStateRef S,
                                      clang::ento::SymbolReaper &SR);
ProgramStateRef removeDeadConverted(ProgramStateRef S,
                                    clang::ento::SymbolReaper &SR);

/// Two pointers the path proved equal (rule proven-equal): the true branch
/// of `a == b` or the false one of `a != b`, where one of them is a held
/// object's pointer. Kept here because the constraint manager drops the
/// equality when one pointer's variable dies (`if (old == gang) break;`,
/// then only `old` is used).
/// Rule fresh-pointer-distinct: null (the branch is not taken) when Cond
/// assumed so makes a created, unpublished object's pointer equal to a
/// pointer read from memory or given to the function.
ProgramStateRef refuteFreshEqualsLoaded(ProgramStateRef S,
                                        clang::ento::SVal Cond,
                                        bool Assumption);
ProgramStateRef noteProvenEqual(ProgramStateRef S, clang::ento::SVal Cond,
                                bool Assumption);
/// Whether noteProvenEqual() recorded A == B on this path.
bool provenEqual(ProgramStateRef S, clang::ento::SymbolRef A,
                 clang::ento::SymbolRef B);
ProgramStateRef removeDeadProvenEqual(ProgramStateRef S,
                                      clang::ento::SymbolReaper &SR);

/// The result of a node getter that finds nothing from no node
/// (`of_get_parent(NULL)` is NULL): it is NULL on a path where Arg is.
ProgramStateRef noteNullWithArg(ProgramStateRef S,
                                clang::ento::SymbolRef Result,
                                const MemRegion *Arg);
const MemRegion *nullWithArg(ProgramStateRef S, clang::ento::SymbolRef Result);
/// What IS_ERR() said of a pointer symbol on this path (rule
/// errptr-values): true for an ERR_PTR(), false for a real pointer or NULL.
ProgramStateRef noteErrPtr(ProgramStateRef S, clang::ento::SymbolRef Ptr,
                           bool IsErr);
std::optional<bool> errPtrFact(ProgramStateRef S, clang::ento::SymbolRef Ptr);
ProgramStateRef removeDeadErrPtrs(ProgramStateRef S,
                                  clang::ento::SymbolReaper &SR);
ProgramStateRef removeDeadNullWithArg(ProgramStateRef S,
                                      clang::ento::SymbolReaper &SR);
/// Rule release-callback-puts: the release callback this path stored into
/// a release field of Object (the model file's types: release-fields).
ProgramStateRef noteInstalledRelease(ProgramStateRef S, const MemRegion *Object,
                                     const clang::FunctionDecl *Fn);
const clang::FunctionDecl *installedRelease(ProgramStateRef S,
                                            const MemRegion *Object);
ProgramStateRef removeDeadInstalledReleases(ProgramStateRef S,
                                            clang::ento::SymbolReaper &SR);

/// A fwnode the path has seen `is_acpi_node()` accept: ACPI firmware nodes
/// are not counted.
ProgramStateRef markAcpiNode(ProgramStateRef S, const MemRegion *Node);
bool testedAcpi(ProgramStateRef S, const MemRegion *Node);

/// How the path's return from the analyzed (top) function fails: not at
/// all, with a known error (a negative value, NULL, an ERR_PTR(), the
/// failure of the call that may have kept an object), or only with a call's
/// nonzero status (rule nonzero-status-error).
enum class PathError : unsigned { None, Known, NonzeroStatus };
ProgramStateRef setReturnsError(ProgramStateRef S, PathError E);
/// The path took the outcome "not zero" of a put-and-test that dropped the
/// one count it held on an object it created and never published: an
/// outcome no other holder can cause (rule created-last-put).
ProgramStateRef markCreatedCountKept(ProgramStateRef S);
bool createdCountKept(ProgramStateRef S);
/// The object whose address the bind being evaluated stores into the
/// object itself (rule self-store), for the escape that follows the bind.
ProgramStateRef setPendingSelfStore(ProgramStateRef S,
                                    clang::ento::SymbolRef Sym);
clang::ento::SymbolRef pendingSelfStore(ProgramStateRef S);
/// The private memory a bind stores a held reference into, from noteBind()
/// to the escape it causes (rule freed-container).
ProgramStateRef setPendingContainer(ProgramStateRef S,
                                    clang::ento::SymbolRef Mem);
clang::ento::SymbolRef pendingContainer(ProgramStateRef S);
PathError returnsError(ProgramStateRef S);

/// A name for the reference in messages: `'np'` or `the result of X()`.
std::string describeRef(const RefKey &K, const RefEntry &E);

void printLifetimeFacts(llvm::raw_ostream &OS, ProgramStateRef S,
                        const char *NL);

} // namespace krefcheck

#endif
