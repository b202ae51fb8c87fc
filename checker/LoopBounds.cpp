//===- LoopBounds.cpp - Loop bounds read from static tables ---------------===//

#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "Rules.h"
#include "StaticInit.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

/// `for_each_card_prelinks(card, i, link)` over `static struct snd_soc_card
/// card = { .num_links = ARRAY_SIZE(links) }`: a loop bound read from a
/// global table still has the table's initial value, so the loop is not
/// walked zero times (which would leave what its body stores looking
/// leaked). Applied where the bound is loaded, before the comparison splits
/// the path; a bound the path wrote itself is a concrete value and left
/// alone.
void lifetime::constrainStaticBound(const CastExpr *CE, CheckerContext &C) {
  const auto *ME = dyn_cast<MemberExpr>(CE->getSubExpr()->IgnoreParens());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD ||
      !(CE->getType()->isIntegerType() || CE->getType()->isPointerType()))
    return;
  // Cheapest test first: the field of a global (this runs on every member
  // load), then the walk up to a loop condition.
  const MemRegion *BaseR = C.getSVal(ME->getBase()).getAsRegion();
  if (!BaseR || !isa<VarRegion>(BaseR->StripCasts()) ||
      !ruleEnabled(RuleId::StaticLoopBound) ||
      !isInLoopCondition(CE, C.getLocationContext()->getParentMap()))
    return;
  ProgramStateRef State = C.getState();
  SVal Field = State->getLValue(FD, loc::MemRegionVal(BaseR));
  std::optional<int64_t> Init = staticFieldInitializer(Field.getAsRegion());
  if (!Init)
    return;
  if (CE->getType()->isPointerType()) {
    auto P = C.getSVal(CE).getAs<DefinedOrUnknownSVal>();
    if (P && P->getAsSymbol())
      if (ProgramStateRef S = State->assume(*P, true))
        if (applyRule(RuleId::StaticLoopBound))
          C.addTransition(S);
    return;
  }
  auto Cur = C.getSVal(CE).getAs<NonLoc>();
  if (!Cur || !Cur->getAsSymbol())
    return;
  SValBuilder &SVB = C.getSValBuilder();
  SVal Eq = SVB.evalBinOpNN(
      State, BO_EQ, *Cur, SVB.makeIntVal(*Init, CE->getType()).castAs<NonLoc>(),
      SVB.getConditionType());
  if (auto D = Eq.getAs<DefinedOrUnknownSVal>())
    if (ProgramStateRef S = State->assume(*D, true))
      if (applyRule(RuleId::StaticLoopBound))
        C.addTransition(S);
}
