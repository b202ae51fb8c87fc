//===- RefcountEvalCall.cpp - refcount.Model: the counting APIs -----------===//
//
// refcount.Model's eval::Call (RefcountModelImpl.h): every call of a
// counting API (a row of the model's `apis` with a counting kind) is
// evaluated by name, so the kernel's inline bodies never matter; the table
// is in RefcountModel.cpp. decodeCountCall, which the diagnostic checkers
// share, says which call is one.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "CountState.h"
#include "CounterKey.h"
#include "InternalRefs.h"
#include "LifetimeModel.h"
#include "LockModel.h"
#include "ModelFile.h"
#include "PutStyleImpl.h"
#include "RefcountModel.h"
#include "RefcountModelImpl.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

CountCall krefcheck::decodeCountCall(const CallEvent &Call) {
  CountCall CC;
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || !Call.getDecl())
    return CC;
  StringRef Name = II->getName();
  static const CountAPI AddUnlessAsTryGet = {
      "atomic_add_unless", CountOp::TryGet, CounterFamily::Atomic, 0,
      std::nullopt,        std::nullopt,    std::nullopt};
  const CountAPI *API = lookupCountAPI(Name);
  if (!API && Call.getNumArgs() == 3 &&
      activeModel().Calls.AddUnless.contains(Name)) {
    // atomic_add_unless(v, 1, 0) == atomic_inc_not_zero(v).
    const llvm::APSInt *A = Call.getArgSVal(1).getAsInteger();
    const llvm::APSInt *U = Call.getArgSVal(2).getAsInteger();
    if (A && U && *A == 1 && *U == 0)
      API = &AddUnlessAsTryGet;
  }
  if (!API || Call.getNumArgs() <= API->CounterArg)
    return CC;
  // A function of that name taking no pointer is not the kernel API.
  if (!Call.getArgExpr(API->CounterArg)->getType()->isPointerType())
    return CC;
  CC.API = API;
  CC.Counter =
      counterRegionFromArg(Call.getArgSVal(API->CounterArg).getAsRegion());
  return CC;
}

/// A put that returns one of the path's extra references (see CountState).
/// When none is left over a reference the path only borrowed, the count is
/// unknown again.
static ProgramStateRef returnExtraOrForget(ProgramStateRef State,
                                           const MemRegion *Ctr) {
  const CountState *CS = getCountState(State, Ctr);
  if (!CS || !CS->isHeld() || CS->extraGets() == 0)
    return forgetCountState(State, Ctr);
  CountState Back = CS->withoutExtraGet();
  if (Back.extraGets() == 0 && Back.why() == CountState::Why::Get)
    return forgetCountState(State, Ctr);
  return setCountState(State, Ctr, Back);
}

/// A put-and-test of a count this path never took (no get, init or
/// successful try-get of it on the path: the object was given, found by a
/// call the analyzer did not follow, or read out of memory), whose outcome
/// the put's frame does not return: the zero outcome is the analyzer's split
/// of a count someone else holds (rule caller-count-survives).
static bool putOfUntakenCount(ProgramStateRef State, const MemRegion *Ctr,
                              const CallExpr *CE, CheckerContext &C) {
  // A put after such a split is the same: the path still took nothing.
  if (const CountState *CS = getCountState(State, Ctr))
    if (!CS->untaken())
      return false;
  const ParentMap &PM = C.getLocationContext()->getParentMap();
  return !isa_and_nonnull<ReturnStmt>(PM.getParentIgnoreParenCasts(CE));
}

bool krefcheck::resultTested(const CallExpr *CE, const ParentMap &PM) {
  const Stmt *P = PM.getParentIgnoreParenCasts(CE);
  auto IsCond = [CE](const Expr *Cond) {
    return Cond && Cond->IgnoreParenCasts() == CE;
  };
  if (!P || isa<ReturnStmt>(P))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return IsCond(If->getCond());
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return IsCond(W->getCond());
  if (const auto *D = dyn_cast<DoStmt>(P))
    return IsCond(D->getCond());
  if (const auto *F = dyn_cast<ForStmt>(P))
    return IsCond(F->getCond());
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->getOpcode() != BO_Comma ||
           BO->getRHS()->IgnoreParenCasts() == CE;
  return isa<Expr>(P) || isa<DeclStmt>(P);
}

/// Does this put drop the one count the path holds on an object it created
/// (rule fresh-object-init or created-atomic-count) and still owns alone (not
/// stored, returned or handed over)? Then it returns true.
static bool dropsLastCreatedCount(const CallEvent &Call,
                                  ProgramStateRef State) {
  if (!ruleEnabled(RuleId::CreatedLastPut))
    return false;
  const LifetimeAPI *API =
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  if (!API || API->Op != LifeOp::Release || !followsCount(Call, *API, State))
    return false;
  const RefEntry *E = counterRef(Call, *API, State);
  return E && E->isOwned() && E->Count == 1 && E->Acquirer &&
         E->Acquirer->InitsFresh;
}

bool RefcountModel::evalCall(const CallEvent &Call, CheckerContext &C) const {
  if (evalUnevaluatedCall(Call, C) || evalAsmGotoCall(Call, C))
    return true;
  CountCall CC = decodeCountCall(Call);
  if (!CC)
    return false;
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!CE)
    return false;
  const LocationContext *LCtx = C.getLocationContext();
  ProgramStateRef State = C.getState();
  SValBuilder &SVB = C.getSValBuilder();
  const MemRegion *Ctr = CC.Counter;
  const CountAPI &API = *CC.API;
  std::string Callee = Call.getCalleeIdentifier()->getName().str() + "()";
  std::string CtrName =
      describeCounterArg(Call.getArgExpr(API.CounterArg), Ctr,
                         C.getSourceManager(), C.getLangOpts());

  auto bindResult = [&](ProgramStateRef S, SVal V) {
    if (CE->getType()->isVoidType())
      return S;
    return S->BindExpr(CE, LCtx, V);
  };
  auto truth = [&](bool B) -> SVal {
    QualType T = CE->getType();
    if (T->isVoidType())
      return UndefinedVal();
    return SVB.makeIntVal(B ? 1 : 0, T);
  };

  switch (API.Op) {
  case CountOp::Init: {
    bool IsZero = false;
    if (API.ValueArg) {
      SVal V = Call.getArgSVal(*API.ValueArg);
      IsZero = V.isZeroConstant();
    }
    if (Ctr) {
      SymbolRef Obj = ownerSymbol(Ctr);
      // An atomic_t zeroed while its object is still this path's fresh
      // allocation counts memberships from zero; refcount_t/kref warn on an
      // increment from zero, so for them it stays a plain SetZero.
      bool Private = IsZero && API.Family == CounterFamily::Atomic && Obj &&
                     isZeroFilled(State, Obj);
      State = setCountState(
          State, Ctr,
          IsZero ? CountState::zero(Private ? CountState::Why::SetZeroPrivate
                                            : CountState::Why::SetZero)
                 : CountState::held(CountState::Why::Init));
      if (Obj)
        State = forgetZeroFilled(State, Obj);
    }
    State = bindResult(State, conjureCallResult(Call, C));
    C.addTransition(State, IsZero && Ctr
                               ? counterNote(C, Ctr,
                                             "The count of '" + CtrName +
                                                 "' is set to zero")
                               : nullptr);
    return true;
  }
  case CountOp::Get: {
    if (Ctr) {
      const CountState *CS = getCountState(State, Ctr);
      // After a get on a zero count (reported) the path holds just that one.
      // After a helper's put of a count the path never took (rule
      // caller-count-survives), the get gives that count back, on top of
      // the caller's, as it does on top of a borrowed reference.
      CountState Now = CountState::held(CountState::Why::Get);
      if (!CS || (CS->isZero() && CS->untaken() &&
                  !ruleEnabled(RuleId::GivenReferenceSinglePut) &&
                  ruleEnabled(RuleId::CallerCountSurvives)))
        Now = Now.withExtraGet(); // on top of a borrowed reference
      else if (CS->isHeld())
        Now = CS->withExtraGet();
      State = setCountState(State, Ctr, Now);
      if (SymbolRef Obj = ownerSymbol(Ctr))
        State = forgetZeroFilled(State, Obj);
    }
    C.addTransition(bindResult(State, conjureCallResult(Call, C)));
    return true;
  }
  case CountOp::Put: {
    if (Ctr)
      State = returnExtraOrForget(State, Ctr);
    C.addTransition(bindResult(State, conjureCallResult(Call, C)));
    return true;
  }
  case CountOp::Read: {
    SVal V = conjureCallResult(Call, C);
    // `WARN_ON(!atomic_read(&kn->count)); atomic_inc(&kn->count);` is the
    // textbook get with an assertion, not a check-then-get.
    bool Asserted =
        inAssertion(CE->getBeginLoc(), C.getSourceManager(), C.getLangOpts());
    const CountState *CS = Ctr ? getCountState(State, Ctr) : nullptr;
    bool Holds = CS && CS->isHeld();
    if (Holds) {
      // The reference this path holds is counted: the read is not zero
      // (`refcount_inc(&c); ...; if (refcount_read(&c)) refcount_dec(&c);`).
      if (auto NL = V.getAs<NonLoc>()) {
        SValBuilder &SVB = C.getSValBuilder();
        SVal NonZero = SVB.evalBinOpNN(
            State, BO_NE, *NL, SVB.makeZeroVal(CE->getType()).castAs<NonLoc>(),
            SVB.getConditionType());
        if (auto DV = NonZero.getAs<DefinedOrUnknownSVal>())
          if (ProgramStateRef Held = State->assume(*DV, true))
            State = Held;
      }
    } else if (Ctr && !Asserted) {
      if (SymbolRef Sym = V.getAsSymbol())
        State = setUnownedRead(State, Ctr, Sym);
    }
    C.addTransition(bindResult(State, V),
                    Ctr && !Asserted && !Holds
                        ? counterNote(C, Ctr,
                                      "The count of '" + CtrName +
                                          "' is read here without holding a "
                                          "reference of this path")
                        : nullptr);
    return true;
  }
  case CountOp::TryGet: {
    ProgramStateRef Ok = bindResult(State, truth(true));
    ProgramStateRef Failed = bindResult(State, truth(false));
    if (Ctr) {
      Ok = setCountState(Ok, Ctr, CountState::held(CountState::Why::TryGetOk));
      Failed = setCountState(Failed, Ctr,
                             CountState::zero(CountState::Why::TryGetFailed));
    }
    C.addTransition(Ok, Ctr ? counterNote(C, Ctr,
                                          "The call to " + Callee +
                                              " succeeded: this path "
                                              "holds a reference")
                            : nullptr);
    C.addTransition(Failed, Ctr ? counterNote(C, Ctr,
                                              "The call to " + Callee +
                                                  " failed: the count of '" +
                                                  CtrName + "' is zero")
                                : nullptr);
    return true;
  }
  case CountOp::PutTest:
  case CountOp::PutLock: {
    // Putting back a reference this path added on top of another cannot
    // drop the count to zero.
    if (Ctr)
      if (const CountState *CS = getCountState(State, Ctr))
        if (CS->isHeld() && CS->extraGets()) {
          State = returnExtraOrForget(State, Ctr);
          C.addTransition(bindResult(State, truth(false)));
          return true;
        }
    ProgramStateRef HitZero = bindResult(State, truth(true));
    ProgramStateRef NotZero = bindResult(State, truth(false));
    // A release that sets the count again or defers the free (`calls:
    // non-freeing-releases`) leaves a count no one can tell.
    bool Rearms = API.ReleaseArg && Call.getNumArgs() > *API.ReleaseArg &&
                  putstyle::isNonFreeingRelease(putstyle::releaseCallback(
                      Call.getArgExpr(*API.ReleaseArg)));
    if (Ctr) {
      CountState Zero = putOfUntakenCount(State, Ctr, CE, C)
                            ? CountState::hitZeroUntakenIn(C.getStackFrame())
                            : CountState::hitZeroIn(C.getStackFrame());
      HitZero = Rearms ? forgetCountState(HitZero, Ctr)
                       : setCountState(HitZero, Ctr, Zero);
      NotZero = forgetCountState(NotZero, Ctr);
    }
    // *_dec_and_lock returns with the lock held when the count hit zero.
    if (API.Op == CountOp::PutLock && API.LockArg)
      HitZero =
          addHeldLock(HitZero, Call.getArgSVal(*API.LockArg).getAsRegion());
    std::string Note =
        "The count of '" + CtrName + "' drops to zero in " + Callee;
    // A tested kref_put() that returned true ran its release callback: the
    // object is freed for the rest of this function (rule release-ran).
    const FunctionDecl *Release = nullptr;
    if (Ctr && API.ReleaseArg && Call.getNumArgs() > *API.ReleaseArg &&
        ruleEnabled(RuleId::ReleaseRan) &&
        resultTested(CE, LCtx->getParentMap()) &&
        putstyle::releaseCallbackFrees(Call.getArgExpr(*API.ReleaseArg),
                                       Release)) {
      HitZero =
          markReleaseRan(HitZero, Ctr, {Ctr, C.getStackFrame(), CE, Release});
      Note += ", which returns true: " +
              (Release ? Release->getName().str() + "()"
                       : std::string("the release callback")) +
              " ran and freed the object";
    }
    C.addTransition(HitZero, Ctr ? counterNote(C, Ctr, Note) : nullptr);
    // The last count of an object this path created and never published
    // drops to zero: nobody else can hold one, and the path on which it
    // does not is the analyzer's split (rule created-last-put: no leak is
    // reported on it).
    if (dropsLastCreatedCount(Call, State))
      NotZero = markCreatedCountKept(NotZero);
    C.addTransition(NotZero);
    return true;
  }
  }
  return false;
}
