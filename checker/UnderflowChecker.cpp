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
// kernel functions consume a reference their caller passes in. A put of
// NULL is a no-op and never reported; a BorrowedPut is forgotten once the
// pointer is passed to a function that might take a reference of its own.
//
//===----------------------------------------------------------------------===//

#include "LifetimeModel.h"
#include "RefcountModel.h"
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
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;
};
} // namespace

void UnderflowChecker::checkPreCall(const CallEvent &Call,
                                    CheckerContext &C) const {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || !Call.getDecl())
    return;
  const LifetimeAPI *API = lookupLifetimeAPI(II->getName());
  if (!API)
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
  if (E.K == RefEntry::Kind::BorrowedPut && API->Op != LifeOp::ConsumeAcquire &&
      (!E.Releaser || E.Releaser->Op != LifeOp::ConsumeAcquire))
    return;
  std::string Callee = API->Name.str() + "()";
  RefEntry Named = E;
  if (!Named.Var)
    Named.ArgExpr = Call.getArgExpr(Arg);
  std::string Name = describeRef(Found->first, Named);
  std::string Msg;
  if (E.K == RefEntry::Kind::Released)
    Msg = Callee + " puts " + Name +
          " again: this path already released every reference it took";
  else
    Msg = Callee + " puts " + Name +
          " a second time on this path, which never took a reference to it";
  ExplodedNode *N = C.generateErrorNode();
  if (!N)
    return;
  auto Rep = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N);
  Rep->addRange(Call.getArgSourceRange(Arg));
  markRefInteresting(*Rep, Found->first);
  C.emitReport(std::move(Rep));
}

void registerUnderflow(CheckerManager &Mgr) {
  Mgr.registerChecker<UnderflowChecker>();
}
