//===- RefcountModel.cpp - refcount.Model: state transfer -----------------===//
//
// The hidden modeling checker every refcount checker depends on. It owns the
// program-state facts of CountState.h and writes them; the diagnostic
// checkers only read them (in checkPreCall, before this checker evaluates the
// call) and report. Counting APIs are evaluated here by name (eval::Call), so
// the kernel's inline bodies never matter.
//
//   kref_init / *_set(c, n)   -> Held (n != 0) or Zero (n == 0)
//   kref_get / *_inc          -> Held
//   *_inc_not_zero            -> split: 1 => Held, 0 => Zero
//   *_dec_and_test, kref_put  -> split: 1 => Zero, 0 => fact forgotten
//   *_dec_and_lock            -> split: 1 => Zero + lock held, 0 => forgotten
//   *_read                    -> a fresh value, remembered when the path holds
//                                no reference (a check-then-get may follow),
//                                not zero when it holds one
//   kzalloc & co              -> object zero-filled until its count is set
//   idr_find, container_of over a list node, rcu_dereference
//                             -> object is an internal reference
//
//===----------------------------------------------------------------------===//

#include "RefcountModel.h"
#include "Compat.h"
#include "CountState.h"
#include "CounterKey.h"
#include "InternalRefs.h"
#include "LockModel.h"
#include "ModelFile.h"
#include "clang/AST/ParentMap.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"

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

namespace {

/// The model's `calls: zero-filled-allocators`.
bool isZeroFillingAllocator(StringRef Name) {
  return activeModel().Calls.ZeroFilledAllocators.contains(Name);
}

class RefcountModel
    : public Checker<eval::Call, check::PostCall, check::PostStmt<CastExpr>,
                     check::PostStmt<BinaryOperator>, check::Location,
                     check::Bind, check::PointerEscape, check::LiveSymbols,
                     check::DeadSymbols> {
public:
  bool evalCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPostCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPostStmt(const CastExpr *CE, CheckerContext &C) const;
  void checkPostStmt(const BinaryOperator *BO, CheckerContext &C) const;
  void checkLocation(SVal Loc, bool IsLoad, const Stmt *S,
                     CheckerContext &C) const;
  void checkBind(SVal Loc, SVal Val, const Stmt *S, CheckerContext &C) const;
#if LLVM_VERSION_MAJOR >= 22
  void checkBind(SVal Loc, SVal Val, const Stmt *S, bool AtDeclInit,
                 CheckerContext &C) const {
    checkBind(Loc, Val, S, C);
  }
#endif
  ProgramStateRef checkPointerEscape(ProgramStateRef State,
                                     const InvalidatedSymbols &Escaped,
                                     const CallEvent *Call,
                                     PointerEscapeKind Kind) const;
  void checkLiveSymbols(ProgramStateRef State, SymbolReaper &SR) const;
  void checkDeadSymbols(SymbolReaper &SR, CheckerContext &C) const;
  void printState(raw_ostream &Out, ProgramStateRef State, const char *NL,
                  const char *Sep) const override;

private:
  /// A note shown only in refcount reports that care about Counter.
  const NoteTag *counterNote(CheckerContext &C, const MemRegion *Counter,
                             std::string Msg) const;
  const NoteTag *objectNote(CheckerContext &C, SymbolRef Obj,
                            std::string Msg) const;
  void markOrigin(CheckerContext &C, SVal V, InternalOrigin O,
                  StringRef What) const;
};

bool isRefcountReport(PathSensitiveBugReport &BR) {
  return BR.getBugType().getCheckerName().starts_with("refcount.");
}

const NoteTag *RefcountModel::counterNote(CheckerContext &C,
                                          const MemRegion *Counter,
                                          std::string Msg) const {
  return C.getNoteTag(
      [Counter, Msg](PathSensitiveBugReport &BR) -> std::string {
        if (!isRefcountReport(BR) || !BR.isInteresting(Counter))
          return "";
        return Msg;
      });
}

const NoteTag *RefcountModel::objectNote(CheckerContext &C, SymbolRef Obj,
                                         std::string Msg) const {
  return C.getNoteTag([Obj, Msg](PathSensitiveBugReport &BR) -> std::string {
    if (!isRefcountReport(BR) || !BR.isInteresting(Obj))
      return "";
    return Msg;
  });
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

bool RefcountModel::evalCall(const CallEvent &Call, CheckerContext &C) const {
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
      CountState Now = CountState::held(CountState::Why::Get);
      if (!CS)
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
    if (Ctr) {
      HitZero =
          setCountState(HitZero, Ctr, CountState::hitZeroIn(C.getStackFrame()));
      NotZero = forgetCountState(NotZero, Ctr);
    }
    // *_dec_and_lock returns with the lock held when the count hit zero.
    if (API.Op == CountOp::PutLock && API.LockArg)
      HitZero =
          addHeldLock(HitZero, Call.getArgSVal(*API.LockArg).getAsRegion());
    C.addTransition(HitZero,
                    Ctr ? counterNote(C, Ctr,
                                      "The count of '" + CtrName +
                                          "' drops to zero in " + Callee)
                        : nullptr);
    C.addTransition(NotZero);
    return true;
  }
  }
  return false;
}

void RefcountModel::markOrigin(CheckerContext &C, SVal V, InternalOrigin O,
                               StringRef What) const {
  const MemRegion *R = V.getAsRegion();
  if (!R)
    return;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()->StripCasts());
  if (!SR)
    return;
  SymbolRef Obj = SR->getSymbol();
  ProgramStateRef State = C.getState();
  if (getInternalOrigin(State, Obj)) {
    // Found again by a later walk: see forgetFailedTryGets().
    ProgramStateRef New = forgetFailedTryGets(State, Obj);
    if (New != State)
      C.addTransition(New);
    return;
  }
  State = markInternal(State, Obj, O);
  std::string Msg =
      "Internal reference obtained from " + describeOrigin(O).str() +
      (What.empty() ? "" : (" (" + What + ")").str()) + ": it holds no count";
  C.addTransition(State, objectNote(C, Obj, Msg));
}

void RefcountModel::checkPostCall(const CallEvent &Call,
                                  CheckerContext &C) const {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II)
    return;
  StringRef Name = II->getName();

  SmallVector<ProgramStateRef, 2> LockStates = applyLockCall(Call, C);
  if (!LockStates.empty()) {
    for (ProgramStateRef S : LockStates)
      C.addTransition(S);
    return;
  }

  if (std::optional<InternalOrigin> O = lookupCallOrigin(Name)) {
    markOrigin(C, Call.getReturnValue(), *O, (Name + "()").str());
    return;
  }

  if (isZeroFillingAllocator(Name)) {
    SymbolRef Obj = Call.getReturnValue().getAsSymbol();
    if (!Obj)
      return;
    C.addTransition(
        markZeroFilled(C.getState(), Obj),
        objectNote(C, Obj,
                   "Object allocated zero-filled by " + Name.str() +
                       "(): its counts are zero until initialized"));
  }
}

void RefcountModel::checkPostStmt(const CastExpr *CE, CheckerContext &C) const {
  // The analyzer runs no checker callbacks on a StmtExpr itself, so the
  // value of container_of()/rcu_dereference() is caught at the cast that ends
  // their statement expression: `({ ...; ((type *)(__mptr - off)); })`.
  if (!isa<CStyleCastExpr>(CE) || !CE->getBeginLoc().isMacroID())
    return;
  if (const Expr *Lock =
          assertedHeldLock(CE, C.getSourceManager(), C.getLangOpts())) {
    ProgramStateRef State = C.getState();
    ProgramStateRef New = addHeldLock(State, C.getSVal(Lock).getAsRegion());
    if (New != State)
      C.addTransition(New);
    return;
  }
  if (!CE->getType()->isPointerType())
    return;
  const ParentMap &PM = C.getLocationContext()->getParentMap();
  const Stmt *Child = CE;
  const Stmt *P = PM.getParent(Child);
  while (isa_and_nonnull<ParenExpr>(P)) {
    Child = P;
    P = PM.getParent(P);
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(P);
  if (!Body || Body->body_empty() || Body->body_back() != Child)
    return;
  const auto *SE = dyn_cast_or_null<StmtExpr>(PM.getParent(Body));
  if (!SE)
    return;
  std::optional<InternalOrigin> O =
      statementExprOrigin(SE, C.getSourceManager(), C.getLangOpts());
  if (!O)
    return;
  markOrigin(C, C.getSVal(CE), *O, "");
}

void RefcountModel::checkPostStmt(const BinaryOperator *BO,
                                  CheckerContext &C) const {
  // A count read compared with a bound that is not a constant is flow
  // control (`sk_wmem_alloc_get(sk) < READ_ONCE(sk->sk_sndbuf)`: is there
  // room in the send buffer?), not a test for zero; the constraints it leaves
  // on the read say nothing about liveness.
  if (!BO->isComparisonOp())
    return;
  ProgramStateRef State = C.getState();
  SVal L = C.getSVal(BO->getLHS());
  SVal R = C.getSVal(BO->getRHS());
  // So is one with a constant far from zero: `sk_wmem_alloc_get(sk) <
  // SKB_TRUESIZE(1)` asks whether the socket has data in flight. Zero and
  // the sharing tests (`== 1`, `> 1`, `>= 2`) stay tests.
  auto isSmallConstant = [](SVal V) {
    if (V.getAs<loc::ConcreteInt>())
      return true;
    auto CI = V.getAs<nonloc::ConcreteInt>();
    if (!CI)
      return false;
    const llvm::APSInt &N = apsInt(CI->getValue());
    return N.isSigned() ? N.getSExtValue() >= -2 && N.getSExtValue() <= 2
                        : N.getZExtValue() <= 2;
  };
  ProgramStateRef New = State;
  if (!isSmallConstant(R))
    New = forgetUnownedReadsIn(New, L);
  if (!isSmallConstant(L))
    New = forgetUnownedReadsIn(New, R);
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::checkLocation(SVal Loc, bool IsLoad, const Stmt *S,
                                  CheckerContext &C) const {
  // See forgetPutsOutlivedBy(): a caller of a put that hit zero goes on
  // using the object, so that put was not the final one.
  const MemRegion *R = Loc.getAsRegion();
  ProgramStateRef State = C.getState();
  ProgramStateRef New =
      forgetPutsOutlivedBy(State, ownerSymbol(R), R, C.getStackFrame());
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::checkBind(SVal Loc, SVal Val, const Stmt *S,
                              CheckerContext &C) const {
  // A direct store into a counter (`obj->ref.refcount.refs.counter = 1`)
  // initializes it as far as we can tell.
  const MemRegion *R = Loc.getAsRegion();
  if (!R)
    return;
  const MemRegion *Ctr = nullptr;
  for (const MemRegion *Cur = R; Cur;) {
    if (const auto *FR = dyn_cast<FieldRegion>(Cur))
      if (isCounterType(FR->getDecl()->getType()))
        Ctr = counterRegionFromArg(FR);
    const auto *Sub = dyn_cast<SubRegion>(Cur);
    Cur = Sub ? Sub->getSuperRegion() : nullptr;
  }
  if (!Ctr)
    return;
  ProgramStateRef State = C.getState();
  State = Val.isZeroConstant()
              ? setCountState(State, Ctr,
                              CountState::zero(CountState::Why::SetZero))
              : forgetCountState(State, Ctr);
  if (SymbolRef Obj = ownerSymbol(Ctr))
    State = forgetZeroFilled(State, Obj);
  C.addTransition(State);
}

ProgramStateRef RefcountModel::checkPointerEscape(
    ProgramStateRef State, const InvalidatedSymbols &Escaped,
    const CallEvent *Call, PointerEscapeKind Kind) const {
  // An object handed to code we cannot see may have its count set there.
  for (SymbolRef Sym : Escaped)
    State = forgetZeroFilled(State, Sym);
  return State;
}

void RefcountModel::checkLiveSymbols(ProgramStateRef State,
                                     SymbolReaper &SR) const {
  markCountFactsLive(State, SR);
}

void RefcountModel::checkDeadSymbols(SymbolReaper &SR,
                                     CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  ProgramStateRef New = removeDeadCountFacts(State, SR);
  if (New != State)
    C.addTransition(New);
}

void RefcountModel::printState(raw_ostream &Out, ProgramStateRef State,
                               const char *NL, const char *Sep) const {
  printCountFacts(Out, State, NL);
}

} // namespace

void registerRefcountModel(CheckerManager &Mgr) {
  Mgr.registerChecker<RefcountModel>();
}
