//===- LifetimeModelImpl.h - The parts of refcount.LifetimeModel -*- C++
//-*-===//
//
// refcount.LifetimeModel (LifetimeModel.cpp) dispatches the analyzer's
// callbacks to parts split by reason to change:
//
//   LifetimeTransfer.cpp  state transfer: applying a get/put contract
//   LifetimeEscapes.cpp   hand-overs: arguments, returns, stores, escapes
//   ErrPtrModel.cpp       IS_ERR()/PTR_ERR() and ACPI node tests
//   ObjectViews.cpp       one object under several pointers: converted
//                         results, driver data, handles, where a pointer was
//                         read from
//   ObjectIdentity.cpp    identity across opaque calls: same-result
//                         getters, puts and gets on unknown targets
//   LoopBounds.cpp        loop bounds read from static tables
//
// Every heuristic among them is a rule of Rules.def, asked with applyRule().
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_LIFETIMEMODELIMPL_H
#define KREFCHECK_LIFETIMEMODELIMPL_H

#include "Contracts.h"
#include "LifetimeModel.h"
#include "LifetimeState.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include <functional>
#include <string>

namespace krefcheck {
namespace lifetime {

using clang::ento::CallEvent;
using clang::ento::CheckerContext;
using clang::ento::SVal;

// LifetimeModel.cpp: shared helpers.
const clang::ento::MemSpaceRegion *memorySpace(const MemRegion *R,
                                               ProgramStateRef State);
/// The text of a get/put argument (`'&pdev->dev'`) for messages.
std::string exprText(const clang::Expr *E, CheckerContext &C);
/// A note about the reference R of family F, shown in lifetime reports
/// that mark it interesting.
const clang::ento::NoteTag *
refNote(CheckerContext &C, const MemRegion *R, Family F, std::string Fallback,
        std::function<std::string(const std::string &)> Msg);
/// Whether the path knows the pointer R is NULL.
bool knownNull(ProgramStateRef State, const MemRegion *R, CheckerContext &C,
               unsigned Depth = 0);

// LifetimeTransfer.cpp
/// A count taken through API on R at Site; Since is the symbol count there
/// (symbolWatermark()). GivenToCallee: ArgE names the object through a
/// parameter of an inlined function (rule given-vote-own).
ProgramStateRef acquire(ProgramStateRef State, const MemRegion *R,
                        const LifetimeAPI &API, const clang::Stmt *Site,
                        const clang::Expr *ArgE, unsigned Since,
                        bool GivenToCallee = false);
/// ReleaseFrame: see RefEntry::ReleaseFrame.
ProgramStateRef release(ProgramStateRef State, const MemRegion *R,
                        const LifetimeAPI &API, unsigned Since,
                        const clang::StackFrameContext *ReleaseFrame = nullptr);
/// Applies a get/put contract: evaluates the call (Evaluate) or observes
/// refcount.Model's evaluation of it.
void applyCall(const CallEvent &Call, const LifetimeAPI &API, CheckerContext &C,
               bool Evaluate);
/// Is the get at Site inside `if (!claim_bit(...))` (rule bit-owned-get)?
bool ownedByBit(const clang::Stmt *Site, CheckerContext &C);
/// Rule fresh-object-init: does this init row's call (kref_init(&o->ref),
/// refcount_set(&o->refs, 1)) set to one the count of an object the path
/// got from an allocator (not a device-managed one) and not yet stored
/// anywhere?
bool initCreatesObject(const CallEvent &Call, const LifetimeAPI &API,
                       ProgramStateRef State);
/// The states where a call with that failure convention succeeded and
/// failed, by its integer result Ret (Failed is null for other
/// conventions; either is null where the path cannot take it).
std::pair<ProgramStateRef, ProgramStateRef>
splitOnFailure(ProgramStateRef State, SVal Ret, Failure F, CheckerContext &C);
/// The state with `Ret Op 0` assumed.
ProgramStateRef assumeCmpZero(ProgramStateRef S, SVal Ret,
                              clang::BinaryOperatorKind Op, CheckerContext &C);

// LifetimeEscapes.cpp
/// The object a `names` call (dev_set_name()) names, or null.
clang::ento::SymbolRef namedObject(const CallEvent &Call,
                                   const CallContract &K);
/// Pred: the node the call's transitions start from (an error node a
/// report was made at), or null for the predecessor.
void handOverArguments(const CallEvent &Call, CheckerContext &C,
                       clang::ento::ExplodedNode *Pred = nullptr);
/// The role of the call whose result Mem is (kmalloc(): allocator,
/// devm_kzalloc(): managed-allocator), or None (FreedContainers.cpp).
CallRole allocatorRoleOf(clang::ento::SymbolRef Mem);
/// Rule freed-container (FreedContainers.cpp): the memory this path
/// allocated that a store of a held reference goes into, or null.
clang::ento::SymbolRef privateContainer(clang::ento::SVal Loc,
                                        clang::ento::SVal Val,
                                        ProgramStateRef State);
/// A call given such memory: a memory-frees call gives the references
/// stored in it back to the path (with a note in Tag), any other call that
/// may keep or put ends the link.
ProgramStateRef containerCall(const CallEvent &Call, const CallContract &K,
                              ProgramStateRef State, CheckerContext &C,
                              const clang::ento::NoteTag *&Tag);
/// A memory-frees call (kfree()), with the rule on.
bool isMemoryFree(const clang::FunctionDecl *FD);
/// Row key put-only: a memory free given a named object whose first
/// reference the path holds on a put-only count is reported to Leak at an
/// error node, which it returns (null when there is nothing to report).
clang::ento::ExplodedNode *freedNotPut(const CallEvent &Call, CheckerContext &C,
                                       const LeakReporter *Leak);
/// Rule managed-container: at an error return, references stored in
/// device-managed memory no call was given are the path's again.
ProgramStateRef freeManagedContainers(ProgramStateRef State);
/// Whether E was stored into device-managed memory the path allocated and
/// no call was given since: kept after its pointer dies, for the return.
bool inManagedContainer(const RefEntry &E);
/// After a store whose result tells failure (a `stores` row with an integer
/// `fails:` convention): splits the path into the store's success, where
/// the references stored are handed over, and its failure, where they stay
/// the caller's. Returns whether it added the transitions.
bool storeOnSuccess(const CallEvent &Call, const CallContract &K,
                    ProgramStateRef State, CheckerContext &C);
/// After a call returns: forget the puts of references the function was
/// given that the call was passed (kept over the call for
/// refcount.UseAfterPut; rule given-reference-single-put). The callee may
/// have taken a reference of its own; not when the call was inlined (its
/// body's gets and puts are on the path).
ProgramStateRef forgetPassedGivenPuts(const CallEvent &Call,
                                      const CallContract &K,
                                      ProgramStateRef State, bool Inlined);
void noteReturn(const clang::ReturnStmt *RS, CheckerContext &C);

/// Rule failure-passed-through: the path from E's register call (which
/// failed) to the function's return, N, made no call but logging: the
/// function leaves the failure, and so the put, to its caller.
bool failurePassedThrough(const clang::ento::ExplodedNode *N,
                          const RefEntry &E);
void noteBind(SVal Loc, SVal Val, CheckerContext &C);
/// Rule asm-stores: the pointers an inline assembly statement that writes
/// memory is given may be stored by it (cmpxchg(), xchg()).
void noteAsm(const clang::GCCAsmStmt *AS, CheckerContext &C);
ProgramStateRef escapeSymbols(ProgramStateRef State,
                              const clang::ento::InvalidatedSymbols &Escaped,
                              const CallEvent *Call,
                              clang::ento::PointerEscapeKind Kind);
/// `(void *)(word & MASK)` of a stored word is stored too.
void noteStoredWordCast(const clang::CastExpr *CE, CheckerContext &C);
bool noteFieldReadOfStored(const clang::CastExpr *CE, CheckerContext &C);

// ErrPtrModel.cpp: each returns whether it evaluated the call.
bool evalIsErr(const CallEvent &Call, CheckerContext &C, bool OrNull);
/// An integrity-check row: the check passes (returns 1).
bool evalIntegrityCheck(const CallEvent &Call, CheckerContext &C);
bool evalPtrErr(const CallEvent &Call, CheckerContext &C);
bool evalAcpiTest(const CallEvent &Call, CheckerContext &C);
/// Does the get/put walk an ACPI node, which holds no count (rule
/// acpi-uncounted)?
bool isAcpiFwnodeWalk(const LifetimeAPI &API, const CallEvent &Call,
                      CheckerContext &C);

// ObjectViews.cpp
/// A result that is another view of a held object, or the driver data of a
/// held device, stands for that object (rules converted-view,
/// driver-data-handle). Works on State (the call's post-state, or one the
/// caller derived from it); returns whether it added a transition.
bool noteViews(const CallEvent &Call, const CallContract &K, CheckerContext &C,
               ProgramStateRef State);
/// `handle->dev` of a driver-data handle names the device (rule
/// handle-dev-field).
bool noteHandleDevice(const clang::CastExpr *CE, CheckerContext &C);
/// Is a get's pointer held in memory that keeps the reference (rule
/// held-in-memory)?
bool heldInMemory(const clang::Expr *ArgE, const MemRegion *R,
                  CheckerContext &C);

// ObjectIdentity.cpp
/// Evaluates a call whose contract is same-result (returns whether it did).
bool evalSameResult(const CallEvent &Call, CheckerContext &C);
void keepSameResultsAlive(ProgramStateRef State, clang::ento::SymbolReaper &SR);
ProgramStateRef removeDeadSameResults(ProgramStateRef State,
                                      clang::ento::SymbolReaper &SR);
/// The one reference of family F the pointer R may name although the path
/// cannot tell (R comes from a call made after it was taken, ForPut: a
/// count held on an object the function was given; else a put this path
/// made without a get). Null when none or more than one qualify.
std::optional<std::pair<RefKey, RefEntry>>
unknownTargetOf(ProgramStateRef State, const MemRegion *R, Family F,
                bool ForPut);
/// Whether a put on R, whose pointer died, is kept for rule
/// unknown-get-target: R comes from a call or a field read again.
bool mayBeNamedAgain(const MemRegion *R);
/// Before an opaque call: remember it if it is given a held object, whose
/// neighbour (not the object itself) its result then is.
ProgramStateRef noteNeighbourCall(ProgramStateRef State, const CallEvent &Call);
/// After that call: its result (Result) is the neighbour, while it lives.
ProgramStateRef settleNeighbourCall(ProgramStateRef State,
                                    const clang::CallExpr *CE, SVal Result);
ProgramStateRef removeDeadNeighbours(ProgramStateRef State,
                                     clang::ento::SymbolReaper &SR);
/// The pointers a same-result getter was given to return the object R.
llvm::SmallVector<const MemRegion *, 2> sameResultArgs(ProgramStateRef State,
                                                       const MemRegion *R);
/// Rule held-field-not-null: a path that assumes NULL a field a held
/// pointer was read through, read again after a call, is infeasible.
ProgramStateRef pruneNullHeldFields(ProgramStateRef State);
/// At a get through `a->b->obj`: remember the pointer fields read on the
/// way (for rule held-field-not-null).
ProgramStateRef noteHeldThrough(ProgramStateRef State, const clang::Expr *ArgE,
                                const MemRegion *Held,
                                const clang::LocationContext *LCtx);
/// Does FD's body (in this TU) put a count of family F, itself or through
/// the functions it calls, Depth levels deep?
bool bodyPutsFamily(const clang::FunctionDecl *FD, Family F, unsigned Depth);
/// After a call to a function of this TU the analyzer did not inline: the
/// held counts its body may have put (rule uninlined-body-puts) escape.
ProgramStateRef forgetCountsPutOutOfSight(ProgramStateRef State,
                                          const CallEvent &Call,
                                          CheckerContext &C);
/// Where the pointer R came from, for notes ("comes from
/// regmap_get_device()"); empty when unknown.
std::string pointerOrigin(const MemRegion *R);
/// The note of a put on R that matched no count this path holds: for a
/// report about R, the put; for a report about another held count of the
/// family on an object of the same type, why the put missed it.
const clang::ento::NoteTag *
unmatchedPutNote(CheckerContext &C, ProgramStateRef State, const MemRegion *R,
                 const LifetimeAPI &API, const std::string &Fallback);

// LoopBounds.cpp
/// A loop bound read from a static table keeps its initial value (rule
/// static-loop-bound).
void constrainStaticBound(const clang::CastExpr *CE, CheckerContext &C);

} // namespace lifetime
} // namespace krefcheck

#endif
