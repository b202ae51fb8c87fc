//===- LifetimeModel.cpp - refcount.LifetimeModel: who holds references ---===//
//
// Hidden modeling checker of refcount.Leak, refcount.Underflow and
// refcount.UseAfterPut. Every call it sees gets one contract
// (Contracts.h: annotations, the model files, the naming rules), and the
// model applies the contract; it never reads a callee's name. Per (object,
// count family) it tracks what this path holds (LifetimeState.h has the
// state diagram):
//
//   +1 result (of_find_*, bus_find_device)      -> Owned(1), new reference
//   get on a pointer (get_device, of_node_get)  -> Owned(n+1)
//   put with Owned(n > 1)                       -> Owned(n-1)
//   put with Owned(1)                           -> Released
//   put of a pointer this path never got        -> BorrowedPut
//   iterator step (of_get_next_child(p, prev))  -> put prev, +1 result
//   failure per the contract (NULL, ERR_PTR via IS_ERR(), negative errno)
//                                               -> nothing acquired
//   consumed, kept or given up per the contract, returned, stored into
//   memory outliving the function              -> Escaped
//   pointer dies while Owned: a new reference leaks now (refcount.Leak); a
//   get on a pointer the caller passed is Lost, and leaks only if the
//   function returns an error (its undo contract).
//
// The callbacks below dispatch to the parts listed in LifetimeModelImpl.h.
// Every assumption beyond the contracts is a named rule of Rules.def, with
// an option to turn it off and a count of how often it fired.
//
//===----------------------------------------------------------------------===//

#include "LifetimeModel.h"
#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "RefcountModel.h"
#include "Rules.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

bool krefcheck::isLifetimeReport(PathSensitiveBugReport &BR) {
  StringRef N = BR.getBugType().getCheckerName();
  if (BR.getBugType().getDescription() == UseAfterReleaseBugName)
    return false;
  return N == "refcount.Leak" || N == "refcount.Underflow" ||
         N == "refcount.UseAfterPut";
}

void krefcheck::markRefInteresting(PathSensitiveBugReport &BR,
                                   const RefKey &K) {
  BR.markInteresting(K.Region);
  if (const auto *SR = dyn_cast<SymbolicRegion>(K.Region))
    BR.markInteresting(SR->getSymbol());
}

static bool isInterestingRef(PathSensitiveBugReport &BR, const MemRegion *R) {
  if (BR.isInteresting(R))
    return true;
  if (const auto *SR = dyn_cast<SymbolicRegion>(R))
    return BR.isInteresting(SR->getSymbol());
  return false;
}

/// MemRegion::getMemorySpace() takes the state since LLVM 21.
const MemSpaceRegion *lifetime::memorySpace(const MemRegion *R,
                                            ProgramStateRef State) {
#if LLVM_VERSION_MAJOR >= 21
  return R->getMemorySpace(State);
#else
  (void)State;
  return R->getMemorySpace();
#endif
}

/// The text of a get/put argument (`&pdev->dev`) for messages.
std::string lifetime::exprText(const Expr *E, CheckerContext &C) {
  if (!E)
    return "";
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return "'" + DRE->getDecl()->getName().str() + "'";
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, PrintingPolicy(C.getLangOpts()));
  if (S.size() > 40)
    return "";
  return "'" + S + "'";
}

const NoteTag *
lifetime::refNote(CheckerContext &C, const MemRegion *R, Family F,
                  std::string Fallback,
                  std::function<std::string(const std::string &)> Msg) {
  return C.getNoteTag(
      [R, F, Fallback, Msg](PathSensitiveBugReport &BR) -> std::string {
        if (!isLifetimeReport(BR) || !isInterestingRef(BR, R))
          return "";
        std::string Name = Fallback;
        if (const RefEntry *E =
                getRef(BR.getErrorNode()->getState(), makeRefKey(R, F)))
          if (E->Var)
            Name = describeRef(makeRefKey(R, F), *E);
        if (Name.empty())
          Name = "the object";
        return Msg(Name);
      });
}

/// Whether the path knows the pointer R is NULL, also through a stored
/// comparison (`bool b = !!(!p); if (b)`, as WARN_ONCE() expands), whose
/// constraint the analyzer keeps on the comparison, not on `p`, or because
/// it was looked up from a node that is NULL (`pctlnp = of_get_parent(np);
/// if (!np || !pctlnp) return -ENODEV;`).
bool lifetime::knownNull(ProgramStateRef State, const MemRegion *R,
                         CheckerContext &C, unsigned Depth) {
  loc::MemRegionVal V(R);
  if (State->isNull(V).isConstrainedTrue())
    return true;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!SR || SR != R)
    return false;
  if (const MemRegion *Arg = nullWithArg(State, SR->getSymbol()))
    if (Depth < 4 && knownNull(State, Arg, C, Depth + 1))
      return true;
  SValBuilder &SVB = C.getSValBuilder();
  QualType T = SR->getSymbol()->getType();
  if (!T->isPointerType())
    return false;
  SVal Eq = SVB.evalBinOp(State, BO_EQ, V, SVB.makeNullWithType(T),
                          SVB.getConditionType());
  auto DV = Eq.getAs<DefinedOrUnknownSVal>();
  return DV && !State->assume(*DV, false);
}

/// `(void *)(skb->_nfct & NFCT_PTRMASK)` after `dst->_nfct = skb->_nfct`:
/// the analyzer leaves an integer-to-pointer cast of a symbolic word
/// unknown, so give it a pointer symbol and carry the "stored" mark of the
/// word over to it (a get on it is then the reference of the object the
/// word was stored into).
void lifetime::noteStoredWordCast(const CastExpr *CE, CheckerContext &C) {
  ProgramStateRef State = C.getState();
  SymbolRef Word = C.getSVal(CE->getSubExpr()).getAsSymbol();
  if (!Word || !isStored(State, Word))
    return;
  SVal V = C.getSVal(CE);
  if (V.isUnknown()) {
    V = conjureExprValue(CE, CE->getType(), C);
    State = State->BindExpr(CE, C.getLocationContext(), V);
  }
  SymbolRef Ptr = V.getAsLocSymbol();
  if (!Ptr)
    Ptr = V.getAsSymbol();
  if (Ptr)
    State = markStored(State, Ptr);
  C.addTransition(State);
}

/// `get_device(parent->dev)` after `type->parent = parent`: `parent` may
/// die before the get, so remember the field read while it is live (rule
/// stored-linked-get). Returns whether it added a transition.
bool lifetime::noteFieldReadOfStored(const CastExpr *CE, CheckerContext &C) {
  if (!CE->getType()->isPointerType())
    return false;
  ProgramStateRef State = C.getState();
  ProgramStateRef New = noteReadOutOfStored(State, C.getSVal(CE).getAsSymbol());
  if (New == State)
    return false;
  C.addTransition(New);
  return true;
}

namespace {

class LifetimeModel
    : public Checker<eval::Call, eval::Assume, check::PreCall, check::PostCall,
                     check::PreStmt<ReturnStmt>, check::PreStmt<GCCAsmStmt>,
                     check::PostStmt<CastExpr>, check::PostStmt<CallExpr>,
                     check::Bind, check::PointerEscape, check::LiveSymbols,
                     check::DeadSymbols, check::EndFunction, check::EndAnalysis,
                     check::EndOfTranslationUnit> {
public:
  const LeakReporter *Leak = nullptr;

  bool evalCall(const CallEvent &Call, CheckerContext &C) const;
  ProgramStateRef evalAssume(ProgramStateRef State, SVal Cond,
                             bool Assumption) const {
    State = pruneNullHeldFields(State);
    if (!State)
      return nullptr;
    if (hasRefs(State)) {
      State = refuteFreshEqualsLoaded(State, Cond, Assumption);
      if (!State)
        return nullptr;
    }
    return ruleEnabled(RuleId::ProvenEqual)
               ? noteProvenEqual(State, Cond, Assumption)
               : State;
  }
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const {
    if (!inUnevaluatedOperand(Call, C))
      handOverArguments(Call, C, freedNotPut(Call, C, Leak));
  }
  void checkPostCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPreStmt(const ReturnStmt *RS, CheckerContext &C) const {
    noteReturn(RS, C);
  }
  void checkPostStmt(const CastExpr *CE, CheckerContext &C) const;
  void checkPreStmt(const GCCAsmStmt *AS, CheckerContext &C) const {
    noteAsm(AS, C);
  }
  void checkPostStmt(const CallExpr *CE, CheckerContext &C) const {
    ProgramStateRef State = C.getState();
    ProgramStateRef New = settleNeighbourCall(State, CE, C.getSVal(CE));
    if (New != State)
      C.addTransition(New);
  }
  void checkBind(SVal Loc, SVal Val, const Stmt *S, CheckerContext &C) const {
    noteBind(Loc, Val, C);
  }
#if LLVM_VERSION_MAJOR >= 22
  void checkBind(SVal Loc, SVal Val, const Stmt *S, bool AtDeclInit,
                 CheckerContext &C) const {
    noteBind(Loc, Val, C);
  }
#endif
  ProgramStateRef checkPointerEscape(ProgramStateRef State,
                                     const InvalidatedSymbols &Escaped,
                                     const CallEvent *Call,
                                     PointerEscapeKind Kind) const {
    return escapeSymbols(State, Escaped, Call, Kind);
  }
  void checkLiveSymbols(ProgramStateRef State, SymbolReaper &SR) const {
    keepSameResultsAlive(State, SR);
  }
  void checkDeadSymbols(SymbolReaper &SR, CheckerContext &C) const;
  void checkEndFunction(const ReturnStmt *RS, CheckerContext &C) const;
  void checkEndAnalysis(ExplodedGraph &G, BugReporter &BR,
                        ExprEngine &Eng) const;
  void checkEndOfTranslationUnit(const TranslationUnitDecl *TU,
                                 AnalysisManager &Mgr, BugReporter &BR) const;
  void printState(raw_ostream &Out, ProgramStateRef State, const char *NL,
                  const char *Sep) const override;
};

} // namespace

bool LifetimeModel::evalCall(const CallEvent &Call, CheckerContext &C) const {
  const CallContract &K = contractFor(Call);
  // refcount.Model evaluates a call in an operand the code never runs.
  if (K.isIndirect() || K.Name.empty() ||
      !isa_and_nonnull<CallExpr>(Call.getOriginExpr()) ||
      inUnevaluatedOperand(Call, C))
    return false;
  switch (K.Role) {
  case CallRole::ErrTest:
    return evalIsErr(Call, C, false);
  case CallRole::ErrOrNullTest:
    return evalIsErr(Call, C, true);
  case CallRole::ErrValue:
    return evalPtrErr(Call, C);
  case CallRole::AcpiNodeTest:
    return evalAcpiTest(Call, C);
  case CallRole::SameResult:
    return evalSameResult(Call, C);
  case CallRole::IntegrityCheck:
    return evalIntegrityCheck(Call, C);
  default:
    break;
  }
  const LifetimeAPI *API = K.API;
  if (!K.changesCount() || API->Observe)
    return false;
  if (isAcpiFwnodeWalk(*API, Call, C))
    return false;
  int NArgs = Call.getNumArgs();
  if (API->RefArg >= NArgs || API->ConsumedArg >= NArgs)
    return false;
  if (API->RefArg >= 0 &&
      !Call.getArgExpr(API->RefArg)->getType()->isPointerType())
    return false;
  if (API->RefArg == RetVal && !Call.getResultType()->isPointerType())
    return false;
  // device_initialize() on memory the path did not allocate: a count this
  // path does not follow (the engine evaluates the call).
  if (API->InitsFresh && !initCreatesObject(Call, *API, C.getState()))
    return false;
  applyCall(Call, *API, C, /*Evaluate=*/true);
  return true;
}

void LifetimeModel::checkPostCall(const CallEvent &Call,
                                  CheckerContext &C) const {
  if (inUnevaluatedOperand(Call, C))
    return;
  // kref_* and refcount_* are evaluated by refcount.Model: observe them.
  const CallContract &K = contractFor(Call);
  const LifetimeAPI *API = K.API;
  if (!K.changesCount()) {
    // Both state updates chain: the given puts the call was passed are
    // forgotten once it returns (rule given-reference-single-put), then the
    // held counts an uninlined body puts (rule uninlined-body-puts); views
    // are noted only when the latter changed nothing, as before.
    ProgramStateRef State =
        forgetPassedGivenPuts(Call, K, C.getState(), C.wasInlined);
    if (SymbolRef Named = namedObject(Call, K))
      State = noteNamingResult(State, Named, Call.getReturnValue());
    if (storeOnSuccess(Call, K, State, C))
      return;
    bool Added = false;
    if (!API) {
      ProgramStateRef After = forgetCountsPutOutOfSight(State, Call, C);
      if (After != State)
        State = After;
      else
        Added = noteViews(Call, K, C, State);
    }
    if (!Added && State != C.getState())
      C.addTransition(State);
    return;
  }
  if (!API->Observe)
    return;
  if (!followsCount(Call, *API, C.getState()))
    return;
  if (API->RefArg >= (int)Call.getNumArgs() ||
      !Call.getArgExpr(API->RefArg)->getType()->isPointerType())
    return;
  if (API->Fail == Failure::Zero) {
    // refcount.Model split the result into concrete 0 / 1: acquire on the
    // non-zero one.
    if (Call.getReturnValue().isZeroConstant())
      return;
    const MemRegion *R = refRegion(Call.getArgSVal(API->RefArg));
    if (!R || ownedByBit(Call.getOriginExpr(), C))
      return;
    C.addTransition(acquire(C.getState(), R, *API, Call.getOriginExpr(),
                            Call.getArgExpr(API->RefArg),
                            symbolWatermark(Call.getOriginExpr(), C)));
    return;
  }
  if (API->InitsFresh && !initCreatesObject(Call, *API, C.getState()))
    return;
  applyCall(Call, *API, C, /*Evaluate=*/false);
}

void LifetimeModel::checkPostStmt(const CastExpr *CE, CheckerContext &C) const {
  if (CE->getCastKind() == CK_LValueToRValue) {
    // A handle's `dev`, a field read out of a stored pointer, or a loop
    // bound or table (the table case needs a global's field, the others a
    // symbolic base): each adds at most one transition.
    if (!noteHandleDevice(CE, C) && !noteFieldReadOfStored(CE, C))
      constrainStaticBound(CE, C);
    return;
  }
  if (CE->getCastKind() == CK_IntegralToPointer)
    noteStoredWordCast(CE, C);
}

/// An object an `__init` function creates (`kobject_create_and_add()`) and
/// keeps when it succeeds is meant to live until shutdown (a permanent sysfs
/// directory): its reference is not a leak on success. A lookup's reference
/// (`of_find_node_by_path()`) still is, and so is either on failure.
static bool createdForever(const RefEntry &E, CheckerContext &C) {
  if (!E.Acquirer || !E.Acquirer->Creates)
    return false;
  const LocationContext *Top = C.getLocationContext();
  while (Top->getParent())
    Top = Top->getParent();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Top->getDecl());
  const auto *SA = FD ? FD->getAttr<SectionAttr>() : nullptr;
  return SA && SA->getName().starts_with(".init.") &&
         applyRule(RuleId::InitPermanent);
}

void LifetimeModel::checkDeadSymbols(SymbolReaper &SR,
                                     CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  ProgramStateRef New = removeDeadInstalledReleases(State, SR);
  New = removeDeadNeighbours(
      removeDeadSameResults(
          removeDeadNullWithArg(
              removeDeadErrPtrs(
                  removeDeadFieldCopies(
                      removeDeadConverted(
                          removeDeadProvenEqual(removeDeadStored(New, SR), SR),
                          SR),
                      SR),
                  SR),
              SR),
          SR),
      SR);
  SmallVector<std::pair<RefKey, RefEntry>, 2> Leaks;
  for (const auto &KV : allRefs(State)) {
    const MemRegion *R = KV.first.Region;
    if (SR.isLiveRegion(R))
      continue;
    const RefEntry &E = KV.second;
    if (E.K == RefEntry::Kind::Lost || E.Registered ||
        (E.MayBeKept && ruleEnabled(RuleId::OpaqueCallMayKeep)))
      continue;
    if (E.K != RefEntry::Kind::Owned) {
      // A put through a pointer from a call or a re-read field outlives
      // the pointer: a later get through another such pointer may give
      // the count back (rule unknown-get-target).
      // So may one stored in a live field before the put (`th->dev = dev;
      // pm_runtime_put(dev); ...; pm_runtime_get_sync(th->dev)` in a
      // helper, after `dev` itself died: rule field-copy-identity).
      if (!(E.K == RefEntry::Kind::BorrowedPut &&
            (mayBeNamedAgain(R) || storedInLiveField(State, R, SR))) &&
          !(inManagedContainer(E) && !knownNull(State, R, C)))
        New = removeRef(New, KV.first);
      continue;
    }
    // `adapter = i2c_verify_adapter(dev)`: the reference lives on as
    // `adapter` (reported when that dies, unless it is returned).
    if (hasLiveConversion(State, R->getBaseRegion(), SR))
      continue;
    if (knownNull(State, R, C)) {
      New = removeRef(New, KV.first);
      continue;
    }
    // A register call's first reference on memory the caller gave
    // (rule given-object-registered) outlives the pointer: the function
    // may still return that call's status as its own (a wrapper,
    // `return device_register(dev);`), which leaves the put to its caller.
    if (E.isNewReference() && !createdForever(E, C) &&
        !isGivenRegistered(R, E)) {
      Leaks.push_back(KV);
      New = removeRef(New, KV.first);
    } else {
      New = setRef(New, KV.first, E.lost());
    }
  }
  if (New == State)
    return;
  ExplodedNode *N = C.getPredecessor();
  if (!Leaks.empty() && Leak) {
    N = C.generateNonFatalErrorNode(State);
    if (N)
      Leak->reportLeaks(C, N, Leaks);
    else
      N = C.getPredecessor();
  }
  C.addTransition(New, N);
}

void LifetimeModel::checkEndFunction(const ReturnStmt *RS,
                                     CheckerContext &C) const {
  if (!C.inTopFrame())
    return;
  ProgramStateRef State = C.getState();
  PathError PE = returnsError(State);
  bool Err = PE != PathError::None;
  if (Err)
    State = freeManagedContainers(State);
  SmallVector<std::pair<RefKey, RefEntry>, 2> Leaks;
  ProgramStateRef New = State;
  for (const auto &KV : allRefs(State)) {
    const RefEntry &E = KV.second;
    New = removeRef(New, KV.first);
    if (E.K != RefEntry::Kind::Owned && E.K != RefEntry::Kind::Lost)
      continue;
    if (knownNull(State, KV.first.Region, C))
      continue;
    // The registration keeps it: the function succeeded (or returns
    // nothing it could fail with).
    if (E.Registered && !Err)
      continue;
    if ((!E.isNewReference() || createdForever(E, C)) && !Err &&
        !E.HeldAtCalleeError)
      continue;
    if (isGivenRegistered(KV.first.Region, E) &&
        failurePassedThrough(C.getPredecessor(), E))
      continue;
    // A function that may have kept the object returned, and so does
    // this one: success (rule opaque-call-may-keep). Another call's nonzero
    // status does not undo that keep; only a known error, or the keeper's
    // own failure (rule keeper-failed), does.
    if (E.MayBeKept && PE != PathError::Known &&
        applyRule(RuleId::OpaqueCallMayKeep))
      continue;
    Leaks.push_back(KV);
  }
  if (Leaks.empty() || !Leak)
    return;
  ExplodedNode *N = C.generateNonFatalErrorNode(State);
  if (!N)
    return;
  Leak->reportLeaks(C, N, Leaks);
}

void LifetimeModel::checkEndAnalysis(ExplodedGraph &G, BugReporter &,
                                     ExprEngine &) const {
  countExplodedNodes(G.size());
}

void LifetimeModel::checkEndOfTranslationUnit(const TranslationUnitDecl *TU,
                                              AnalysisManager &Mgr,
                                              BugReporter &BR) const {
  const SourceManager &SM = Mgr.getSourceManager();
  printRuleStats(llvm::errs(),
                 SM.getFilename(SM.getLocForStartOfFile(SM.getMainFileID())));
}

void LifetimeModel::printState(raw_ostream &Out, ProgramStateRef State,
                               const char *NL, const char *Sep) const {
  printLifetimeFacts(Out, State, NL);
}

void krefcheck::attachLeakReporter(CheckerManager &Mgr, const LeakReporter *R) {
  Mgr.getChecker<LifetimeModel>()->Leak = R;
}

void registerLifetimeModel(CheckerManager &Mgr) {
  Mgr.registerChecker<LifetimeModel>();
}
