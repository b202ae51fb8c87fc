//===- UnderflowChecker.cpp - refcount.Underflow --------------------------===//
//
// A put gives back one reference. Putting more than the path holds drops a
// count that belongs to someone else: the object can be freed under its
// other users (and refcount_t warns "underflow; use-after-free"). Reported at
// a put (of_node_put, put_device, kref_put, ..., or an iterator step that
// puts its previous node) of a reference that, on this path,
//
//   Owned(1) --put--> Released --put--> report "released twice"
//   (never got) --put--> BorrowedPut --put--> report "put twice", when one
//                                              of the two puts is an iterator
//                                              step consuming its argument
//
// A single put of a pointer the function never got is not reported: many
// kernel functions consume a reference their caller passes in. Unless the
// function borrows that parameter: annotated KREF_BORROWS(n), a model row of
// kind borrow, or any pointer parameter with refcount:BorrowedParams=true
// (except in functions whose name or contract says they release or consume
// it); then the first put is reported. A second put of a pointer the
// function was given (a parameter, or read out of one) is reported (rule
// given-reference-single-put; not the runtime-PM usage count):
//
//   (given) --put--> BorrowedPut --put, same pointer--> report "puts again:
//                                  the one reference this function was given"
//
// A put of NULL is a no-op and never reported; a BorrowedPut is forgotten
// once the pointer is passed to a function that might take a reference of
// its own, and a get after it gives the caller's count back (rule
// power-cycle).
//
//===----------------------------------------------------------------------===//

#include "AssertionPaths.h"
#include "Contracts.h"
#include "LifetimeModel.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "Rules.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {
class UnderflowChecker : public Checker<check::PreCall> {
  const BugType Bug{this, "Reference count underflow", RefcountCategory};

public:
  bool BorrowedParams = false;
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;

private:
  bool isBorrowedParam(const MemRegion *R, CheckerContext &C,
                       const ParmVarDecl *&P) const;
};
} // namespace

/// Is R (or the object it is a part of) the value a pointer parameter of the
/// analyzed function had on entry, and does the function borrow it?
bool UnderflowChecker::isBorrowedParam(const MemRegion *R, CheckerContext &C,
                                       const ParmVarDecl *&P) const {
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  const auto *RV = SR ? dyn_cast<SymbolRegionValue>(SR->getSymbol()) : nullptr;
  const auto *VR = RV ? dyn_cast<VarRegion>(RV->getRegion()) : nullptr;
  P = VR ? dyn_cast<ParmVarDecl>(VR->getDecl()) : nullptr;
  const auto *Top = dyn_cast_or_null<FunctionDecl>(topLevelDecl(C));
  if (!P || !Top || P->getDeclContext() != Top ||
      !VR->getStackFrame()->inTopFrame())
    return false;
  int Index = int(P->getFunctionScopeIndex());
  if (const LifetimeAPI *Own = lookupLifetimeAPI(Top)) {
    if (Own->Op == LifeOp::Borrow)
      return Own->RefArg == Index;
    if (Own->RefArg == Index || Own->ConsumedArg == Index)
      return false; // The function's own contract releases or consumes it.
  }
  // A function whose name says it releases or keeps what it is given
  // consumes its parameters (contract naming rules; an annotation or a model
  // row decided above).
  const CallContract &K = contractFor(Top);
  return BorrowedParams && !K.Name.empty() && !K.NameGivesUp && !K.NameKeeps;
}

void UnderflowChecker::checkPreCall(const CallEvent &Call,
                                    CheckerContext &C) const {
  const LifetimeAPI *API =
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  if (!API || !followsCount(Call, *API, C.getState()))
    return;
  int Arg = API->Op == LifeOp::Release          ? API->RefArg
            : API->Op == LifeOp::ConsumeAcquire ? API->ConsumedArg
                                                : NoArg;
  if (Arg < 0 || Arg >= (int)Call.getNumArgs() ||
      !Call.getArgExpr(Arg)->getType()->isPointerType())
    return;
  ProgramStateRef State = C.getState();
  SVal V = Call.getArgSVal(Arg);
  const MemRegion *R = refRegion(V);
  if (!R || State->isNull(V).isConstrainedTrue())
    return;
  auto Found = findRef(State, R, API->Fam);
  const ParmVarDecl *Param = nullptr;
  if (!Found && isBorrowedParam(R, C, Param)) {
    ExplodedNode *N = C.generateErrorNode();
    if (!N)
      return;
    std::string Msg = "The call to " + API->Name.str() + "() puts '" +
                      Param->getName().str() +
                      "', a reference this function only borrows: its "
                      "caller still counts on it";
    auto Rep = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N);
    dropOnAssertionPaths(*Rep);
    Rep->addRange(Call.getArgSourceRange(Arg));
    emitReport(C, std::move(Rep));
    return;
  }
  if (!Found)
    return;
  const RefEntry &E = Found->second;
  if (E.K != RefEntry::Kind::Released && E.K != RefEntry::Kind::BorrowedPut)
    return;
  // Two explicit puts of a pointer this path never got may drop two
  // references held by different owners (software_node_notify_remove()
  // puts the notifier's and the managed node's). Report only when one of
  // them is an iterator step that consumes its argument, a classic mistake:
  // `np = of_find_compatible_node(from, ...); of_node_put(from);`.
  //
  // Unless the pointer is one the function was given (a parameter, or read
  // out of one) and both puts name it by the same pointer value: the
  // function owns at most the one reference its caller passed (rule
  // given-reference-single-put; not the runtime-PM usage count).
  bool Given = false;
  if (E.K == RefEntry::Kind::BorrowedPut && API->Op != LifeOp::ConsumeAcquire &&
      (!E.Releaser || E.Releaser->Op != LifeOp::ConsumeAcquire)) {
    if (!isGivenReferencePut(C.getState(), Found->first, E) ||
        Found->first.Region->getBaseRegion() != R->getBaseRegion() ||
        !applyRule(RuleId::GivenReferenceSinglePut))
      return;
    Given = true;
  }
  std::string Callee = API->Name.str() + "()";
  RefEntry Named = E;
  if (!Named.Var)
    Named.ArgExpr = Call.getArgExpr(Arg);
  std::string Name = describeRef(Found->first, Named);
  std::string Msg;
  if (Given)
    Msg = "The call to " + Callee + " puts " + Name +
          " again: the one reference this function was given was already "
          "dropped by " +
          (E.Releaser ? E.Releaser->Name.str() + "()" : std::string("a put")) +
          " earlier on this path";
  else if (E.K == RefEntry::Kind::Released)
    Msg = "The call to " + Callee + " puts " + Name +
          " again: this path already released every reference it took";
  else
    Msg = "The call to " + Callee + " puts " + Name +
          " a second time on this path, which never took a reference to it";
  ExplodedNode *N = C.generateErrorNode();
  if (!N)
    return;
  auto Rep = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N);
  dropOnAssertionPaths(*Rep);
  Rep->addRange(Call.getArgSourceRange(Arg));
  markRefInteresting(*Rep, Found->first);
  emitReport(C, std::move(Rep));
}

void registerUnderflow(CheckerManager &Mgr) {
  auto *Chk = Mgr.registerChecker<UnderflowChecker>();
  const auto &Config = Mgr.getAnalyzerOptions().Config;
  auto It = Config.find("refcount:BorrowedParams");
  Chk->BorrowedParams = It != Config.end() && It->second == "true";
}
