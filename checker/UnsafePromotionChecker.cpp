//===- UnsafePromotionChecker.cpp - refcount.UnsafePromotion --------------===//
//
// An internal reference (an object found through its subsystem's index: a
// list, hash list, rb-tree, IDR, XArray, rhashtable or an RCU pointer) holds
// no count. Turning it into an external reference is only safe when nothing
// can be dropping the last count at the same moment:
//   kref style  (final put is a bare decrement-and-test): only a test-for-zero
//               get (kref_get_unless_zero, *_inc_not_zero) whose result is
//               checked. A plain get is reported when the release path takes
//               the object off the index (so the index holds no count and an
//               entry can sit at zero waiting for the remover), or when the
//               lookup runs under RCU alone.
//   kcref style (every final put takes lock L as the count hits zero): a
//               plain get while holding L. Reported without L, under another
//               lock, or under RCU alone.
//   plain style, unknown style: no report.
// Also reported: a test-for-zero get whose result is ignored.
//
//   internal ref --plain get--> [style?] --kref, uncounted index--> report
//                                  |-----kcref, L held----------> fine
//                                  `-----kcref, L not held------> report
//
//===----------------------------------------------------------------------===//

#include "CountState.h"
#include "CounterKey.h"
#include "LockModel.h"
#include "PutStyle.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {
class UnsafePromotionChecker : public Checker<check::PreCall> {
  const BugType PromotionBug{this, "Unsafe promotion of an internal reference",
                             RefcountCategory};
  const BugType IgnoredBug{this, "Result of a test-for-zero get ignored",
                           RefcountCategory};

public:
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;

private:
  void checkIgnoredResult(const CallEvent &Call, CheckerContext &C) const;
  void checkPromotion(const CountCall &CC, const CallEvent &Call,
                      CheckerContext &C) const;
};

/// Is the value of E thrown away (statement position or a cast to void)?
bool resultIgnored(const Expr *E, const ParentMap &PM) {
  const Stmt *Child = E;
  const Stmt *P = PM.getParent(Child);
  while (P &&
         (isa<ParenExpr>(P) ||
          (isa<CastExpr>(P) && !cast<CastExpr>(P)->getType()->isVoidType() &&
           isa<ImplicitCastExpr>(P)))) {
    Child = P;
    P = PM.getParent(P);
  }
  if (!P)
    return true;
  if (const auto *CE = dyn_cast<CastExpr>(P))
    return CE->getType()->isVoidType();
  if (isa<CompoundStmt>(P) || isa<LabelStmt>(P) || isa<CaseStmt>(P) ||
      isa<DefaultStmt>(P))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() != Child;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return W->getCond() != Child;
  if (const auto *F = dyn_cast<ForStmt>(P))
    return F->getCond() != Child;
  if (const auto *D = dyn_cast<DoStmt>(P))
    return D->getCond() != Child;
  return false;
}

} // namespace

void UnsafePromotionChecker::checkPreCall(const CallEvent &Call,
                                          CheckerContext &C) const {
  CountCall CC = decodeCountCall(Call);
  if (!CC)
    return;
  if (CC.API->Op == CountOp::TryGet)
    checkIgnoredResult(Call, C);
  else if (CC.API->Op == CountOp::Get && CC.Counter)
    checkPromotion(CC, Call, C);
}

void UnsafePromotionChecker::checkIgnoredResult(const CallEvent &Call,
                                                CheckerContext &C) const {
  const Expr *E = Call.getOriginExpr();
  if (!E || !resultIgnored(E, C.getLocationContext()->getParentMap()))
    return;
  ExplodedNode *N = C.generateNonFatalErrorNode();
  if (!N)
    return;
  std::string Callee = Call.getCalleeIdentifier()->getName().str() + "()";
  auto R = std::make_unique<PathSensitiveBugReport>(
      IgnoredBug,
      "The result of " + Callee +
          " is ignored: when it fails the object is being freed and no "
          "reference was taken",
      N);
  R->addRange(Call.getSourceRange());
  emitReport(C, std::move(R));
}

void UnsafePromotionChecker::checkPromotion(const CountCall &CC,
                                            const CallEvent &Call,
                                            CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  const MemRegion *Ctr = CC.Counter;
  SymbolRef Obj = ownerSymbol(Ctr);
  std::optional<InternalOrigin> Origin = getInternalOrigin(State, Obj);
  if (!Origin)
    return;
  // A reference this path already holds makes the get an ordinary one.
  if (const CountState *CS = getCountState(State, Ctr))
    if (CS->isHeld())
      return;
  const FieldDecl *FD = counterField(Ctr);
  if (!FD)
    return;
  const PutStyleInfo *Info = PutStyleDB::get(C.getASTContext()).lookup(FD);
  if (!Info)
    return;

  SmallVector<const MemRegion *, 4> Locks = heldLocks(State);
  bool Rcu = inRcuReadSection(State);
  std::string Callee = Call.getCalleeIdentifier()->getName().str() + "()";
  std::string Field = describeField(FD);
  std::string From = describeOrigin(*Origin).str();
  std::string Msg;
  bool NoteRemoval = false;

  if (Info->Kind == PutStyleKind::Kcref) {
    for (const MemRegion *L : Locks)
      if (llvm::is_contained(Info->PutLocks, lockDecl(L)))
        return;
    const ValueDecl *PutLockDecl =
        Info->PutLocks.empty() ? nullptr : Info->PutLocks.front();
    std::string PutLock = describeLock(PutLockDecl);
    std::string Held;
    if (!Locks.empty()) {
      Held = "while holding " + describeLock(lockDecl(Locks.back())) +
             " but not " + PutLock;
    } else if (Rcu) {
      Held = "under rcu_read_lock() only, without " + PutLock;
    } else {
      // With no lock at all, the caller usually holds one we cannot see
      // (RTNL around fib_create_info()). Report only when this path itself
      // let go of the put's lock before the get.
      bool Released =
          llvm::any_of(releasedLocks(State), [&](const MemRegion *L) {
            return llvm::is_contained(Info->PutLocks, lockDecl(L));
          });
      if (!Released)
        return;
      Held = "after releasing " + PutLock;
    }
    Msg = "Plain " + Callee + " promotes an internal reference from " + From +
          " " + Held + ", the lock the final put of '" + Field +
          "' takes (kcref style): the count may already be zero";
  } else if (Info->Kind == PutStyleKind::Kref) {
    bool RcuOnly = Locks.empty() && Rcu;
    NoteRemoval = Info->IndexRemovalInRelease.isValid();
    // Without a release that takes the object off the index, the index may
    // hold a count of its own (taken at insert, dropped after removal; under
    // RCU often dropped after a grace period): then the get is safe. A kref
    // style declared in the model or by an annotation says the object dies
    // with its last external reference: the index holds none.
    if (!NoteRemoval && !Info->Configured)
      return;
    // Found, under a lock, walking another list than the one the release
    // empties (`conn->chan_l` through `list` under `chan_lock`; the release
    // takes `global_l`): the object must leave that list, under the lock its
    // walks hold, before its last count is dropped, or the list would point
    // to freed memory, so a walk that finds it finds it alive (rule
    // other-list-walk). Not under RCU alone: removal and final put may then
    // run while the walk is on the object.
    if (const FieldDecl *Walked = internalMember(State, Obj))
      if (!Locks.empty() && !Info->IndexRemovalMembers.empty() &&
          !llvm::is_contained(Info->IndexRemovalMembers, Walked) &&
          applyRule(RuleId::OtherListWalk))
        return;
    Msg = "Plain " + Callee + " on an internal reference from " + From +
          (RcuOnly ? " under rcu_read_lock() only" : "") +
          ": the final put of '" + Field +
          "' is a bare decrement-and-test (kref style" +
          (NoteRemoval ? ") and its release takes the object off the index, "
                       : ", as configured), ") +
          "so the count may already be zero; use " +
          tryGetNameFor(CC.API->Family).str() + " and check its result";
  } else {
    return;
  }

  ExplodedNode *N = C.generateNonFatalErrorNode();
  if (!N)
    return;
  auto R = std::make_unique<PathSensitiveBugReport>(PromotionBug, Msg, N);
  R->addRange(Call.getSourceRange());
  R->markInteresting(Ctr);
  R->markInteresting(Obj);
  addStyleNote(*R, FD, *Info, C.getSourceManager());
  if (NoteRemoval)
    R->addNote("The release of '" + Field +
                   "' takes the object off its index here, after the count "
                   "reached zero",
               PathDiagnosticLocation(Info->IndexRemovalInRelease,
                                      C.getSourceManager()));
  emitReport(C, std::move(R));
}

void registerUnsafePromotion(CheckerManager &Mgr) {
  Mgr.registerChecker<UnsafePromotionChecker>();
}
