//===- SameResults.cpp - Same-result getters, memoized per path -----------===//
//
// Identity in refcount.LifetimeModel through getters the analyzer cannot
// see into. A call it does not inline returns a new symbol each time, so
//
//   dev = regmap_get_device(data->regmap);  pm_runtime_resume_and_get(dev);
//   ...
//   dev = regmap_get_device(data->regmap);  pm_runtime_put(dev);
//
// would put "another" device and leave the first count held. A getter whose
// contract says it has no side effects and that on one path the same
// arguments give the same result (model-file kind same-result,
// KREF_SAME_RESULT) is evaluated here: the first call conjures the result,
// later calls with the same arguments return it, also where the TU has the
// body (an inline field read, inline asm): the contract, not the body,
// decides. The memo is keyed by the callee and the identity of each
// argument (a region, a symbol, or a constant); its results stay alive as
// long as the entry, which dies with its arguments.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModel.h"
#include "LifetimeModelImpl.h"
#include "Rules.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

namespace {
/// What an argument value is, by a pointer unique to it: its region, its
/// symbol, or its (uniqued) constant.
struct ArgId {
  enum Kind : unsigned char { None, Region, Symbol, Constant };
  const void *P = nullptr;
  Kind K = None;

  static ArgId of(SVal V) {
    if (const MemRegion *R = V.getAsRegion())
      return {R, Region};
    if (SymbolRef S = V.getAsSymbol())
      return {S, Symbol};
    if (auto CI = V.getAs<nonloc::ConcreteInt>())
      return {&apsInt(CI->getValue()), Constant};
    if (auto LI = V.getAs<loc::ConcreteInt>())
      return {&apsInt(LI->getValue()), Constant};
    return {};
  }
  bool isLive(SymbolReaper &SR) const {
    switch (K) {
    case Region:
      return SR.isLiveRegion(static_cast<const MemRegion *>(P));
    case Symbol:
      return SR.isLive(static_cast<SymbolRef>(P));
    default:
      return true;
    }
  }
};

/// A same-result call: the callee and what each argument is.
struct SameCallKey {
  static constexpr unsigned MaxArgs = 3;
  const Decl *Callee = nullptr;
  ArgId Args[MaxArgs];

  bool operator==(const SameCallKey &O) const {
    if (Callee != O.Callee)
      return false;
    for (unsigned I = 0; I < MaxArgs; ++I)
      if (Args[I].P != O.Args[I].P)
        return false;
    return true;
  }
  bool operator<(const SameCallKey &O) const {
    std::less<const void *> Less;
    if (Callee != O.Callee)
      return Less(Callee, O.Callee);
    for (unsigned I = 0; I < MaxArgs; ++I)
      if (Args[I].P != O.Args[I].P)
        return Less(Args[I].P, O.Args[I].P);
    return false;
  }
  void Profile(llvm::FoldingSetNodeID &ID) const {
    ID.AddPointer(Callee);
    for (const ArgId &A : Args)
      ID.AddPointer(A.P);
  }
};
} // namespace

REGISTER_MAP_WITH_PROGRAMSTATE(SameResults, SameCallKey, SVal)

/// The result of a same-result getter with no arguments (get_current(),
/// behind `current`): one value for the whole analysis of the top
/// function, a symbol conjured from the callee and the top frame only, so
/// every call returns it without a memo in the state (a memo entry would
/// keep apart the paths that read `current` from those that did not).
static SVal fixedResult(const CallEvent &Call, const FunctionDecl *FD,
                        CheckerContext &C) {
  const LocationContext *Top = C.getLocationContext();
  while (Top->getParent())
    Top = Top->getParent();
  SymbolManager &SM = C.getSymbolManager();
  const void *Tag = FD->getCanonicalDecl();
#if LLVM_VERSION_MAJOR >= 21
  // A conjured symbol names a CFG element: the first one of the top
  // function's CFG, the same at every call.
  const CFG *G = Top->getCFG();
  const CFGBlock *First = nullptr;
  for (const CFGBlock *B : *G)
    if (B && !B->empty()) {
      First = B;
      break;
    }
  if (!First)
    return conjureCallResult(Call, C);
  SymbolRef Sym = SM.conjureSymbol(ConstCFGElementRef(First, 0), Top,
                                   Call.getResultType(), 0, Tag);
#else
  const Stmt *Body = Top->getDecl()->getBody();
  if (!Body)
    return conjureCallResult(Call, C);
  SymbolRef Sym = SM.conjureSymbol(Body, Top, Call.getResultType(), 0, Tag);
#endif
  return C.getSValBuilder().makeSymbolVal(Sym);
}

bool lifetime::evalSameResult(const CallEvent &Call, CheckerContext &C) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  // The contract holds where the TU has the body too: inlining it would
  // read the memory again after calls invalidated it (dev_get_platdata()
  // is `dev->platform_data`), or evaluate inline asm again (get_current()),
  // each time a new value.
  if (!FD || !CE || Call.getResultType()->isVoidType() ||
      Call.getNumArgs() > SameCallKey::MaxArgs)
    return false;
  if (Call.getNumArgs() == 0) {
    C.addTransition(C.getState()->BindExpr(CE, C.getLocationContext(),
                                           fixedResult(Call, FD, C)));
    return true;
  }
  SameCallKey Key;
  Key.Callee = FD->getCanonicalDecl();
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I)
    if ((Key.Args[I] = ArgId::of(Call.getArgSVal(I))).K == ArgId::None)
      return false;
  ProgramStateRef State = C.getState();
  SVal Ret;
  if (const SVal *Known = State->get<SameResults>(Key)) {
    Ret = *Known;
  } else {
    Ret = conjureCallResult(Call, C);
    State = State->set<SameResults>(Key, Ret);
  }
  C.addTransition(State->BindExpr(CE, C.getLocationContext(), Ret));
  return true;
}

SmallVector<const MemRegion *, 2>
lifetime::sameResultArgs(ProgramStateRef State, const MemRegion *R) {
  SmallVector<const MemRegion *, 2> Args;
  for (const auto &KV : State->get<SameResults>()) {
    const MemRegion *Result = KV.second.getAsRegion();
    if (!Result || Result->getBaseRegion() != R)
      continue;
    for (const ArgId &A : KV.first.Args)
      if (A.K == ArgId::Region)
        Args.push_back(static_cast<const MemRegion *>(A.P));
  }
  return Args;
}

void lifetime::keepSameResultsAlive(ProgramStateRef State, SymbolReaper &SR) {
  // A reference on the result (the device a runtime-PM count was taken
  // on) must outlive the local that held it: the next call with the same
  // arguments names the same object.
  for (const auto &KV : State->get<SameResults>())
    if (SymbolRef S = KV.second.getAsSymbol())
      SR.markLive(S);
}

ProgramStateRef lifetime::removeDeadSameResults(ProgramStateRef State,
                                                SymbolReaper &SR) {
  for (const auto &KV : State->get<SameResults>())
    for (const ArgId &A : KV.first.Args)
      if (!A.isLive(SR)) {
        State = State->remove<SameResults>(KV.first);
        break;
      }
  return State;
}
