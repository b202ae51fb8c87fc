//===- PutStyle.cpp - The put style of each counter in a TU ---------------===//

#include "PutStyle.h"
#include "CounterKey.h"
#include "LockModel.h"
#include "RefcountAPI.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace krefcheck;

namespace {

/// APIs that take an object off a lookup index.
bool isIndexRemoval(StringRef Name) {
  static const llvm::StringSet<> Names = {
      "list_del",         "list_del_init",      "list_del_rcu",
      "hlist_del",        "hlist_del_init",     "hlist_del_rcu",
      "hlist_del_init_rcu", "hlist_nulls_del_rcu", "hlist_nulls_del_init_rcu",
      "idr_remove",       "xa_erase",           "__xa_erase",
      "xa_erase_irq",     "radix_tree_delete",  "rb_erase",
      "rhashtable_remove_fast", "rhltable_remove", "ida_free",
      "list_lru_del"};
  return Names.contains(Name);
}

const FunctionDecl *calleeOf(const CallExpr *CE) {
  return CE ? CE->getDirectCallee() : nullptr;
}

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

/// Walks every function body in source order, tracking a syntactic lock set,
/// and records each put of each counter field.
class StyleCollector : public RecursiveASTVisitor<StyleCollector> {
public:
  explicit StyleCollector(PutStyleDB &DB) : DB(DB) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    // The counting API's own bodies (kref_put is a refcount_dec_and_test on
    // the kref's insides) say nothing about any user counter.
    if (lookupCountAPI(FD->getName()))
      return true;
    Locks.clear();
    CurrentIf.clear();
    return RecursiveASTVisitor::TraverseFunctionDecl(FD);
  }

  bool TraverseIfStmt(IfStmt *If) {
    CurrentIf.push_back(If);
    bool R = RecursiveASTVisitor::TraverseIfStmt(If);
    CurrentIf.pop_back();
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = calleeOf(CE);
    if (!FD || !FD->getIdentifier())
      return true;
    StringRef Name = FD->getName();
    if (const LockAPI *L = lookupLockAPI(Name)) {
      noteLock(*L, CE);
      return true;
    }
    const CountAPI *API = lookupCountAPI(Name);
    if (!API || CE->getNumArgs() <= API->CounterArg)
      return true;
    const FieldDecl *Counter = counterFieldFromExpr(CE->getArg(API->CounterArg));
    if (!Counter)
      return true;
    PutStyleInfo &Info = DB.Styles[Counter];
    switch (API->Op) {
    case CountOp::Put:
      if (Info.PlainDec.isInvalid())
        Info.PlainDec = CE->getBeginLoc();
      break;
    case CountOp::PutTest:
      if (!Locks.empty()) {
        // iput()/dput(): take the lock, then drop the count under it.
        recordLocked(Info, CE, Locks.back());
      } else if (Info.BarePut.isInvalid()) {
        Info.BarePut = CE->getBeginLoc();
      }
      recordRelease(Info, CE, *API);
      break;
    case CountOp::PutLock:
      if (API->LockArg && CE->getNumArgs() > *API->LockArg)
        recordLocked(Info, CE, lockDeclFromExpr(CE->getArg(*API->LockArg)));
      recordRelease(Info, CE, *API);
      break;
    default:
      break;
    }
    return true;
  }

private:
  void noteLock(const LockAPI &L, const CallExpr *CE) {
    if (L.Op != LockOp::Acquire && L.Op != LockOp::Release)
      return;
    if (CE->getNumArgs() <= L.LockArg)
      return;
    const ValueDecl *D = lockDeclFromExpr(CE->getArg(L.LockArg));
    if (!D)
      return;
    if (L.Op == LockOp::Acquire) {
      Locks.push_back(D);
    } else {
      auto It = std::find(Locks.rbegin(), Locks.rend(), D);
      if (It != Locks.rend())
        Locks.erase(std::next(It).base());
    }
  }

  void recordLocked(PutStyleInfo &Info, const CallExpr *CE,
                    const ValueDecl *Lock) {
    if (Info.LockedPut.isInvalid())
      Info.LockedPut = CE->getBeginLoc();
    if (Lock && std::find(Info.PutLocks.begin(), Info.PutLocks.end(), Lock) ==
                    Info.PutLocks.end())
      Info.PutLocks.push_back(Lock);
  }

  /// Finds what runs when the count hits zero: the kref release callback,
  /// or the then-branch of `if (x_dec_and_test(...))`.
  void recordRelease(PutStyleInfo &Info, const CallExpr *CE,
                     const CountAPI &API) {
    if (Info.IndexRemovalInRelease.isValid())
      return;
    if (API.ReleaseArg && CE->getNumArgs() > *API.ReleaseArg) {
      const Expr *Rel = CE->getArg(*API.ReleaseArg)->IgnoreParenCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Rel))
        if (const auto *RelFD = dyn_cast<FunctionDecl>(DRE->getDecl()))
          if (const FunctionDecl *Def = RelFD->getDefinition())
            Info.IndexRemovalInRelease = findIndexRemoval(Def->getBody());
      return;
    }
    if (CurrentIf.empty())
      return;
    const IfStmt *If = CurrentIf.back();
    const Expr *Cond = If->getCond();
    if (Cond && Cond->getSourceRange().fullyContains(CE->getSourceRange()))
      Info.IndexRemovalInRelease = findIndexRemoval(If->getThen());
  }

  PutStyleDB &DB;
  SmallVector<const ValueDecl *, 4> Locks;
  SmallVector<const IfStmt *, 4> CurrentIf;
};

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

const PutStyleDB &PutStyleDB::get(ASTContext &Ctx) {
  // One compiler invocation analyzes one TU; key by context all the same.
  static const ASTContext *CachedFor = nullptr;
  static PutStyleDB Cached;
  if (CachedFor != &Ctx) {
    Cached = PutStyleDB();
    StyleCollector Collector(Cached);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (auto &KV : Cached.Styles)
      finalize(KV.second);
    CachedFor = &Ctx;
  }
  return Cached;
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
