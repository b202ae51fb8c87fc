//===- InternalRefs.cpp - Recognising internal (uncounted) references ----===//
//
// The index functions, node types and macro names are the active model's
// (`indexes:`, `index-nodes:` and `macros:` of the model file).
//
//===----------------------------------------------------------------------===//

#include "InternalRefs.h"
#include "ModelFile.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace krefcheck;

std::optional<InternalOrigin> krefcheck::lookupCallOrigin(StringRef Callee) {
  const IndexAPI *API = activeModel().indexAPI(Callee);
  if (!API || API->Removal)
    return std::nullopt;
  return API->Origin;
}

/// The macros the expression at Loc was expanded from, innermost first.
SmallVector<StringRef, 8> krefcheck::macroChain(SourceLocation Loc,
                                                const SourceManager &SM,
                                                const LangOptions &LO) {
  SmallVector<StringRef, 8> Names;
  while (Loc.isMacroID() && Names.size() < 16) {
    StringRef N = Lexer::getImmediateMacroName(Loc, SM, LO);
    if (!N.empty() && (Names.empty() || Names.back() != N))
      Names.push_back(N);
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Names;
}

const Expr *krefcheck::assertedHeldLock(const CastExpr *CE,
                                        const SourceManager &SM,
                                        const LangOptions &LO) {
  // Without CONFIG_LOCKDEP: #define lockdep_assert_held(l) do { (void)(l); }
  // ...
  if (!isa<CStyleCastExpr>(CE) || !CE->getType()->isVoidType() ||
      !CE->getBeginLoc().isMacroID())
    return nullptr;
  const NameSet &Asserts = activeModel().Macros.LockHeldAsserts;
  for (StringRef N : macroChain(CE->getBeginLoc(), SM, LO))
    if (Asserts.contains(N))
      return CE->getSubExpr()->IgnoreParenCasts();
  return nullptr;
}

const Expr *krefcheck::assertedHeldLockCall(const CallExpr *CE,
                                            const SourceManager &SM,
                                            const LangOptions &LO) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier() || CE->getNumArgs() < 1 ||
      !CE->getBeginLoc().isMacroID() ||
      !activeModel().Calls.LockHeldTests.contains(FD->getName()))
    return nullptr;
  const NameSet &Asserts = activeModel().Macros.LockHeldAsserts;
  if (llvm::none_of(macroChain(CE->getBeginLoc(), SM, LO),
                    [&](StringRef N) { return Asserts.contains(N); }))
    return nullptr;
  // `&(L)->dep_map`: the lock is the member's base.
  const auto *UO =
      dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
  return ME ? ME->getBase()->IgnoreParenImpCasts() : nullptr;
}

bool krefcheck::inAssertion(SourceLocation Loc, const SourceManager &SM,
                            const LangOptions &LO) {
  const NameSet &Assertions = activeModel().Macros.Assertions;
  for (StringRef N : macroChain(Loc, SM, LO))
    if (Assertions.contains(N))
      return true;
  return false;
}

namespace {

/// The origin of an object reached from a pointer of type T: a pointer to
/// an index node (the model's `index-nodes`: list_head, rb_node, ...).
std::optional<InternalOrigin> nodeKindOf(QualType T) {
  if (!T->isPointerType())
    return std::nullopt;
  const RecordDecl *RD = T->getPointeeType()->getAsRecordDecl();
  if (!RD || !RD->getIdentifier())
    return std::nullopt;
  const Model &M = activeModel();
  for (unsigned I = 0; I < NumInternalOrigins; ++I)
    if (M.IndexNodes[I].contains(RD->getName()))
      return InternalOrigin(I);
  return std::nullopt;
}

/// container_of's body starts `void *__mptr = (void *)(ptr);`: the type of
/// `ptr` tells what kind of node the object was reached through.
std::optional<InternalOrigin> containerOfNodeKind(const StmtExpr *SE) {
  const CompoundStmt *Body = SE->getSubStmt();
  if (!Body || Body->body_empty())
    return std::nullopt;
  for (const Stmt *S : Body->body()) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS || !DS->isSingleDecl())
      continue;
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->getInit())
      continue;
    const Expr *Init = VD->getInit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(Init))
      Init = CE->getSubExpr();
    return nodeKindOf(Init->IgnoreParenImpCasts()->getType());
  }
  return std::nullopt;
}
/// The pointer expression `p` an rcu_dereference(p) reads: its body starts
/// `typeof(*p) *local = (typeof(*p) *)READ_ONCE(p);` and READ_ONCE(p) takes
/// `&(p)`.
const Expr *rcuDereferencedPointer(const StmtExpr *SE) {
  const CompoundStmt *Body = SE->getSubStmt();
  if (!Body || Body->body_empty())
    return nullptr;
  const auto *DS = dyn_cast<DeclStmt>(Body->body_front());
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!VD || !VD->getInit())
    return nullptr;
  SmallVector<const Stmt *, 16> Work = {VD->getInit()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_AddrOf)
        return UO->getSubExpr()->IgnoreParenCasts();
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return nullptr;
}

/// An RCU-published pointer is an index when it is a global (a published
/// singleton) or a slot of a table (`table[hash]`). A field of some object
/// is usually that object's own counted reference, stable while the caller
/// holds the object, so it is not treated as an index.
bool isIndexLikeRcuPointer(const Expr *P) {
  if (!P)
    return false;
  P = P->IgnoreParenCasts();
  if (isa<ArraySubscriptExpr>(P))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->hasGlobalStorage();
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    // A field of a global (a static table struct) is still global.
    const Expr *Base = ME->getBase()->IgnoreParenCasts();
    if (!ME->isArrow())
      return isIndexLikeRcuPointer(Base);
  }
  return false;
}
} // namespace

std::optional<InternalOrigin>
krefcheck::offsetofContainerOrigin(const CastExpr *CE, const ASTContext &Ctx) {
  if (!isa<CStyleCastExpr>(CE) || !CE->getType()->isPointerType() ||
      !CE->getType()->getPointeeType()->getAsRecordDecl())
    return std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(CE->getSubExpr()->IgnoreParens());
  if (!BO || BO->getOpcode() != BO_Sub ||
      !BO->getLHS()->getType()->isPointerType() ||
      !BO->getRHS()->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult Offset;
  if (BO->getRHS()->isValueDependent() ||
      !BO->getRHS()->EvaluateAsInt(Offset, Ctx))
    return std::nullopt;
  return nodeKindOf(BO->getLHS()->IgnoreParenCasts()->getType());
}

std::optional<InternalOrigin>
krefcheck::statementExprOrigin(const StmtExpr *SE, const SourceManager &SM,
                               const LangOptions &LO) {
  SourceLocation Loc = SE->getBeginLoc();
  if (!Loc.isMacroID())
    return std::nullopt;
  SmallVector<StringRef, 8> Chain = macroChain(Loc, SM, LO);
  if (Chain.empty())
    return std::nullopt;
  const MacroNames &Macros = activeModel().Macros;
  for (StringRef N : Chain)
    if (Macros.RcuDereference.contains(N)) {
      if (isIndexLikeRcuPointer(rcuDereferencedPointer(SE)))
        return InternalOrigin::RCU;
      return std::nullopt;
    }
  if (Macros.ContainerOf.contains(Chain.front()))
    return containerOfNodeKind(SE);
  return std::nullopt;
}

const FieldDecl *krefcheck::containerMember(const Stmt *S) {
  SmallVector<const Stmt *, 16> Work = {S};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    if (const auto *OE = dyn_cast<OffsetOfExpr>(Cur)) {
      for (unsigned I = OE->getNumComponents(); I-- > 0;)
        if (OE->getComponent(I).getKind() == OffsetOfNode::Field)
          return OE->getComponent(I).getField();
      return nullptr;
    }
    for (const Stmt *Child : Cur->children())
      Work.push_back(Child);
  }
  return nullptr;
}
