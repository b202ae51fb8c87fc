//===- PutStyle.cpp - The put style of each counter in a TU ---------------===//

#include "PutStyle.h"
#include "CounterKey.h"
#include "InternalRefs.h"
#include "LockModel.h"
#include "ModelFile.h"
#include "RefcountAPI.h"
#include "TUCache.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace krefcheck;

namespace {

/// APIs that take an object off a lookup index (`kind: removal` rows of the
/// model's `indexes:`).
bool isIndexRemoval(StringRef Name) {
  const IndexAPI *API = activeModel().indexAPI(Name);
  return API && API->Removal;
}

const FunctionDecl *calleeOf(const CallExpr *CE) {
  return CE ? CE->getDirectCallee() : nullptr;
}

/// Calls that free or release an object (the model's `calls: frees`).
bool isFreeLike(StringRef N) { return activeModel().Calls.Frees.contains(N); }

/// The variable that holds the counter's object: `c` in `&c->refcnt`.
const ValueDecl *ownerOf(const Expr *CounterArg) {
  const Expr *E = stripAddrOf(CounterArg);
  while (const auto *ME = dyn_cast<MemberExpr>(E))
    E = ME->getBase()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  return nullptr;
}

bool mentions(const Stmt *S, const ValueDecl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() == D)
      return true;
  for (const Stmt *Child : S->children())
    if (mentions(Child, D))
      return true;
  return false;
}

/// Does the statement free or release the counter's object: a free-like call
/// (`kfree(c)`, `call_rcu(&c->rcu, ...)`, `conn_free(c)`) or a release
/// callback (`c->ops->release(c)`) taking the owner? Without a known owner,
/// any free-like call counts.
class FreeFinder : public RecursiveASTVisitor<FreeFinder> {
public:
  FreeFinder(const ValueDecl *Owner, unsigned Depth = 1)
      : Owner(Owner), Depth(Depth) {}
  SourceLocation Found;
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = calleeOf(CE);
    auto Takes = [&](const Expr *A) { return !Owner || mentions(A, Owner); };
    bool FreeLike = !FD || (FD->getIdentifier() && isFreeLike(FD->getName()));
    if (FreeLike && llvm::any_of(CE->arguments(), Takes)) {
      Found = CE->getBeginLoc();
      return false;
    }
    // One call away: `item_teardown(it)` whose body does `kfree(param)`.
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Owner || Depth == 0 || !Def || !Def->hasBody())
      return true;
    for (unsigned I = 0, N = std::min(CE->getNumArgs(), Def->getNumParams());
         I < N; ++I) {
      if (!mentions(CE->getArg(I), Owner))
        continue;
      FreeFinder Inner(Def->getParamDecl(I), Depth - 1);
      Inner.TraverseStmt(Def->getBody());
      if (Inner.Found.isValid()) {
        Found = CE->getBeginLoc();
        return false;
      }
    }
    return true;
  }

private:
  const ValueDecl *Owner;
  unsigned Depth;
};

/// Does this statement (or a function it calls directly, one level) take an
/// object off an index? Returns the location of the removal.
class IndexRemovalFinder : public RecursiveASTVisitor<IndexRemovalFinder> {
public:
  explicit IndexRemovalFinder(unsigned Depth) : Depth(Depth) {}
  SourceLocation Found;
  bool VisitCallExpr(CallExpr *CE) {
    if (Found.isValid())
      return false;
    const FunctionDecl *FD = calleeOf(CE);
    if (!FD || !FD->getIdentifier())
      return true;
    if (isIndexRemoval(FD->getName())) {
      Found = CE->getBeginLoc();
      return false;
    }
    if (Depth > 0 && FD->hasBody() && !lookupCountAPI(FD->getName())) {
      IndexRemovalFinder Inner(Depth - 1);
      Inner.TraverseStmt(FD->getBody());
      if (Inner.Found.isValid())
        Found = CE->getBeginLoc();
    }
    return Found.isInvalid();
  }

private:
  unsigned Depth;
};

SourceLocation findIndexRemoval(const Stmt *S, unsigned Depth = 1) {
  if (!S)
    return SourceLocation();
  IndexRemovalFinder F(Depth);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

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
    CurrentIf.clear();
    Current = FD;
    return RecursiveASTVisitor::TraverseFunctionDecl(FD);
  }

  bool TraverseCompoundStmt(CompoundStmt *CS) {
    Compounds.push_back(CS);
    bool R = RecursiveASTVisitor::TraverseCompoundStmt(CS);
    Compounds.pop_back();
    return R;
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
        if (Site.Removal.isInvalid())
          Site.Removal = findIndexRemoval(R);
        if (Site.Free.isInvalid()) {
          // A kref release callback frees what its kref argument names.
          FreeFinder F(API->ReleaseArg ? nullptr
                                       : ownerOf(CE->getArg(API->CounterArg)));
          F.TraverseStmt(const_cast<Stmt *>(R));
          Site.Free = F.Found;
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

/// Calls F on every field and global variable declared outside function
/// bodies (cheap: no statement is visited).
template <typename Fn> void forEachDecl(const DeclContext *DC, Fn &&F) {
  for (const Decl *D : DC->decls()) {
    if (const auto *FD = dyn_cast<FieldDecl>(D))
      F(FD);
    else if (const auto *VD = dyn_cast<VarDecl>(D))
      F(VD);
    if (const auto *RD = dyn_cast<RecordDecl>(D))
      forEachDecl(RD, F);
    else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D))
      forEachDecl(LS, F);
  }
}

/// Styles the model file or annotations give counter fields override the
/// inferred ones; a kcref style's lock is a global or a field named so.
void applyConfiguredStyles(PutStyleDB &DB, ASTContext &Ctx) {
  const Model &M = activeModel();
  SmallVector<std::pair<const FieldDecl *, const CounterConfig *>, 4> Fields;
  SmallVector<const ValueDecl *, 64> Candidates;
  forEachDecl(Ctx.getTranslationUnitDecl(), [&](const ValueDecl *D) {
    if (const auto *FD = dyn_cast<FieldDecl>(D))
      if (const CounterConfig *C = M.counterConfig(FD))
        Fields.emplace_back(FD, C);
    Candidates.push_back(D);
  });
  for (auto [FD, C] : Fields) {
    PutStyleInfo &Info = DB.Styles[FD];
    Info.DeclaredRefcount |= C->Refcount;
    if (!C->Style)
      continue;
    Info.Kind = *C->Style;
    Info.Configured = true;
    // The example put may show another style: no note from it.
    Info.ExampleFinalPut = SourceLocation();
    Info.PutLocks.clear();
    if (Info.Kind != PutStyleKind::Kcref)
      continue;
    for (const ValueDecl *D : Candidates) {
      const auto *LockField = dyn_cast<FieldDecl>(D);
      const auto *LockVar = dyn_cast<VarDecl>(D);
      bool Match = LockField ? StringRef(C->Lock).contains("::") &&
                                   fieldMatches(C->Lock, LockField)
                             : LockVar && LockVar->hasGlobalStorage() &&
                                   LockVar->getName() == C->Lock;
      if (Match && !llvm::is_contained(Info.PutLocks, D))
        Info.PutLocks.push_back(D);
    }
  }
}

void finalize(PutStyleInfo &Info) {
  if (Info.BarePut.isValid()) {
    Info.Kind = PutStyleKind::Kref;
    Info.ExampleFinalPut = Info.BarePut;
  } else if (Info.LockedPut.isValid()) {
    Info.Kind = PutStyleKind::Kcref;
    Info.ExampleFinalPut = Info.LockedPut;
  } else if (Info.PlainDec.isValid()) {
    Info.Kind = PutStyleKind::Plain;
  }
}
} // namespace

void PutStyleDB::resetCache() { TUCache<PutStyleDB>::reset(); }

const PutStyleDB &PutStyleDB::get(ASTContext &Ctx) {
  return TUCache<PutStyleDB>::get(Ctx, [&Ctx](PutStyleDB &DB) {
    StyleCollector Collector(DB, Ctx);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    Collector.resolve();
    for (auto &KV : DB.Styles)
      finalize(KV.second);
    applyConfiguredStyles(DB, Ctx);
  });
}

StringRef krefcheck::styleName(PutStyleKind K) {
  switch (K) {
  case PutStyleKind::Unknown:
    return "unknown";
  case PutStyleKind::Plain:
    return "plain";
  case PutStyleKind::Kref:
    return "kref";
  case PutStyleKind::Kcref:
    return "kcref";
  }
  return "unknown";
}
