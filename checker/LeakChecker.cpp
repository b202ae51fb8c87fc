//===- LeakChecker.cpp - refcount.Leak ------------------------------------===//
//
// A counted reference acquired on a path must be released (put), returned,
// stored into memory that outlives the function, or handed to an API that
// takes it over before the path ends; otherwise the object can never be
// freed. refcount.LifetimeModel decides when a reference is lost and calls
// reportLeak():
//
//   +1 result (of_find_*, of_get_*, of_parse_phandle, bus/class_find_device,
//   device_find_child, pci_get_device, the node an iterator loop was left
//   with)                     -- pointer dies while Owned --> report (any path)
//   get on a pointer the function was given (get_device, of_node_get,
//   pm_runtime_get_sync, dev_hold, kref_get)
//                             -- still Owned when the function returns an
//                                error (negative errno, NULL, ERR_PTR)
//                                                       --> report
//   acquire failed (NULL / IS_ERR() / negative result per the table),
//   Escaped, Released         --> nothing
//
// A get on a borrowed pointer on a success path is usually paired with a put
// elsewhere (probe/remove, open/release), so it is only reported where the
// kernel's undo-on-error contract is broken. Reports are uniqued at the
// acquire site and dropped on paths that end in panic()/BUG(), and on paths
// where the get was guarded by `if (C)` and the put skipped under the same
// condition C tested false later (CorrelatedGuard below).
//
//===----------------------------------------------------------------------===//

#include "AssertionPaths.h"
#include "Contracts.h"
#include "LifetimeModel.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporterVisitors.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {
/// `if (client->flags & F) pm_runtime_get_sync(d); ... calls ...;
///  if (client->flags & F) pm_runtime_put_sync(d);`: the analyzer forgets
/// the first test when a call invalidates `*client`, and then takes the
/// second test's false branch, skipping the put. A path that took the false
/// branch of a condition that guarded the get (the same expression, in the
/// same frame) is such an infeasible path: the memory it reads would have
/// had to change in between. The guard may enclose the call that took the
/// count (`if (dev->devt) cdev_add(...)`, the get inside cdev_add()), and
/// either test may be one operand of `&&` (`if (rc && dev->devt)
/// cdev_del(...)` in cdev_device_add()): each operand of a guard held when
/// the get ran, and the false branch of a test's last operand says that
/// operand was false. Only conditions that read memory (a field, a
/// dereference, an array element) count: a local variable the path
/// assigned again is known, not forgotten.
class CorrelatedGuard final : public BugReporterVisitor {
  const Stmt *AcquireSite;
  llvm::SmallVector<std::pair<const Expr *, const StackFrameContext *>, 4>
      FalseTaken;
  bool Done = false;

  /// The operands of a chain of `&&`, or E itself.
  static void conjuncts(const Expr *E,
                        llvm::SmallVectorImpl<const Expr *> &Out) {
    E = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      if (BO->getOpcode() == BO_LAnd) {
        conjuncts(BO->getLHS(), Out);
        conjuncts(BO->getRHS(), Out);
        return;
      }
    Out.push_back(E);
  }

  /// The operand a branch's false edge says is false: the last operand of a
  /// `&&` or `||` chain (the block that branches evaluated it last).
  static const Expr *lastOperand(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isLogicalOp())
        break;
      E = BO->getRHS()->IgnoreParenImpCasts();
    }
    return E;
  }

  static bool readsMemory(const Stmt *S) {
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (ME->isArrow())
        return true;
    if (isa<ArraySubscriptExpr>(S))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_Deref)
        return true;
    for (const Stmt *Child : S->children())
      if (Child && readsMemory(Child))
        return true;
    return false;
  }

  /// The conditions of the `if`s whose then-branch holds S, in S's frame
  /// and, through the call sites, in the frames that called it.
  static void guardsOf(
      const Stmt *S, const LocationContext *LC,
      llvm::SmallVectorImpl<std::pair<const Expr *, const StackFrameContext *>>
          &Out) {
    for (; S && LC; LC = LC->getParent()) {
      const StackFrameContext *SF = LC->getStackFrame();
      const ParentMap &PM = SF->getParentMap();
      const Stmt *Child = S;
      for (const Stmt *P = PM.getParent(S); P; Child = P, P = PM.getParent(P))
        if (const auto *If = dyn_cast<IfStmt>(P))
          if (If->getThen() == Child) {
            llvm::SmallVector<const Expr *, 4> Ops;
            conjuncts(If->getCond(), Ops);
            for (const Expr *Op : Ops)
              Out.push_back({Op, SF});
          }
      S = SF->getCallSite();
      LC = SF;
    }
  }

  static bool sameExpr(const Stmt *A, const Stmt *B, ASTContext &Ctx) {
    llvm::FoldingSetNodeID IA, IB;
    cast<Expr>(A)->IgnoreParenImpCasts()->Profile(IA, Ctx, true);
    cast<Expr>(B)->IgnoreParenImpCasts()->Profile(IB, Ctx, true);
    return IA == IB;
  }

public:
  explicit CorrelatedGuard(const Stmt *Site) : AcquireSite(Site) {}

  void Profile(llvm::FoldingSetNodeID &ID) const override {
    static int Tag;
    ID.AddPointer(&Tag);
    ID.AddPointer(AcquireSite);
  }

  PathDiagnosticPieceRef VisitNode(const ExplodedNode *N,
                                   BugReporterContext &BRC,
                                   PathSensitiveBugReport &BR) override {
    if (Done)
      return nullptr;
    ProgramPoint PP = N->getLocation();
    if (auto BE = PP.getAs<BlockEdge>()) {
      // Nodes come from the end of the path backwards: these branches come
      // after the acquire.
      const CFGBlock *Src = BE->getSrc();
      const Stmt *Cond = Src->getTerminatorCondition();
      if (Cond && isa<Expr>(Cond) && Src->succ_size() == 2 &&
          static_cast<const CFGBlock *>(*(Src->succ_begin() + 1)) ==
              BE->getDst())
        FalseTaken.push_back({lastOperand(cast<Expr>(Cond)),
                              N->getLocationContext()->getStackFrame()});
      return nullptr;
    }
    auto SP = PP.getAs<StmtPoint>();
    if (!SP || SP->getStmt() != AcquireSite)
      return nullptr;
    Done = true;
    llvm::SmallVector<std::pair<const Expr *, const StackFrameContext *>, 4>
        Guards;
    guardsOf(AcquireSite, N->getLocationContext(), Guards);
    for (const auto &[Guard, GuardSF] : Guards) {
      if (!readsMemory(Guard))
        continue;
      for (const auto &[Cond, CondSF] : FalseTaken)
        if (CondSF == GuardSF && sameExpr(Guard, Cond, BRC.getASTContext())) {
          applyRule(RuleId::CorrelatedGuard);
          BR.markInvalid(&AcquireSite, nullptr);
          return nullptr;
        }
    }
    return nullptr;
  }
};

/// A function of this TU the leaked reference was given to, inlined on the
/// path: its notes are kept, so that a leak whose put or hand-over the
/// callee skipped on its own early return shows that return
/// (`omapdss_walk_device(dev, pn, false)` returning at `if (ret < 0)`
/// before it stores `pn` into its list; issue 21's "no note inside the
/// callee"). Without it the analyzer prunes a call in which nothing
/// happened to the reference itself.
class GivenToCallee final : public BugReporterVisitor {
  const MemRegion *Base;

  static bool hasEarlyReturn(const Stmt *S, bool Conditional) {
    if (isa<ReturnStmt>(S))
      return Conditional;
    bool Branch = isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt>(S);
    for (const Stmt *Child : S->children())
      if (Child && hasEarlyReturn(Child, Conditional || Branch))
        return true;
    return false;
  }

public:
  explicit GivenToCallee(const MemRegion *B) : Base(B) {}

  void Profile(llvm::FoldingSetNodeID &ID) const override {
    static int Tag;
    ID.AddPointer(&Tag);
    ID.AddPointer(Base);
  }

  PathDiagnosticPieceRef VisitNode(const ExplodedNode *N, BugReporterContext &,
                                   PathSensitiveBugReport &BR) override {
    auto Enter = N->getLocation().getAs<CallEnter>();
    if (!Enter)
      return nullptr;
    const auto *Call = dyn_cast_or_null<CallExpr>(Enter->getCallExpr());
    const auto *FD =
        dyn_cast_or_null<FunctionDecl>(Enter->getCalleeContext()->getDecl());
    // A call with a contract or a role says what it does with the
    // reference; a body with no early return has no path of its own that
    // skips what it does with it.
    if (!Call || !FD || !FD->hasBody() || contractFor(FD).API ||
        contractFor(FD).Role != CallRole::None ||
        !hasEarlyReturn(FD->getBody(), false))
      return nullptr;
    ProgramStateRef State = N->getState();
    for (const Expr *Arg : Call->arguments()) {
      const MemRegion *R =
          State->getSVal(Arg, N->getLocationContext()).getAsRegion();
      if (R && R->getBaseRegion() == Base) {
        BR.markInteresting(Enter->getCalleeContext());
        break;
      }
    }
    return nullptr;
  }
};

class LeakChecker : public Checker<check::EndAnalysis>, public LeakReporter {
  const BugType Bug{this, "Reference leak", RefcountCategory,
                    /*SuppressOnSink=*/true};

public:
  void checkEndAnalysis(ExplodedGraph &, BugReporter &, ExprEngine &) const {}
  void reportLeaks(CheckerContext &C, ExplodedNode *N,
                   ArrayRef<std::pair<RefKey, RefEntry>> Leaks) const override;
  void reportFreedNotPut(CheckerContext &C, ExplodedNode *N, const RefKey &K,
                         const RefEntry &E,
                         const CallEvent &Free) const override;
  void reportLeak(CheckerContext &C, ExplodedNode *N, const RefKey &K,
                  const RefEntry &E) const;
};
/// The iterator loop (a `for` whose step calls an acquire-next API) whose
/// first or next call is Site, with the step's API; null when Site is not
/// one.
std::pair<const ForStmt *, const LifetimeAPI *>
iteratorLoopOf(const Stmt *Site, CheckerContext &C) {
  for (const LocationContext *LC = C.getLocationContext(); LC;
       LC = LC->getParent()) {
    const ParentMap &PM = LC->getParentMap();
    if (!PM.hasParent(Site))
      continue;
    const Stmt *Child = Site;
    for (const Stmt *P = PM.getParent(Site); P;
         Child = P, P = PM.getParent(P)) {
      const auto *F = dyn_cast<ForStmt>(P);
      if (!F)
        continue;
      if (Child != F->getInit() && Child != F->getInc() &&
          Child != F->getCond())
        return {nullptr, nullptr};
      const Expr *Inc = F->getInc();
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(
              Inc ? Inc->IgnoreParenImpCasts() : nullptr))
        Inc = BO->getRHS();
      const auto *CE =
          dyn_cast_or_null<CallExpr>(Inc ? Inc->IgnoreParenCasts() : nullptr);
      const LifetimeAPI *API =
          CE ? contractFor(CE->getDirectCallee()).API : nullptr;
      if (API && API->Op == LifeOp::ConsumeAcquire)
        return {F, API};
      return {nullptr, nullptr};
    }
    return {nullptr, nullptr};
  }
  return {nullptr, nullptr};
}

/// Is the path at the step or the test of loop F (the leak found as the
/// step overwrote the pointer), rather than past the loop? The test of the
/// first round cannot find a leak: nothing was stepped over yet.
bool atLoopStep(const ForStmt *F, CheckerContext &C) {
  const Stmt *S = nullptr;
  for (const ExplodedNode *N = C.getPredecessor(); N && !S && N->pred_size();
       N = *N->pred_begin())
    if (auto SP = N->getLocation().getAs<StmtPoint>())
      S = SP->getStmt();
  if (!S)
    return false;
  const SourceManager &SM = C.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
  auto Within = [&](const Stmt *Part) {
    if (!Part)
      return false;
    SourceLocation B = SM.getExpansionLoc(Part->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Part->getEndLoc());
    return !SM.isBeforeInTranslationUnit(L, B) &&
           !SM.isBeforeInTranslationUnit(E, L);
  };
  return Within(F->getInc()) || Within(F->getCond());
}
} // namespace

/// Of two counts the path created on one object (an `atomic_t` use count
/// and a `struct kref` set up together, alloc_drm_dp_aux_dev()), is A the
/// one to report? The object leaks once: the count of a `tracked: true`
/// row is named before an atomic one, then the first set.
static bool reportedBefore(const RefEntry &A, const RefEntry &B,
                           const SourceManager &SM) {
  if (A.Acquirer->CreatedOnly != B.Acquirer->CreatedOnly)
    return B.Acquirer->CreatedOnly;
  return SM.isBeforeInTranslationUnit(A.AcquireSite->getBeginLoc(),
                                      B.AcquireSite->getBeginLoc());
}

void LeakChecker::reportLeaks(
    CheckerContext &C, ExplodedNode *N,
    ArrayRef<std::pair<RefKey, RefEntry>> Leaks) const {
  auto Created = [](const RefEntry &E) {
    return E.Acquirer && E.AcquireSite && E.Acquirer->InitsFresh;
  };
  const SourceManager &SM = C.getSourceManager();
  for (const auto &KV : Leaks) {
    const MemRegion *Object = KV.first.Region->getBaseRegion();
    if (Created(KV.second) && llvm::any_of(Leaks, [&](const auto &O) {
          return &O != &KV && Created(O.second) &&
                 O.first.Region->getBaseRegion() == Object &&
                 reportedBefore(O.second, KV.second, SM);
        }))
      continue;
    reportLeak(C, N, KV.first, KV.second);
  }
}

void LeakChecker::reportLeak(CheckerContext &C, ExplodedNode *N,
                             const RefKey &K, const RefEntry &E) const {
  if (!E.Acquirer || !E.AcquireSite)
    return;
  // The path kept a count no one else could hold (rule created-last-put).
  if (createdCountKept(C.getState()) && applyRule(RuleId::CreatedLastPut))
    return;
  const LifetimeAPI &A = *E.Acquirer;
  std::string Callee = A.Name.str() + "()";
  std::string Name = describeRef(K, E);
  std::string Put = matchingPut(A);
  std::string Msg;
  const SourceManager &SM = C.getSourceManager();
  // Both calls of an iterator macro (for_each_acpi_dev_match: first, then
  // next) are the loop's.
  auto [Loop, LoopAPI] =
      E.AcquireSite->getBeginLoc().isMacroID()
          ? iteratorLoopOf(E.AcquireSite, C)
          : std::pair<const ForStmt *, const LifetimeAPI *>{};
  bool InIterator = (A.Op == LifeOp::ConsumeAcquire &&
                     E.AcquireSite->getBeginLoc().isMacroID()) ||
                    LoopAPI;
  if (LoopAPI)
    Callee = LoopAPI->Name.str() + "()";

  if (A.Fam == Family::PmRuntime) {
    Msg = "The runtime-PM usage count of " + Name + " taken by " + Callee +
          " is not dropped on this error path (missing " + Put + ")";
    if (!A.Advice.empty())
      Msg += "; " + A.Advice.str();
  } else if (InIterator && Loop && atLoopStep(Loop, C)) {
    // The step put the loop's own count: another one taken in the body
    // is what is left.
    Msg = "Reference to " + Name + " in the loop over " + Callee +
          " leaks: the loop moves to the next one while this path still "
          "holds a count on it taken in the loop body (missing " +
          Put + ")";
  } else if (InIterator) {
    Msg = "Reference to " + Name + " held by the loop over " + Callee +
          " leaks: the loop is left without " + Put;
  } else if (E.Registered) {
    // Rule registered-until-success.
    std::string Undo = A.Undo.empty() ? Put : A.Undo.str();
    Msg = Name + " was registered by " + Callee +
          ", and this path returns an error without undoing the "
          "registration (missing " +
          Undo + ")";
  } else if (isGivenRegistered(K.Region, E)) {
    // Rule given-object-registered: the memory is the caller's or global.
    Msg = "The first reference " + Callee + " set up on " + Name +
          ", an object this function did not allocate, is not put on this "
          "path (missing " +
          Put + ")";
  } else if (A.InitsFresh) {
    Msg = "The new object " + Name + ", whose count " + Callee +
          " set to one, is neither put nor freed on this path (missing " + Put +
          ")";
  } else if (isNewReference(A)) {
    Msg = "Reference to " + Name + " acquired by " + Callee +
          " is not released on this path (missing " + Put + ")";
  } else {
    Msg = "Reference to " + Name + " taken by " + Callee +
          " is not released on this error path (missing " + Put + ")";
  }
  // One report per acquire site: both calls of an iterator macro (first and
  // next) unique at the loop.
  PathDiagnosticLocation Unique(
      SM.getExpansionLoc(E.AcquireSite->getBeginLoc()), SM);
  auto R = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N, Unique,
                                                    topLevelDecl(C));
  markRefInteresting(*R, K);
  R->addVisitor<GivenToCallee>(K.Region->getBaseRegion());
  if (ruleEnabled(RuleId::CorrelatedGuard))
    R->addVisitor<CorrelatedGuard>(E.AcquireSite);
  dropOnAssertionPaths(*R);
  emitReport(C, std::move(R));
}

void LeakChecker::reportFreedNotPut(CheckerContext &C, ExplodedNode *N,
                                    const RefKey &K, const RefEntry &E,
                                    const CallEvent &Free) const {
  const LifetimeAPI &A = *E.Acquirer;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Free.getDecl());
  std::string Freer = FD && FD->getIdentifier() ? FD->getName().str() + "()"
                                                : std::string("the free");
  std::string Msg = "The new object " + describeRef(K, E) + ", whose count " +
                    A.Name.str() + "() set to one, is freed by " + Freer +
                    " instead of put: only " + matchingPut(A) +
                    " runs its release, which frees what the object owns "
                    "(its name)";
  const SourceManager &SM = C.getSourceManager();
  PathDiagnosticLocation Unique(
      SM.getExpansionLoc(E.AcquireSite->getBeginLoc()), SM);
  auto R = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N, Unique,
                                                    topLevelDecl(C));
  R->addRange(Free.getSourceRange());
  markRefInteresting(*R, K);
  dropOnAssertionPaths(*R);
  emitReport(C, std::move(R));
}

void registerLeak(CheckerManager &Mgr) {
  const auto *L = Mgr.registerChecker<LeakChecker>();
  attachLeakReporter(Mgr, L);
}
