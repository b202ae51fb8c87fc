//===- GetOnZeroChecker.cpp - refcount.GetOnZero --------------------------===//
//
// A get is an increment of a count the caller already holds: it turns one
// external reference into two. On a count that is zero there is nothing to
// hold: the object is being freed (or was never made live), and the get
// resurrects it. refcount_t warns and saturates at run time; atomic_t
// silently brings a dead object back. Reported when the path knows or
// suspects the count is zero at a plain get:
//   - it saw the count hit zero (*_dec_and_test / kref_put returned true),
//     a test-for-zero get fail, or the count set to 0;
//   - the object was allocated zero-filled and its count never initialized;
//   - the count was read without a reference and compared with zero, then
//     incremented (check-then-get race; fine only under a kcref's put lock).
// Counters that only see plain inc/dec (plain style) are never reported.
//
//===----------------------------------------------------------------------===//

#include "Contracts.h"
#include "CountState.h"
#include "CounterKey.h"
#include "LifetimeModel.h"
#include "LockModel.h"
#include "PutStyle.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "Rules.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include <tuple>

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {
class GetOnZeroChecker : public Checker<check::PreCall> {
  const BugType Bug{this, "Get on a count that may be zero", RefcountCategory};

public:
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;

private:
  void report(CheckerContext &C, const CallEvent &Call, const MemRegion *Ctr,
              SymbolRef Interesting, const std::string &Msg,
              const FieldDecl *FD, const PutStyleInfo *Info) const;
};

/// Is this counter used to keep an object alive? kref and refcount_t always
/// are; an atomic_t only when a final put of it in the TU frees or releases
/// something (io_uring's nr_running is tested with atomic_dec_and_test but
/// counts running workers).
bool isLifetimeCounter(const CountCall &CC, const PutStyleInfo *Info) {
  if (CC.API->Family != CounterFamily::Atomic)
    return true;
  if (Info && Info->DeclaredRefcount)
    return true;
  return Info &&
         (Info->Kind == PutStyleKind::Kref ||
          Info->Kind == PutStyleKind::Kcref) &&
         Info->FreeOnZero.isValid();
}

/// `if (!atomic_dec_and_test(&rproc->power)) goto out; ret = rproc_stop();
/// if (ret) atomic_inc(&rproc->power);`: a get after the path's own put hit
/// zero, with no release of the object in between, takes the put back (a
/// rollback on failure). Walks the path back to the put; only on the rare
/// node that would be reported.
/// A plain atomic_t is a reference count when the analysis says so
/// (isLifetimeCounter), but one named for something else (`rproc->power`, a
/// count of power users) is only rolled back, not revived, by a get after
/// its path's own put hit zero.
bool namedLikeRefcount(const FieldDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return true;
  std::string N = FD->getName().lower();
  StringRef Name(N);
  return Name.contains("ref") || Name.contains("count") ||
         Name.contains("cnt") || Name.ends_with("usage") ||
         Name.ends_with("users") || Name.ends_with("use");
}

/// Only the calls the function itself makes count: what a callee does inside
/// (`__rproc_detach()` tearing down subdevices) is not a release of this
/// object unless the callee's own name says so.
bool releasedSinceZero(const ExplodedNode *N, const MemRegion *Ctr) {
  const LocationContext *LC = N ? N->getLocationContext() : nullptr;
  for (; N; N = N->getFirstPred()) {
    const CountState *CS = getCountState(N->getState(), Ctr);
    if (!CS || !CS->isZero() || CS->why() != CountState::Why::PutHitZero)
      return false;
    const FunctionDecl *Callee = nullptr;
    if (auto PS = N->getLocationAs<PostStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(PS->getStmt()))
        if (N->getLocationContext() == LC)
          Callee = Call->getDirectCallee();
    if (Callee && contractFor(Callee).NameGivesUp)
      return true;
  }
  return false;
}

/// `if (!refcount_read(&eth->dma_refcnt)) { ...; refcount_set(&eth->dma_refcnt,
/// 1); } else refcount_inc(&eth->dma_refcnt);` (mtk_open(),
/// mtk_hsdma_alloc_chan_resources()): a function that sets the count itself
/// when it reads zero treats zero as an idle state it re-arms, not as an
/// object being freed; the test and the get are serialized by its caller.
/// The same for a global counter (`static refcount_t hist_pad_ref` in
/// alloc_hist_pad(), under event_mutex).
bool rearmsCounter(const Stmt *S, const ValueDecl *Counter) {
  if (!S || !Counter)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      if (const CountAPI *API = Callee->getIdentifier()
                                    ? lookupCountAPI(Callee->getName())
                                    : nullptr)
        if (API->Op == CountOp::Init && API->CounterArg < CE->getNumArgs()) {
          // The model's init rows: kref_init() sets one, refcount_set(r, n)
          // and atomic_set(c, n) their value argument.
          Expr::EvalResult V;
          const ASTContext &Ctx = Callee->getASTContext();
          bool NonZero = !API->ValueArg ||
                         (*API->ValueArg < CE->getNumArgs() &&
                          CE->getArg(*API->ValueArg)->EvaluateAsInt(V, Ctx) &&
                          !V.Val.getInt().isZero());
          const Expr *A = CE->getArg(API->CounterArg)->IgnoreParenImpCasts();
          if (const auto *UO = dyn_cast<UnaryOperator>(A))
            if (UO->getOpcode() == UO_AddrOf)
              A = UO->getSubExpr()->IgnoreParenImpCasts();
          const ValueDecl *Named = nullptr;
          if (const auto *ME = dyn_cast<MemberExpr>(A))
            Named = ME->getMemberDecl();
          else if (const auto *DRE = dyn_cast<DeclRefExpr>(A))
            Named = DRE->getDecl();
          if (NonZero && Named == Counter)
            return true;
        }
  for (const Stmt *Child : S->children())
    if (rearmsCounter(Child, Counter))
      return true;
  return false;
}

/// The declaration of a counter: its field, or the variable of a global or
/// static counter (`static refcount_t hist_pad_ref`).
const ValueDecl *counterDecl(const MemRegion *Ctr, const FieldDecl *FD) {
  if (FD)
    return FD;
  if (const auto *VR = dyn_cast<VarRegion>(Ctr->StripCasts()))
    return VR->getDecl();
  return nullptr;
}

/// Whether frame A is B or one of B's callers.
bool isSameOrAncestor(const StackFrameContext *A, const StackFrameContext *B) {
  return A == B || A->isParentOf(B);
}

bool holdsPutLock(ProgramStateRef State, const PutStyleInfo *Info) {
  if (!Info || Info->Kind != PutStyleKind::Kcref)
    return false;
  for (const MemRegion *L : heldLocks(State))
    if (const ValueDecl *D = lockDecl(L))
      if (llvm::is_contained(Info->PutLocks, D))
        return true;
  return false;
}
/// Rule release-aborted-under-lock: `mutex_lock(&g->lock); if
/// (atomic_dec_and_test(&g->refcount)) { if (!cancel_delayed_work(&g->w)) {
/// atomic_inc(&g->refcount); mutex_unlock(&g->lock); return 0; } ...
/// kfree(g); }` (mlx4 release_group()). Whether one of the locks the
/// counter's final puts take (kcref style) was held at every node since the
/// path's own put hit zero, the put included. Walks the path back; only on
/// the rare node that would be reported.
bool putLockHeldSinceZero(const ExplodedNode *N, const MemRegion *Ctr,
                          const PutStyleInfo *Info) {
  for (; N; N = N->getFirstPred()) {
    if (!holdsPutLock(N->getState(), Info))
      return false;
    const CountState *CS = getCountState(N->getState(), Ctr);
    if (!CS || !CS->isZero() || CS->why() != CountState::Why::PutHitZero)
      return true; // before the put, and the lock was held there
  }
  return false;
}
} // namespace

void GetOnZeroChecker::report(CheckerContext &C, const CallEvent &Call,
                              const MemRegion *Ctr, SymbolRef Interesting,
                              const std::string &Msg, const FieldDecl *FD,
                              const PutStyleInfo *Info) const {
  ExplodedNode *N = C.generateNonFatalErrorNode();
  if (!N)
    return;
  auto R = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N);
  R->addRange(Call.getSourceRange());
  R->markInteresting(Ctr);
  if (Interesting)
    R->markInteresting(Interesting);
  if (FD && Info)
    addStyleNote(*R, FD, *Info, C.getSourceManager());
  emitReport(C, std::move(R));
}

void GetOnZeroChecker::checkPreCall(const CallEvent &Call,
                                    CheckerContext &C) const {
  CountCall CC = decodeCountCall(Call);
  if (!CC || CC.API->Op != CountOp::Get || !CC.Counter)
    return;
  const MemRegion *Ctr = CC.Counter;
  const FieldDecl *FD = counterField(Ctr);
  const PutStyleInfo *Info =
      FD ? PutStyleDB::get(C.getASTContext()).lookup(FD) : nullptr;
  if (!isLifetimeCounter(CC, Info))
    return;

  ProgramStateRef State = C.getState();
  std::string Callee = Call.getCalleeIdentifier()->getName().str() + "()";
  std::string Name =
      describeCounterArg(Call.getArgExpr(CC.API->CounterArg), Ctr,
                         C.getSourceManager(), C.getLangOpts());
  const CountState *CS = getCountState(State, Ctr);
  if (CS && CS->isHeld())
    return;

  // A private object's membership count, zeroed on purpose (see
  // CountState::Why::SetZeroPrivate): the get starts it.
  if (CS && CS->isZero() && CS->why() == CountState::Why::SetZeroPrivate)
    return;
  if (CS && CS->isZero() && CS->why() == CountState::Why::PutHitZero &&
      CC.API->Family == CounterFamily::Atomic && !namedLikeRefcount(FD) &&
      !releasedSinceZero(C.getPredecessor(), Ctr))
    return;
  // A put helper that returned dropped a count this path never took on an
  // object the function was given (del_timer() succeeded: the timer's
  // count; then the get for the re-armed timer): the count its caller holds
  // survives (rule caller-count-survives; not with
  // given-reference-single-put, which says the function owns only one).
  if (CS && CS->isZero() && CS->why() == CountState::Why::PutHitZero &&
      CS->untaken() && CS->putFrame() &&
      !isSameOrAncestor(CS->putFrame(), C.getStackFrame()) &&
      !ruleEnabled(RuleId::GivenReferenceSinglePut) &&
      applyRule(RuleId::CallerCountSurvives))
    return;
  // A kcref-style count the path took to zero and gets again without
  // having let go of the put's lock: nobody taking that lock saw the zero,
  // and the release the path was about to run has not run (it aborted it).
  // Only a plain atomic_t: refcount_t (and so kref) warns at run time on
  // any increment from zero.
  if (CS && CS->isZero() && CS->why() == CountState::Why::PutHitZero &&
      CC.API->Family == CounterFamily::Atomic && holdsPutLock(State, Info) &&
      putLockHeldSinceZero(C.getPredecessor(), Ctr, Info) &&
      !releasedSinceZero(C.getPredecessor(), Ctr) &&
      applyRule(RuleId::ReleaseAbortedUnderLock))
    return;
  if (CS && CS->isZero()) {
    std::string Why;
    switch (CS->why()) {
    case CountState::Why::PutHitZero:
      Why = "after its count dropped to zero on this path: the object is "
            "being released";
      break;
    case CountState::Why::TryGetFailed:
      Why = "after a test-for-zero get on it failed: the count is zero";
      break;
    case CountState::Why::SetZero:
      Why = "whose count was set to zero";
      break;
    default:
      Why = "whose count is zero";
      break;
    }
    report(C, Call, Ctr, nullptr,
           "Call to " + Callee + " on '" + Name + "' " + Why, FD, nullptr);
    return;
  }

  SymbolRef Obj = ownerSymbol(Ctr);
  if (!CS && isZeroFilled(State, Obj)) {
    report(C, Call, Ctr, Obj,
           "Call to " + Callee + " on '" + Name +
               "' of a zero-filled object whose count was never initialized; "
               "initialize it with kref_init()/refcount_set() first",
           nullptr, nullptr);
    return;
  }

  SymbolRef Read = getUnownedRead(State, Ctr);
  if (!Read)
    return;
  SValBuilder &SVB = C.getSValBuilder();
  SVal IsZero = SVB.evalEQ(State, SVB.makeSymbolVal(Read),
                           SVB.makeZeroVal(Read->getType()));
  auto DV = IsZero.getAs<DefinedOrUnknownSVal>();
  if (!DV)
    return;
  ProgramStateRef MayBeZero, MayBeNonZero;
  std::tie(MayBeZero, MayBeNonZero) = State->assume(*DV);
  if (MayBeZero && MayBeNonZero)
    return; // The read was not compared with zero on this path.
  // A zero test leaves 1 and 2 both possible; `users != 1` (skb_shared()) or
  // `> 1` test sharing, not liveness, and say nothing about a race.
  auto possible = [&](uint64_t N) {
    SVal Eq = SVB.evalEQ(MayBeNonZero, SVB.makeSymbolVal(Read),
                         SVB.makeIntVal(N, Read->getType()));
    auto D = Eq.getAs<DefinedOrUnknownSVal>();
    return !D || MayBeNonZero->assume(*D, true) != nullptr;
  };
  if (!MayBeZero && (!possible(1) || !possible(2)))
    return;
  if (MayBeZero) {
    report(C, Call, Ctr, nullptr,
           "Call to " + Callee + " on '" + Name +
               "' after reading its count as zero",
           nullptr, nullptr);
    return;
  }
  // The count was tested non-zero without a reference: a check-then-get.
  // Under the lock a kcref's final put takes, the count cannot drop to zero
  // in between (iget()'s pattern), so that is fine.
  if (holdsPutLock(State, Info))
    return;
  if (const Decl *D = C.getLocationContext()->getDecl())
    if (rearmsCounter(D->getBody(), counterDecl(Ctr, FD)))
      return;
  report(C, Call, Ctr, nullptr,
         "Check-then-get race: the count of '" + Name +
             "' was tested non-zero without holding a reference, and may drop "
             "to zero before " +
             Callee + "; use " + tryGetNameFor(CC.API->Family).str() +
             " and check its result",
         FD, Info && Info->Kind == PutStyleKind::Kcref ? Info : nullptr);
}

void registerGetOnZero(CheckerManager &Mgr) {
  Mgr.registerChecker<GetOnZeroChecker>();
}
