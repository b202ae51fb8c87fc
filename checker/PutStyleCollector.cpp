//===- PutStyleCollector.cpp - The puts of each counter in a TU -----------===//
//
// The walk behind the put-style pass (PutStyle.h): every function body in
// source order with a syntactic lock set (lock calls, lock wrappers such as
// device_links_write_lock(), lockdep_assert_held(), branches that leave),
// recording each put of each counter field with the locks held at it and
// what its release path does (PutStyleRelease.cpp). A final put with no lock
// in its own function still takes one when every call of that function in
// the TU holds it.
//
//===----------------------------------------------------------------------===//

#include "CounterKey.h"
#include "InternalRefs.h"
#include "LockModel.h"
#include "PutStyleImpl.h"
#include "RefcountAPI.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace krefcheck;
using namespace krefcheck::putstyle;

namespace {

/// What calling a function does to the syntactic lock set: lock wrappers
/// such as `device_links_write_lock() { mutex_lock(&device_links_lock); }`.
struct LockEffect {
  const ValueDecl *Acquires = nullptr;
  const ValueDecl *Releases = nullptr;
};

LockEffect
lockEffectOf(const FunctionDecl *FD,
             llvm::DenseMap<const FunctionDecl *, LockEffect> &Cache) {
  auto It = Cache.find(FD);
  if (It != Cache.end())
    return It->second;
  LockEffect E;
  Cache[FD] = E; // recursion guard
  const Stmt *Body = FD->getBody();
  if (!Body)
    return E;
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallVector<const ValueDecl *, 2> Acq, Rel;
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = calleeOf(CE);
      if (!Callee || !Callee->getIdentifier())
        return true;
      const LockAPI *L = lookupLockAPI(Callee->getName());
      if (!L || CE->getNumArgs() <= L->LockArg)
        return true;
      const ValueDecl *D = lockDeclFromExpr(CE->getArg(L->LockArg));
      if (!D)
        return true;
      if (L->Op == LockOp::Acquire)
        Acq.push_back(D);
      else if (L->Op == LockOp::Release)
        Rel.push_back(D);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ValueDecl *D : F.Acq)
    if (!llvm::is_contained(F.Rel, D))
      E.Acquires = D;
  for (const ValueDecl *D : F.Rel)
    if (!llvm::is_contained(F.Acq, D))
      E.Releases = D;
  Cache[FD] = E;
  return E;
}

/// A final put seen in a function body, with the locks held at it.
struct PutSite {
  const FieldDecl *Counter;
  const FunctionDecl *InFunction;
  const CallExpr *Call;
  const CountAPI *API;
  SmallVector<const ValueDecl *, 2> Locks;
  SourceLocation Removal;
  SourceLocation Free;
  SmallVector<const FieldDecl *, 2> RemovalMembers;
};

/// Walks every function body in source order, tracking a syntactic lock set
/// (including lock wrappers), and records each put of each counter field and
/// the locks held at every call of a function defined in the TU.
class StyleCollector : public RecursiveASTVisitor<StyleCollector> {
public:
  StyleCollector(PutStyleDB &DB, ASTContext &Ctx) : DB(DB), Ctx(Ctx) {}

  /// lockdep_assert_held(L): the function runs with L held.
  bool VisitCStyleCastExpr(CStyleCastExpr *CE) {
    if (const Expr *L =
            assertedHeldLock(CE, Ctx.getSourceManager(), Ctx.getLangOpts()))
      if (const ValueDecl *D = lockDeclFromExpr(L))
        if (!llvm::is_contained(Locks, D))
          applyLock(LockOp::Acquire, D);
    return true;
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    // The counting API's own bodies (kref_put is a refcount_dec_and_test on
    // the kref's insides) say nothing about any user counter.
    if (lookupCountAPI(FD->getName()))
      return true;
    Locks.clear();
    GotoLocks.clear();
    CurrentIf.clear();
    Current = FD;
    return RecursiveASTVisitor::TraverseFunctionDecl(FD);
  }

  /// Statements in source order; at a label, the locks held are those of
  /// the gotos that jump to it (and of the statement before, when control
  /// falls through): an error ladder after `mutex_unlock(&l); return 0;`
  /// runs with l held when every goto to it was under l.
  bool TraverseCompoundStmt(CompoundStmt *CS) {
    Compounds.push_back(CS);
    WalkUpFromCompoundStmt(CS);
    const Stmt *Prev = nullptr;
    for (Stmt *Child : CS->body()) {
      if (const auto *L = dyn_cast<LabelStmt>(Child)) {
        auto It = GotoLocks.find(L->getDecl());
        if (It != GotoLocks.end()) {
          if (Prev && leaves(Prev))
            Locks.assign(It->second.begin(), It->second.end());
          else
            llvm::erase_if(Locks, [&](const ValueDecl *D) {
              return !llvm::is_contained(It->second, D);
            });
        }
      }
      TraverseStmt(Child);
      Prev = Child;
    }
    Compounds.pop_back();
    return true;
  }

  bool VisitGotoStmt(GotoStmt *G) {
    auto [It, New] = GotoLocks.try_emplace(G->getLabel());
    if (New) {
      It->second.assign(Locks.begin(), Locks.end());
    } else {
      llvm::erase_if(It->second, [&](const ValueDecl *D) {
        return !llvm::is_contained(Locks, D);
      });
    }
    return true;
  }

  /// A branch that leaves (`mutex_unlock(&l); return -ENOENT;`) does not
  /// change the locks held after the if.
  bool TraverseIfStmt(IfStmt *If) {
    CurrentIf.push_back(If);
    if (If->getInit())
      TraverseStmt(If->getInit());
    if (If->getConditionVariableDeclStmt())
      TraverseStmt(If->getConditionVariableDeclStmt());
    TraverseStmt(If->getCond());
    for (Stmt *Branch : {If->getThen(), If->getElse()}) {
      if (!Branch)
        continue;
      SmallVector<const ValueDecl *, 4> Saved = Locks;
      TraverseStmt(Branch);
      if (leaves(Branch))
        Locks = Saved;
    }
    CurrentIf.pop_back();
    return true;
  }

  static bool leaves(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return !CS->body_empty() && leaves(CS->body_back());
    return isa<ReturnStmt, GotoStmt, BreakStmt, ContinueStmt>(S);
  }

  bool VisitCallExpr(CallExpr *CE) {
    // lockdep_assert_held(L) with CONFIG_LOCKDEP.
    if (const Expr *L =
            assertedHeldLockCall(CE, Ctx.getSourceManager(), Ctx.getLangOpts()))
      if (const ValueDecl *D = lockDeclFromExpr(L))
        if (!llvm::is_contained(Locks, D))
          applyLock(LockOp::Acquire, D);
    const FunctionDecl *FD = calleeOf(CE);
    if (!FD || !FD->getIdentifier())
      return true;
    StringRef Name = FD->getName();
    if (const LockAPI *L = lookupLockAPI(Name)) {
      if (CE->getNumArgs() > L->LockArg)
        applyLock(L->Op, lockDeclFromExpr(CE->getArg(L->LockArg)));
      return true;
    }
    const CountAPI *API = lookupCountAPI(Name);
    if (!API) {
      if (const FunctionDecl *Def = FD->getDefinition()) {
        LockEffect E = lockEffectOf(Def, EffectCache);
        applyLock(LockOp::Acquire, E.Acquires);
        applyLock(LockOp::Release, E.Releases);
        CallSites[Def->getCanonicalDecl()].push_back(
            {Current ? Current->getCanonicalDecl() : nullptr,
             LockList(Locks.begin(), Locks.end())});
      }
      return true;
    }
    if (CE->getNumArgs() <= API->CounterArg)
      return true;
    const FieldDecl *Counter =
        counterFieldFromExpr(CE->getArg(API->CounterArg));
    if (!Counter)
      return true;
    PutStyleInfo &Info = DB.Styles[Counter];
    switch (API->Op) {
    case CountOp::Put:
      if (Info.PlainDec.isInvalid())
        Info.PlainDec = CE->getBeginLoc();
      break;
    case CountOp::PutTest:
    case CountOp::PutLock: {
      SmallVector<const Stmt *, 4> Release = releasePath(CE, *API);
      PutSite Site{Counter,          Current,         CE, API, {},
                   SourceLocation(), SourceLocation()};
      for (const Stmt *R : Release) {
        IndexRemovals Removals = findIndexRemovals(R);
        if (Site.Removal.isInvalid())
          Site.Removal = Removals.First;
        Site.RemovalMembers.append(Removals.Members.begin(),
                                   Removals.Members.end());
        if (Site.Free.isInvalid()) {
          // A kref release callback frees what its kref argument names.
          Site.Free = findFree(R, API->ReleaseArg
                                      ? nullptr
                                      : ownerOf(CE->getArg(API->CounterArg)));
        }
      }
      if (API->Op == CountOp::PutLock) {
        if (API->LockArg && CE->getNumArgs() > *API->LockArg)
          if (const ValueDecl *D = lockDeclFromExpr(CE->getArg(*API->LockArg)))
            Site.Locks.push_back(D);
      } else {
        Site.Locks.assign(Locks.begin(), Locks.end());
      }
      Sites.push_back(std::move(Site));
      break;
    }
    default:
      break;
    }
    return true;
  }

  /// Turns the recorded puts into styles. A decrement-and-test with no lock
  /// in its own function still takes one when every call of that function in
  /// the TU holds that lock, directly or further up (`device_link_del()`
  /// locks, then calls the helper that does kref_put).
  void resolve() {
    for (PutSite &S : Sites) {
      PutStyleInfo &Info = DB.Styles[S.Counter];
      if (S.Locks.empty() && S.InFunction) {
        llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
        S.Locks = locksAroundCalls(S.InFunction->getCanonicalDecl(), 3, Seen);
      }
      if (S.Locks.empty()) {
        if (Info.BarePut.isInvalid())
          Info.BarePut = S.Call->getBeginLoc();
      } else {
        if (Info.LockedPut.isInvalid())
          Info.LockedPut = S.Call->getBeginLoc();
        for (const ValueDecl *D : S.Locks)
          if (!llvm::is_contained(Info.PutLocks, D))
            Info.PutLocks.push_back(D);
      }
      if (Info.IndexRemovalInRelease.isInvalid())
        Info.IndexRemovalInRelease = S.Removal;
      for (const FieldDecl *M : S.RemovalMembers)
        if (!llvm::is_contained(Info.IndexRemovalMembers, M))
          Info.IndexRemovalMembers.push_back(M);
      if (Info.FreeOnZero.isInvalid())
        Info.FreeOnZero = S.Free;
    }
  }

private:
  void applyLock(LockOp Op, const ValueDecl *D) {
    if (!D)
      return;
    if (Op == LockOp::Acquire) {
      Locks.push_back(D);
    } else if (Op == LockOp::Release) {
      auto It = std::find(Locks.rbegin(), Locks.rend(), D);
      if (It != Locks.rend())
        Locks.erase(std::next(It).base());
    }
  }

  /// What runs when the count hits zero: the kref release callback's body,
  /// the then-branch of `if (x_dec_and_test(...))`, or for
  /// `if (!x_dec_and_test(...)) return;` the statements after the if.
  SmallVector<const Stmt *, 4> releasePath(const CallExpr *CE,
                                           const CountAPI &API) {
    SmallVector<const Stmt *, 4> Out;
    if (API.ReleaseArg && CE->getNumArgs() > *API.ReleaseArg) {
      const Expr *Rel = CE->getArg(*API.ReleaseArg)->IgnoreParenCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Rel))
        if (const auto *RelFD = dyn_cast<FunctionDecl>(DRE->getDecl()))
          if (const FunctionDecl *Def = RelFD->getDefinition())
            Out.push_back(Def->getBody());
      return Out;
    }
    if (CurrentIf.empty())
      return Out;
    const IfStmt *If = CurrentIf.back();
    const Expr *Cond = If->getCond();
    if (!Cond || !Cond->getSourceRange().fullyContains(CE->getSourceRange()))
      return Out;
    const auto *Not = dyn_cast<UnaryOperator>(Cond->IgnoreParenImpCasts());
    if (!Not || Not->getOpcode() != UO_LNot) {
      Out.push_back(If->getThen());
      return Out;
    }
    // `if (!dec_and_test) return;`: the release follows the if.
    if (Compounds.empty())
      return Out;
    bool After = false;
    for (const Stmt *S : Compounds.back()->body()) {
      if (After)
        Out.push_back(S);
      if (S == If)
        After = true;
    }
    return Out;
  }

  PutStyleDB &DB;
  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
  SmallVector<const ValueDecl *, 4> Locks;
  /// The locks held at every goto to a label seen so far in the function.
  llvm::DenseMap<const LabelDecl *, SmallVector<const ValueDecl *, 4>>
      GotoLocks;
  SmallVector<const IfStmt *, 4> CurrentIf;
  SmallVector<const CompoundStmt *, 8> Compounds;
  SmallVector<PutSite, 32> Sites;
  llvm::DenseMap<const FunctionDecl *, LockEffect> EffectCache;
  using LockList = SmallVector<const ValueDecl *, 2>;
  struct CallSite {
    const FunctionDecl *Caller;
    LockList Locks;
  };
  /// Every call of each function defined in the TU, with the locks held.
  llvm::DenseMap<const FunctionDecl *, SmallVector<CallSite, 4>> CallSites;

  /// The locks held around every call of F, looking Depth callers up; empty
  /// when some call holds none (or F is not called in the TU).
  LockList locksAroundCalls(const FunctionDecl *F, unsigned Depth,
                            llvm::SmallPtrSet<const FunctionDecl *, 8> &Seen) {
    auto It = CallSites.find(F);
    if (It == CallSites.end() || It->second.empty() || !Seen.insert(F).second)
      return {};
    // Seen holds the current call chain only (recursion guard). (Not
    // llvm::make_scope_exit: deprecated in LLVM 22, absent as a class in 19.)
    struct LeaveChain {
      llvm::SmallPtrSet<const FunctionDecl *, 8> &Seen;
      const FunctionDecl *F;
      ~LeaveChain() { Seen.erase(F); }
    } Leave{Seen, F};
    std::optional<LockList> Common;
    for (const CallSite &Site : It->second) {
      LockList Held = Site.Locks;
      if (Held.empty()) {
        if (Depth == 0 || !Site.Caller)
          return {};
        Held = locksAroundCalls(Site.Caller, Depth - 1, Seen);
        if (Held.empty())
          return {};
      }
      if (!Common) {
        Common = Held;
        continue;
      }
      LockList Both;
      for (const ValueDecl *D : *Common)
        if (llvm::is_contained(Held, D))
          Both.push_back(D);
      if (Both.empty())
        return {};
      Common = Both;
    }
    return Common ? *Common : LockList();
  }
};
} // namespace

void putstyle::collectPuts(PutStyleDB &DB, ASTContext &Ctx) {
  StyleCollector Collector(DB, Ctx);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  Collector.resolve();
}
