//===- PutStyleRelease.cpp - What runs when a count hits zero -------------===//
//
// The evidence the put-style pass reads in a release path (the kref release
// callback's body, or what runs after a decrement-and-test hits zero): a
// free of the counter's object (an atomic_t that frees on zero is a lifetime
// count) and a removal from a lookup index (the index holds no count, so its
// entries can reach zero while still listed). What counts as either comes
// from the model (`calls: frees`, `indexes:` removals).
//
//===----------------------------------------------------------------------===//

#include "CounterKey.h"
#include "ModelFile.h"
#include "PutStyleImpl.h"
#include "RefcountAPI.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace krefcheck;
using namespace krefcheck::putstyle;

namespace {

/// APIs that take an object off a lookup index (`kind: removal` rows of the
/// model's `indexes:`).
bool isIndexRemoval(StringRef Name) {
  const IndexAPI *API = activeModel().indexAPI(Name);
  return API && API->Removal;
}

/// Calls that free or release an object (the model's `calls: frees`).
bool isFreeLike(StringRef N) { return activeModel().Calls.Frees.contains(N); }

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

/// Does this statement (or a function it calls directly, Depth levels) take
/// an object off an index? Records the first removal (or the call that leads
/// to it) and the node fields every removal names (`global_l` in
/// `list_del(&chan->global_l)`).
class IndexRemovalFinder : public RecursiveASTVisitor<IndexRemovalFinder> {
public:
  explicit IndexRemovalFinder(unsigned Depth) : Depth(Depth) {}
  putstyle::IndexRemovals Found;
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = calleeOf(CE);
    if (!FD || !FD->getIdentifier())
      return true;
    if (isIndexRemoval(FD->getName())) {
      if (Found.First.isInvalid())
        Found.First = CE->getBeginLoc();
      if (const FieldDecl *F = nodeField(CE))
        Found.Members.push_back(F);
      return true;
    }
    if (Depth > 0 && FD->hasBody() && !lookupCountAPI(FD->getName())) {
      IndexRemovalFinder Inner(Depth - 1);
      Inner.TraverseStmt(FD->getBody());
      if (Found.First.isInvalid() && Inner.Found.First.isValid())
        Found.First = CE->getBeginLoc();
      Found.Members.append(Inner.Found.Members.begin(),
                           Inner.Found.Members.end());
    }
    return true;
  }

private:
  unsigned Depth;
  /// `member` of a removal's first argument `&obj->member`.
  static const FieldDecl *nodeField(const CallExpr *CE) {
    if (CE->getNumArgs() == 0)
      return nullptr;
    const auto *UO =
        dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *ME =
        dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
    return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  }
};

} // namespace

/// The variable that holds the counter's object: `c` in `&c->refcnt`.
const ValueDecl *putstyle::ownerOf(const Expr *CounterArg) {
  const Expr *E = stripAddrOf(CounterArg);
  while (const auto *ME = dyn_cast<MemberExpr>(E))
    E = ME->getBase()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  return nullptr;
}

SourceLocation putstyle::findFree(const Stmt *S, const ValueDecl *Owner) {
  FreeFinder F(Owner);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

namespace {

/// The member an object embeds to be freed after a grace period (the model
/// file's `types: rcu-heads`: `struct rcu_head`, the kernel's
/// `callback_head`).
bool isRcuHead(QualType T) {
  const RecordDecl *RD = T->getAsRecordDecl();
  return RD && RD->getIdentifier() &&
         activeModel().Types.RcuHeads.contains(RD->getName());
}

/// The object a release callback is given, and the variables that hold it:
/// the callback's parameter, and locals set to it or to an embedding view of
/// it (`container_of(k, struct foo, ref)`, also spelled as pointer
/// arithmetic with offsetof).
class ObjectFreeFinder : public RecursiveASTVisitor<ObjectFreeFinder> {
public:
  ObjectFreeFinder(const ParmVarDecl *Object, unsigned Depth) : Depth(Depth) {
    Holders.insert(Object);
  }
  bool Frees = false;
  /// Post-order: a local is known to hold the object (container_of's own
  /// `__mptr`) before the declaration it initializes is visited.
  bool shouldTraversePostOrder() const { return true; }

  /// Is E the object itself (a holder, a cast or an embedding view of one,
  /// the address of its rcu_head: `call_rcu(&o->rcu, ...)` frees the object
  /// later), rather than something read out of it (`o->buf`) or another
  /// member (`idr_destroy(&o->idr)` tears down only that member)?
  bool isObject(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return Holders.count(DRE->getDecl());
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_AddrOf)
        return false;
      const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
      return ME && ME->isArrow() && isRcuHead(ME->getType()) &&
             isObject(ME->getBase());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType() &&
             isObject(BO->getLHS());
    if (const auto *SE = dyn_cast<StmtExpr>(E)) {
      const CompoundStmt *Body = SE->getSubStmt();
      const auto *Last = Body && !Body->body_empty()
                             ? dyn_cast<Expr>(Body->body_back())
                             : nullptr;
      return Last && isObject(Last);
    }
    return false;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isPointerType() && VD->getInit() &&
        isObject(VD->getInit()))
      Holders.insert(VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenCasts()))
        if (isa<VarDecl>(DRE->getDecl()) && isObject(BO->getRHS()))
          Holders.insert(DRE->getDecl());
    return true;
  }
  /// A free-like call (the model's `calls: frees`) taking the object, or a
  /// function with a body this TU has that frees the object it is given.
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = calleeOf(CE);
    if (!FD)
      return true;
    for (unsigned I = 0, N = CE->getNumArgs(); I < N && !Frees; ++I) {
      if (!isObject(CE->getArg(I)))
        continue;
      if (FD->getIdentifier() &&
          activeModel().Calls.Frees.contains(FD->getName())) {
        Frees = true;
        break;
      }
      const FunctionDecl *Def = FD->getDefinition();
      if (Depth == 0 || !Def || !Def->hasBody() || I >= Def->getNumParams())
        continue;
      ObjectFreeFinder Inner(Def->getParamDecl(I), Depth - 1);
      Inner.TraverseStmt(Def->getBody());
      Frees = Inner.Frees;
    }
    return !Frees;
  }

private:
  llvm::SmallPtrSet<const Decl *, 4> Holders;
  unsigned Depth;
};

} // namespace

bool putstyle::isNonFreeingRelease(const FunctionDecl *Release) {
  return Release && Release->getIdentifier() &&
         activeModel().Calls.NonFreeingReleases.contains(Release->getName());
}

const FunctionDecl *putstyle::releaseCallback(const Expr *ReleaseArg) {
  const auto *DRE = ReleaseArg
                        ? dyn_cast<DeclRefExpr>(ReleaseArg->IgnoreParenCasts())
                        : nullptr;
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

bool putstyle::releaseCallbackFrees(const Expr *ReleaseArg,
                                    const FunctionDecl *&Release) {
  Release = releaseCallback(ReleaseArg);
  if (isNonFreeingRelease(Release))
    return false;
  const FunctionDecl *Def = Release ? Release->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return true;
  if (Def->getNumParams() < 1)
    return false;
  // The body frees the object it is given, or hands it to a function of this
  // TU that does (`foo_free(container_of(k, struct foo, ref))`); frees of
  // what it points to (`gen_pool_destroy(vm->pool)`) do not count.
  ObjectFreeFinder F(Def->getParamDecl(0), /*Depth=*/1);
  F.TraverseStmt(Def->getBody());
  return F.Frees;
}

putstyle::IndexRemovals putstyle::findIndexRemovals(const Stmt *S,
                                                    unsigned Depth) {
  if (!S)
    return {};
  IndexRemovalFinder F(Depth);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}
