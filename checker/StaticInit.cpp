//===- StaticInit.cpp - constant initializers of static tables ------------===//

#include "StaticInit.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace ento;

std::optional<int64_t> krefcheck::staticFieldInitializer(const MemRegion *R) {
  const auto *FR = dyn_cast_or_null<FieldRegion>(R);
  if (!FR)
    return std::nullopt;
  const auto *VR = dyn_cast<VarRegion>(FR->getSuperRegion()->StripCasts());
  if (!VR)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(VR->getDecl());
  if (!VD || !VD->hasGlobalStorage())
    return std::nullopt;
  const VarDecl *Def = VD->getDefinition();
  const auto *ILE =
      Def ? dyn_cast_or_null<InitListExpr>(Def->getInit()) : nullptr;
  const FieldDecl *FD = FR->getDecl();
  if (!ILE || FD->getParent() != ILE->getType()->getAsRecordDecl() ||
      FD->getFieldIndex() >= ILE->getNumInits())
    return std::nullopt;
  const Expr *Init = ILE->getInit(FD->getFieldIndex());
  if (Init && FD->getType()->isPointerType()) {
    // `.dai_link = links`: the address of an object, never NULL.
    const Expr *E = Init->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (DRE && isa<VarDecl, FunctionDecl>(DRE->getDecl()))
      return 1;
    return std::nullopt;
  }
  Expr::EvalResult Res;
  if (!Init || Init->isValueDependent() ||
      !Init->EvaluateAsInt(Res, Def->getASTContext()))
    return std::nullopt;
  int64_t V = Res.Val.getInt().getExtValue();
  if (V == 0)
    return std::nullopt;
  return V;
}

bool krefcheck::isInLoopCondition(const Stmt *E, const ParentMap &PM) {
  const Stmt *S = E;
  for (unsigned Depth = 0; S && Depth < 8; ++Depth) {
    const Stmt *P = PM.getParent(S);
    if (!P)
      return false;
    if (const auto *FS = dyn_cast<ForStmt>(P))
      return FS->getCond() == S;
    if (const auto *WS = dyn_cast<WhileStmt>(P))
      return WS->getCond() == S;
    if (!isa<Expr>(P))
      return false;
    S = P;
  }
  return false;
}
