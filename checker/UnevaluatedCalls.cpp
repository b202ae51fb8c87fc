//===- UnevaluatedCalls.cpp - Calls in operands the code never runs -------===//
//
// `__builtin_constant_p(v)` does not evaluate `v`: the compiler folds it to
// a constant. The analyzer evaluates the operand all the same, so a macro
// that tests its argument with it evaluates the argument twice:
//
//   rcu_assign_pointer(file->pid, get_pid(task_tgid(current)));
//
// ran get_pid() twice on the path and took two counts where the code takes
// one (drm_file_alloc(), held-out set 13). A call inside such an operand is
// evaluated here without its body and without effects: a fresh result,
// nothing invalidated, no count taken (rule unevaluated-operand).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "RefcountModel.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/Builtins.h"

using namespace clang;
using namespace ento;

bool krefcheck::inUnevaluatedOperand(const CallEvent &Call, CheckerContext &C) {
  const Stmt *S = Call.getOriginExpr();
  if (!S || !ruleEnabled(RuleId::UnevaluatedOperand))
    return false;
  const ParentMap &PM = C.getLocationContext()->getParentMap();
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (const auto *CE = dyn_cast<CallExpr>(P))
      if (CE->getBuiltinCallee() == Builtin::BI__builtin_constant_p)
        return true;
  return false;
}

bool krefcheck::evalUnevaluatedCall(const CallEvent &Call, CheckerContext &C) {
  if (!inUnevaluatedOperand(Call, C))
    return false;
  applyRule(RuleId::UnevaluatedOperand);
  ProgramStateRef State = C.getState();
  if (!Call.getResultType()->isVoidType())
    State = State->BindExpr(Call.getOriginExpr(), C.getLocationContext(),
                            conjureCallResult(Call, C));
  C.addTransition(State);
  return true;
}
