//===- AsmGotoCalls.cpp - Calls into functions with an asm goto ----------===//
//
// The analyzer's engine makes no successor for an `asm goto` (CoreEngine:
// "TODO: Handle jumping to labels"): a path that reaches one ends there,
// silently. The kernel's static keys are asm gotos (arch_static_branch(),
// behind static_branch_likely()/unlikely()), and so is every dev_dbg()
// under dynamic debug and every tracepoint: when the analyzer inlines one of
// them, the rest of the calling function is never analyzed, and a leak on an
// error path after a dev_dbg() is never reported (tc358746_s_stream(), a
// seeded bug of held-out set 7). Whether the analyzer inlines them depends
// on its size budgets, so the same code was checked or not depending on how
// small the wrapper was.
//
// Rule asm-goto-calls: a call to a function whose own body holds an asm goto
// is evaluated without the body, as a call the analyzer does not inline
// (its arguments' memory and globals invalidated, a new value returned):
// both outcomes of a static branch stay possible.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "RefcountModel.h"
#include "Rules.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace ento;

namespace {
struct AsmGotoFinder : RecursiveASTVisitor<AsmGotoFinder> {
  bool Found = false;
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    Found |= S->isAsmGoto();
    return !Found;
  }
};

/// Functions of the current TU by whether their body holds an asm goto.
llvm::DenseMap<const FunctionDecl *, bool> &asmGotoCache() {
  static llvm::DenseMap<const FunctionDecl *, bool> Cache;
  return Cache;
}

bool bodyHasAsmGoto(const FunctionDecl *FD) {
  auto [It, New] = asmGotoCache().try_emplace(FD, false);
  if (New) {
    AsmGotoFinder F;
    F.TraverseStmt(FD->getBody());
    It->second = F.Found;
  }
  return It->second;
}
} // namespace

void krefcheck::resetAsmGotoCache() { asmGotoCache().clear(); }

bool krefcheck::evalAsmGotoCall(const CallEvent &Call, CheckerContext &C) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || !Call.getOriginExpr() ||
      !bodyHasAsmGoto(Def) || !ruleEnabled(RuleId::AsmGotoCalls))
    return false;
  applyRule(RuleId::AsmGotoCalls);
  ProgramStateRef State = Call.invalidateRegions(C.blockCount(), C.getState());
  if (!Call.getResultType()->isVoidType())
    State = State->BindExpr(Call.getOriginExpr(), C.getLocationContext(),
                            conjureCallResult(Call, C));
  C.addTransition(State);
  return true;
}
