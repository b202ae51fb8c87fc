//===- CountState.h - What a path knows about each count --------*- C++ -*-===//
//
// Program-state facts shared by the modeling checker (which writes them) and
// the diagnostic checkers (which read them). The traits live in
// CountState.cpp: a REGISTER_*_WITH_PROGRAMSTATE trait is private to the file
// that registers it, so everyone goes through these functions.
//
//   counter region -> CountState   (below)
//   counter region -> SymbolRef    the last value read without a reference
//   SymbolRef (object)             allocated zero-filled, count not set yet
//   SymbolRef (object) -> Origin   an internal reference: how it was found
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_COUNTSTATE_H
#define KREFCHECK_COUNTSTATE_H

#include "KernelTables.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramState.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SymbolManager.h"
#include "llvm/ADT/FoldingSet.h"
#include <optional>

namespace krefcheck {

/// The count of one counter as seen by this path.
///
///            init / successful try-get / get
///   (none) ------------------------------------> Held
///     |  \                                         |
///     |   \ dec_and_test true, failed try-get,     | dec_and_test true,
///     |    \ set(0), kref_put released             | failed try-get ...
///     |     v                                      v
///     |    Zero <-------------------------------- (Zero)
///     |      | get  => refcount.GetOnZero
///     v
///   plain put / dec_and_test false: fact forgotten (count unknown)
///
/// Held also counts the references the path added with plain gets on top of
/// one it had: putting one of those back cannot reach zero.
class CountState {
public:
  enum class Kind : unsigned char { Held, Zero };
  enum class Why : unsigned char {
    Init,         ///< kref_init / *_set(c, n != 0)
    TryGetOk,     ///< *_inc_not_zero succeeded
    Get,          ///< a get on this path
    PutHitZero,   ///< *_dec_and_test / kref_put returned true
    TryGetFailed, ///< *_inc_not_zero failed: the count was zero
    SetZero,      ///< *_set(c, 0)
    /// atomic_set(c, 0) on an object this path allocated zero-filled and had
    /// not initialized: a count of memberships that starts at zero while the
    /// object is private (sound/core/seq's `subs->ref_count`), not a count
    /// that fell to zero. A plain atomic_inc() from it is the idiom.
    SetZeroPrivate,
  };

  static CountState held(Why W) { return CountState(Kind::Held, W, 0); }
  static CountState zero(Why W) { return CountState(Kind::Zero, W, 0); }
  /// A put that dropped the count to zero in stack frame \p F (kept to tell
  /// whether the function that called the put goes on using the object).
  static CountState hitZeroIn(const clang::StackFrameContext *F) {
    return CountState(Kind::Zero, Why::PutHitZero, 0, F);
  }
  /// The same, for a put of a count this path never took, in a frame that
  /// does not return the outcome (rule caller-count-survives).
  static CountState hitZeroUntakenIn(const clang::StackFrameContext *F) {
    CountState CS(Kind::Zero, Why::PutHitZero, 0, F);
    CS.Untaken = true;
    return CS;
  }
  /// Whether the put that hit zero dropped a count this path never took.
  bool untaken() const { return Untaken; }
  /// The path added a reference with a plain get on top of one it already
  /// had (borrowed or held): a put that returns it cannot reach zero.
  CountState withExtraGet() const {
    return CountState(Kind::Held, W, Extra + 1);
  }
  /// Extra references added by this path's gets and not yet put back.
  unsigned extraGets() const { return Extra; }
  CountState withoutExtraGet() const {
    return CountState(K, W, Extra ? Extra - 1 : 0);
  }

  /// The frame of the put that dropped the count to zero, if any.
  const clang::StackFrameContext *putFrame() const { return PutFrame; }

  bool isHeld() const { return K == Kind::Held; }
  bool isZero() const { return K == Kind::Zero; }
  Why why() const { return W; }

  bool operator==(const CountState &O) const {
    return K == O.K && W == O.W && Extra == O.Extra && PutFrame == O.PutFrame &&
           Untaken == O.Untaken;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddInteger(static_cast<unsigned>(K));
    ID.AddInteger(static_cast<unsigned>(W));
    ID.AddInteger(Extra);
    ID.AddPointer(PutFrame);
    ID.AddBoolean(Untaken);
  }
  void dump(llvm::raw_ostream &OS) const;

private:
  CountState(Kind K, Why W, unsigned Extra,
             const clang::StackFrameContext *PutFrame = nullptr)
      : K(K), W(W), Extra(Extra), PutFrame(PutFrame) {}
  Kind K;
  Why W;
  unsigned Extra;
  const clang::StackFrameContext *PutFrame;
  bool Untaken = false;
};

llvm::StringRef describeOrigin(InternalOrigin O);

using clang::ento::MemRegion;
using clang::ento::ProgramStateRef;
using clang::ento::SymbolRef;

const CountState *getCountState(ProgramStateRef S, const MemRegion *Counter);
ProgramStateRef setCountState(ProgramStateRef S, const MemRegion *Counter,
                              CountState CS);
ProgramStateRef forgetCountState(ProgramStateRef S, const MemRegion *Counter);

ProgramStateRef setUnownedRead(ProgramStateRef S, const MemRegion *Counter,
                               SymbolRef Value);
SymbolRef getUnownedRead(ProgramStateRef S, const MemRegion *Counter);
/// Forgets every remembered unowned read that \p Value is built from and
/// that the path has not yet tested against zero (the read is compared with
/// a bound that is not a constant: flow control, such as
/// `sk_wmem_alloc_get(sk) < sk->sk_sndbuf`, not a test for zero).
ProgramStateRef forgetUnownedReadsIn(ProgramStateRef S,
                                     clang::ento::SVal Value);

/// The function that called a put which "hit zero" touches the object
/// \p Obj again at \p Accessed, in frame \p Cur: forgets that fact when
/// \p Cur is a caller of the put's frame and the access is not the counter
/// itself. A function that goes on using an object after a callee's put
/// holds another reference (neigh_del_timer() drops the timer's reference,
/// __neigh_event_send() still writes the neighbour); if it did not, the
/// access itself would be the bug, not a later get.
ProgramStateRef forgetPutsOutlivedBy(ProgramStateRef S, SymbolRef Obj,
                                     const MemRegion *Accessed,
                                     const clang::StackFrameContext *Cur);

ProgramStateRef markZeroFilled(ProgramStateRef S, SymbolRef Object);
bool isZeroFilled(ProgramStateRef S, SymbolRef Object);
ProgramStateRef forgetZeroFilled(ProgramStateRef S, SymbolRef Object);
/// Forgets that a test-for-zero get on a count of \p Object failed: the
/// path found the object again by a new walk of its index, so what it saw
/// before is stale (sunrpc_cache_lookup_rcu(): a failed cache_get_rcu() in
/// the RCU walk, then the same entry found under the hash lock, where the
/// list's own reference keeps it above zero).
ProgramStateRef forgetFailedTryGets(ProgramStateRef S, SymbolRef Object);

ProgramStateRef markInternal(ProgramStateRef S, SymbolRef Object,
                             InternalOrigin O);
std::optional<InternalOrigin> getInternalOrigin(ProgramStateRef S,
                                                SymbolRef Object);
/// The node field (`list` in list_for_each_entry(c, head, list)) the walk
/// that found Object stepped back from, when known.
ProgramStateRef markInternalMember(ProgramStateRef S, SymbolRef Object,
                                   const clang::FieldDecl *Member);
const clang::FieldDecl *internalMember(ProgramStateRef S, SymbolRef Object);

/// A kref_put() whose result the code tested returned true on this path
/// (rule release-ran): the release callback ran and freed the object.
struct ReleaseRan {
  const MemRegion *Counter;              ///< the kref, for the path note
  const clang::StackFrameContext *Frame; ///< the function that tested it
  const clang::CallExpr *Put;            ///< the kref_put() call
  const clang::FunctionDecl *Release;    ///< its callback, when known
  bool operator==(const ReleaseRan &O) const {
    return Counter == O.Counter && Frame == O.Frame && Put == O.Put &&
           Release == O.Release;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddPointer(Counter);
    ID.AddPointer(Frame);
    ID.AddPointer(Put);
    ID.AddPointer(Release);
  }
};
/// Records that the object whose base region is \p Object was freed by a
/// release callback (ReleaseRan).
ProgramStateRef markReleaseRan(ProgramStateRef S, const MemRegion *Object,
                               ReleaseRan R);
/// The release that freed the object \p R points into, if any.
const ReleaseRan *releaseRanFor(ProgramStateRef S, const MemRegion *R);

/// Drops facts about dead symbols and regions.
ProgramStateRef removeDeadCountFacts(ProgramStateRef S,
                                     clang::ento::SymbolReaper &SR);
/// Keeps alive the symbols the facts still need.
void markCountFactsLive(ProgramStateRef S, clang::ento::SymbolReaper &SR);
/// Debug print of all count facts (for
/// -analyzer-checker=debug.ViewExplodedGraph and `clang_analyzer_printState`).
void printCountFacts(llvm::raw_ostream &OS, ProgramStateRef S, const char *NL);

} // namespace krefcheck

#endif
