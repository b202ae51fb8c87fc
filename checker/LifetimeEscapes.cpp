//===- LifetimeEscapes.cpp - Hand-overs of references ---------------------===//
//
// When a reference stops being the path's to drop: handed to a call whose
// contract consumes or keeps it, returned, stored into memory that outlives
// the function, or escaped the analyzer's view. The heuristics among these
// are rules of Rules.def.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <bitset>

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

/// A field of a list or tree node type (the model file's types:
/// list-nodes).
static bool isListNodeType(QualType T) {
  const auto *RT = T->getAs<RecordType>();
  return RT && RT->getDecl()->getIdentifier() &&
         activeModel().Types.ListNodes.contains(RT->getDecl()->getName());
}

/// Whether the call hands the reference over, by the effect its contract
/// gives the argument (rules name-takes-ownership, indirect-call-keeps) or
/// because the argument is a list node of the object (rule
/// list-node-handover).
static bool keeps(const CallContract &K, ArgEffect Effect, bool ListNode) {
  if (Effect == ArgEffect::Keep &&
      applyRule(K.isIndirect() ? RuleId::IndirectCallKeeps
                               : RuleId::NameTakesOwnership))
    return true;
  return ListNode && applyRule(RuleId::ListNodeHandover);
}

/// A function the analyzer cannot see into and knows nothing about (no
/// body in this TU, no model row or annotation, no naming rule, not a
/// logging call): given a created object, it may keep it (`start(sp)` that
/// queues a command whose completion puts it).
static bool mayKeep(const CallEvent &Call, const CallContract &K,
                    ArgEffect Effect) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  return FD && !FD->hasBody() && K.Source == ContractSource::None &&
         K.Role == CallRole::None && Effect == ArgEffect::None;
}

static bool bodyInTU(const CallEvent &Call) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  return FD && FD->hasBody();
}

/// The base region a reference argument stands for: a converted result or
/// a driver-data handle stands for its device.
static const MemRegion *argumentBase(ProgramStateRef State,
                                     const MemRegion *R) {
  const MemRegion *Base = R->getBaseRegion();
  if (const auto *SR = dyn_cast<SymbolicRegion>(Base))
    if (const MemRegion *Orig = convertedFrom(State, SR->getSymbol()))
      return Orig;
  return Base;
}

/// A store with a failure convention told by its result (`idr_alloc()`
/// returns a negative errno and keeps nothing when it fails): the
/// hand-over waits for the result (storeOnSuccess()).
static bool storeWaitsForResult(const CallContract &K) {
  return K.API && K.API->Op == LifeOp::Store && isIntegerFailure(K.API->Fail);
}

void lifetime::handOverArguments(const CallEvent &Call, CheckerContext &C) {
  // What a get/put does to the references it is given is evaluated
  // elsewhere (applyCall); calls that read only a pointer's value keep
  // nothing.
  const CallContract &K = contractFor(Call);
  dumpContract(Call, C);
  if (K.changesCount() || K.valueOnly())
    return;
  ProgramStateRef State = C.getState();
  // Stored into an index (idr_alloc, xa_store): a get after the store is
  // the index's count (rule stored-before-get reads the mark).
  ProgramStateRef Stored = State;
  bool WaitForResult = storeWaitsForResult(K);
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    ArgEffect Effect = K.argEffect(I);
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R || (Effect != ArgEffect::Store && Effect != ArgEffect::Keep))
      continue;
    // A callee without a body that keeps what it is given (a naming rule:
    // `list_add_tail(&w->list, &head)` before kref_init(&w->ref)) publishes
    // the object as a store does; a body shows its own stores.
    bool Publishes =
        Effect == ArgEffect::Store
            ? !WaitForResult
            : !bodyInTU(Call) &&
                  ruleEnabled(K.isIndirect() ? RuleId::IndirectCallKeeps
                                             : RuleId::NameTakesOwnership);
    if (Publishes)
      if (const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()))
        Stored = markStored(Stored, SR->getSymbol());
    // A pointer the function was given, registered or stored here before
    // any put of it: a later put may be that call's count (rule
    // given-reference-single-put). After a put, the call is a use.
    const MemRegion *Base = R->getBaseRegion();
    if (givenParam(R) && ruleEnabled(RuleId::GivenReferenceSinglePut) &&
        llvm::none_of(allRefs(State), [Base](const auto &KV) {
          return KV.first.Region->getBaseRegion() == Base &&
                 KV.second.K == RefEntry::Kind::BorrowedPut;
        }))
      Stored = markKeptGiven(Stored, R);
  }
  auto Refs = allRefs(State);
  if (Refs.empty()) {
    if (Stored != State)
      C.addTransition(Stored);
    return;
  }
  ProgramStateRef New = noteNeighbourCall(Stored, Call);
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R)
      continue;
    ArgEffect Effect = K.argEffect(I);
    if (Effect == ArgEffect::Borrow)
      continue; // Lent for the call, whatever the callee's name says.
    const MemRegion *Base = argumentBase(State, R);
    for (const auto &KV : Refs) {
      RefEntry E = KV.second;
      bool Held = E.isHeld();
      if (KV.first.Region->getBaseRegion() != Base) {
        // The runtime-PM votes on devices read out of the structure an undo
        // helper is given are what it undoes (drivers vote on an array of
        // power domains in one helper and unvote them in another).
        if (K.NameUndoesVotes && keyFamily(KV.first) == Family::PmRuntime &&
            Held && loadedOutOf(KV.first.Region->getBaseRegion()) == Base &&
            applyRule(RuleId::UndoHelperVotes)) {
          New = setRef(New, KV.first, E.escaped());
        }
        continue;
      }
      if ((Effect == ArgEffect::Consume || Effect == ArgEffect::Store) &&
          Held) {
        // Consumed: the callee owns the reference now (a store that may
        // fail: once it returned success).
        if (!(Effect == ArgEffect::Store && WaitForResult))
          New = setRef(New, KV.first, E.escaped());
        continue;
      }
      if (E.K == RefEntry::Kind::BorrowedPut) {
        // The callee may take a reference of its own: forget the put. A
        // logging call keeps nothing (so a later get can still give the
        // caller's count back: rule power-cycle). The put of a reference
        // the function was given is forgotten only once the call returns
        // (forgetPassedGivenPuts): passing the pointer is a use after that
        // put, which refcount.UseAfterPut reports before the call.
        if (K.Role != CallRole::Logging &&
            !(isGivenReferencePut(State, KV.first, E) &&
              ruleEnabled(RuleId::GivenReferenceSinglePut)))
          New = removeRef(New, KV.first);
        continue;
      }
      if (E.K == RefEntry::Kind::Escaped)
        continue;
      // A created object gives up only itself or its count: a field given
      // to a release-named call (`cleanup_srcu_struct(&usr->lock)`) is that
      // field's end, not the object's.
      bool OtherField = E.Acquirer && E.Acquirer->InitsFresh &&
                        R != R->getBaseRegion() && R != KV.first.Region;
      if (Effect == ArgEffect::GiveUp && !OtherField &&
          applyRule(RuleId::NameGivesUp)) {
        // device_unregister(), kfree(), list_del(): the object is given up
        // (or dropped from where it was registered): nothing left to check.
        New = setRef(New, KV.first, E.escaped());
        continue;
      }
      if (E.K == RefEntry::Kind::Released)
        continue;
      if (!escapesOnStore(keyFamily(KV.first)))
        continue;
      const auto *TR = dyn_cast<TypedValueRegion>(R);
      bool ListNode =
          R != KV.first.Region && TR && isListNodeType(TR->getValueType());
      if (keeps(K, Effect, ListNode)) {
        New = setRef(New, KV.first, E.escaped());
      } else if (E.isOwned() && !E.MayBeKept && E.Acquirer &&
                 E.Acquirer->InitsFresh && mayKeep(Call, K, Effect) &&
                 ruleEnabled(RuleId::OpaqueCallMayKeep)) {
        E.MayBeKept = true;
        E.KeptBy = Call.getOriginExpr();
        New = setRef(New, KV.first, E);
      }
    }
  }
  if (New != State)
    C.addTransition(New);
}

bool lifetime::storeOnSuccess(const CallEvent &Call, const CallContract &K,
                              ProgramStateRef State, CheckerContext &C) {
  if (!storeWaitsForResult(K))
    return false;
  auto [Ok, Failed] =
      splitOnFailure(State, Call.getReturnValue(), K.API->Fail, C);
  if (!Ok || !Failed)
    return false; // The result tells: the path took one way already.
  std::optional<RefKey> Kept;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R || K.argEffect(I) != ArgEffect::Store)
      continue;
    if (const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()))
      Ok = markStored(Ok, SR->getSymbol());
    const MemRegion *Base = argumentBase(State, R);
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == Base && KV.second.isHeld()) {
        Ok = setRef(Ok, KV.first, KV.second.escaped());
        Kept = KV.first;
      }
  }
  C.addTransition(Ok);
  if (!Kept) {
    C.addTransition(Failed);
    return true;
  }
  std::string Callee = K.Name.str() + "()";
  RefKey Key = *Kept;
  C.addTransition(Failed, refNote(C, Key.Region, Key.Fam, "",
                                  [Callee](const std::string &N) {
                                    return "The call to " + Callee +
                                           " fails: it keeps nothing, and " +
                                           N + " is still this path's to put";
                                  }));
  return true;
}

ProgramStateRef lifetime::forgetPassedGivenPuts(const CallEvent &Call,
                                                const CallContract &K,
                                                ProgramStateRef State,
                                                bool Inlined) {
  // An inlined callee's gets and puts are on the path already (a cleanup
  // helper that puts the node the caller puts again): nothing to forget.
  if (Inlined || K.changesCount() || K.valueOnly() ||
      K.Role == CallRole::Logging ||
      !ruleEnabled(RuleId::GivenReferenceSinglePut))
    return State;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R || K.argEffect(I) == ArgEffect::Borrow)
      continue;
    const MemRegion *Base = argumentBase(State, R);
    // Whether or not the call marked the object kept (markKeptGiven): the
    // put handOverArguments() left for this moment goes either way.
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == Base &&
          KV.second.K == RefEntry::Kind::BorrowedPut &&
          isLifetimeFamily(KV.first.Fam) && givenParam(KV.first.Region))
        State = removeRef(State, KV.first);
  }
  return State;
}

static bool isErrorReturn(const Expr *RetE, SVal V, ProgramStateRef State,
                          CheckerContext &C) {
  const Expr *E = RetE->IgnoreParenCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (contractFor(FD).Role == CallRole::MakesErrPtr)
        return true;
  if (RetE->getType()->isPointerType()) {
    if (V.isZeroConstant())
      return true;
    if (auto CI = V.getAs<loc::ConcreteInt>())
      return apsInt(CI->getValue()).getZExtValue() >= (uint64_t)-4095;
    return false;
  }
  if (!RetE->getType()->isSignedIntegerType())
    return false;
  // -EINPROGRESS is the status of an asynchronous operation under way
  // (pm_runtime_get() queued the resume), -EIOCBQUEUED that of an I/O
  // queued for completion (__blkdev_direct_IO()): not failures.
  constexpr int EInProgress = 115; // include/uapi/asm-generic/errno.h
  constexpr int EIocbQueued = 529; // include/linux/errno.h
  if (auto NL = V.getAs<NonLoc>()) {
    SValBuilder &SVB = C.getSValBuilder();
    for (int Status : {EInProgress, EIocbQueued}) {
      SVal Eq = SVB.evalBinOpNN(
          State, BO_EQ, *NL,
          SVB.makeIntVal(-Status, C.getASTContext().IntTy).castAs<NonLoc>(),
          SVB.getConditionType());
      if (auto D = Eq.getAs<DefinedOrUnknownSVal>())
        if (State->assume(*D, true) && !State->assume(*D, false) &&
            applyRule(RuleId::InProgressNotError))
          return false;
    }
  }
  ProgramStateRef Neg = assumeCmpZero(State, V, BO_LT, C);
  ProgramStateRef NonNeg = assumeCmpZero(State, V, BO_GE, C);
  if (!V.getAs<NonLoc>())
    return false;
  return Neg && !NonNeg;
}

/// A callee the analyzer inlined returns an error while holding counts it
/// took itself: a leak reported later, at its caller's return, gets a note
/// here, where the put is missing.
static const NoteTag *heldAtErrorReturn(const Expr *RetE, ProgramStateRef State,
                                        CheckerContext &C) {
  const LocationContext *LC = C.getLocationContext();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(LC->getDecl());
  if (!FD || !FD->getIdentifier())
    return nullptr;
  const ParentMap &PM = LC->getParentMap();
  SmallVector<std::pair<const MemRegion *, std::string>, 2> Held;
  for (const auto &KV : allRefs(State))
    if (KV.second.isOwned() && KV.second.AcquireSite &&
        PM.hasParent(KV.second.AcquireSite))
      Held.push_back({KV.first.Region, describeRef(KV.first, KV.second)});
  // Only then ask whether the value is an error: that takes constraint
  // solving, on every return of every inlined function.
  if (Held.empty() || !isErrorReturn(RetE, C.getSVal(RetE), State, C))
    return nullptr;
  std::string Fn = FD->getName().str() + "()";
  return C.getNoteTag([Held, Fn](PathSensitiveBugReport &BR) -> std::string {
    if (BR.getBugType().getCheckerName() != "refcount.Leak")
      return "";
    for (const auto &H : Held) {
      const auto *SR = dyn_cast<SymbolicRegion>(H.first);
      if (BR.isInteresting(H.first) ||
          (SR && BR.isInteresting(SR->getSymbol())))
        return Fn +
               " returns an error here without dropping the count it took on " +
               H.second;
    }
    return "";
  });
}

/// Rule keeper-failed: the function returns, as its own, the nonzero
/// status of the call that may have kept a created object (`ret =
/// start(c); if (ret) return ret;`): that call failed, and a failing callee
/// keeps nothing. The object is the path's again.
static ProgramStateRef keeperFailed(SVal V, ProgramStateRef State,
                                    CheckerContext &C, const NoteTag *&Tag) {
  const auto *Sym = dyn_cast_or_null<SymbolConjured>(V.getAsSymbol());
  if (!Sym || !Sym->getStmt() || !Sym->getType()->isSignedIntegerType())
    return State;
  for (const auto &KV : allRefs(State)) {
    RefEntry E = KV.second;
    if (!E.MayBeKept || E.KeptBy != Sym->getStmt() || !E.isHeld())
      continue;
    // Known negative: an error return already (isErrorReturn()).
    if (assumeCmpZero(State, V, BO_EQ, C) ||
        !assumeCmpZero(State, V, BO_GE, C) || !applyRule(RuleId::KeeperFailed))
      continue;
    // The analyzed function returns that failure (reported at its return,
    // as any error return); an inlined one leaves the object to die with
    // its pointer.
    if (C.inTopFrame()) {
      State = setReturnsError(State, true);
    } else {
      E.MayBeKept = false;
      State = setRef(State, KV.first, E);
    }
    const auto *CE = dyn_cast<CallExpr>(E.KeptBy);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    std::string Callee = FD ? FD->getName().str() + "()" : "the call";
    Tag = refNote(C, KV.first.Region, KV.first.Fam, "",
                  [Callee](const std::string &N) {
                    return "Returning the nonzero status of " + Callee +
                           ": it failed and kept nothing, so " + N +
                           " is still this path's to put";
                  });
  }
  return State;
}

/// Adds State with up to two notes (chained: one transition carries one).
static void addTransitionWithNotes(CheckerContext &C, ProgramStateRef State,
                                   const NoteTag *First,
                                   const NoteTag *Second) {
  if (First && Second) {
    if (ExplodedNode *N = C.addTransition(State, First))
      C.addTransition(State, N, Second);
    return;
  }
  C.addTransition(State, First ? First : Second);
}

void lifetime::noteReturn(const ReturnStmt *RS, CheckerContext &C) {
  const Expr *RetE = RS->getRetValue();
  if (!RetE)
    return;
  const NoteTag *KeeperTag = nullptr;
  ProgramStateRef State =
      keeperFailed(C.getSVal(RetE), C.getState(), C, KeeperTag);
  if (!C.inTopFrame()) {
    const NoteTag *Tag = heldAtErrorReturn(RetE, State, C);
    // `pci_dev_put(dev); return dev;`: the function deliberately returns a
    // pointer it holds no count on (the object is kept alive elsewhere, e.g.
    // on a bus list); its caller uses it as a borrowed pointer.
    if (const MemRegion *R = refRegion(C.getSVal(RetE)))
      for (const auto &KV : allRefs(State)) {
        if (KV.first.Region->getBaseRegion() != R->getBaseRegion() ||
            KV.second.K != RefEntry::Kind::Released ||
            !applyRule(RuleId::ReturnedAfterPut))
          continue;
        RefEntry E = KV.second;
        State = setRef(State, KV.first, E.escaped());
      }
    addTransitionWithNotes(C, State, KeeperTag, Tag);
    return;
  }
  SVal V = C.getSVal(RetE);
  const Expr *Stripped = RetE->IgnoreParenCasts();
  const MemRegion *R = refRegion(V);
  const MemRegion *Base = R ? R->getBaseRegion() : nullptr;
  for (const auto &KV : allRefs(State)) {
    RefEntry E = KV.second;
    if (E.K != RefEntry::Kind::Owned && E.K != RefEntry::Kind::Lost)
      continue;
    const MemRegion *RefBase = KV.first.Region->getBaseRegion();
    bool Returned =
        E.AcquireSite == Stripped ||
        (Base && escapesOnStore(keyFamily(KV.first)) &&
         (RefBase == Base ||
          (isa<SymbolicRegion>(Base) &&
           convertedFrom(State, cast<SymbolicRegion>(Base)->getSymbol()) ==
               RefBase &&
           applyRule(RuleId::ReturnedView))));
    if (Returned) {
      State = setRef(State, KV.first, E.escaped());
    }
  }
  // Whether the path returns an error matters only to the counts still
  // held when the function ends (checkEndFunction).
  if (hasRefs(State) && isErrorReturn(RetE, V, State, C))
    State = setReturnsError(State, true);
  addTransitionWithNotes(C, State, KeeperTag, nullptr);
}

/// A pointer to an object whose references the model counts by its own
/// type (the model file's types: counted-objects).
static bool isCountedObjectPointer(QualType T) {
  if (!T->isPointerType())
    return false;
  const auto *RT = T->getPointeeType()->getAs<RecordType>();
  return RT && RT->getDecl()->getIdentifier() &&
         activeModel().Types.CountedObjects.contains(RT->getDecl()->getName());
}

static void noteBindImpl(SVal Loc, SVal Val, CheckerContext &C,
                         ProgramStateRef State) {
  // Remember the local variable a reference is kept in, for messages.
  const MemRegion *R = refRegion(Val);
  const MemRegion *L = Loc.getAsRegion();
  if (!R) {
    C.addTransition(State);
    return;
  }
  const auto *VR = dyn_cast_or_null<VarRegion>(L);
  // Stored into a global or static (the analyzer does not count that as an
  // escape), or into a variable whose cleanup function puts it
  // (`struct device_node *np __free(device_node) = ...`): handed over.
  bool HandedOver = L && ((isa<GlobalsSpaceRegion>(memorySpace(L, State)) &&
                           ruleEnabled(RuleId::StoreToGlobal)) ||
                          (VR && VR->getDecl()->hasAttr<CleanupAttr>() &&
                           ruleEnabled(RuleId::CleanupVariable)));
  if (HandedOver) {
    for (const auto &KV : allRefs(State)) {
      if (KV.first.Region != R || !escapesOnStore(keyFamily(KV.first)))
        continue;
      RefEntry E = KV.second;
      if (E.isHeld()) {
        applyRule(VR && VR->getDecl()->hasAttr<CleanupAttr>()
                      ? RuleId::CleanupVariable
                      : RuleId::StoreToGlobal);
        State = setRef(State, KV.first, E.escaped());
      }
    }
    C.addTransition(State);
    return;
  }
  if (const auto *FR = dyn_cast_or_null<FieldRegion>(L)) {
    // Also before any get: `ctrl->dev = &pdev->dev;` early in probe, the
    // get and the put through `ctrl->dev` later.
    if (!ruleEnabled(RuleId::FieldCopyIdentity)) {
      C.addTransition(State);
      return;
    }
    if (isCountedObjectPointer(FR->getDecl()->getType())) {
      applyRule(RuleId::FieldCopyIdentity);
      C.addTransition(noteFieldCopy(State, FR, R));
      return;
    }
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == R->getBaseRegion()) {
        applyRule(RuleId::FieldCopyIdentity);
        C.addTransition(noteFieldCopy(State, FR, R));
        return;
      }
    C.addTransition(State);
    return;
  }
  if (!VR || !VR->getDecl()->hasLocalStorage()) {
    C.addTransition(State);
    return;
  }
  for (const auto &KV : allRefs(State)) {
    if (KV.first.Region != R || KV.second.Var)
      continue;
    RefEntry E = KV.second;
    E.Var = dyn_cast<VarDecl>(VR->getDecl());
    State = setRef(State, KV.first, E);
  }
  C.addTransition(State);
}

/// A store of a pointer into the object it points into (`list->next =
/// list` in INIT_LIST_HEAD()'s body, a back pointer to the object itself):
/// the object's symbol, whose escape on that bind publishes nothing (rule
/// self-store).
static SymbolRef selfStoredSymbol(SVal Loc, SVal Val) {
  const MemRegion *R = refRegion(Val);
  const MemRegion *L = Loc.getAsRegion();
  if (!R || !L || L->getBaseRegion() != R->getBaseRegion())
    return nullptr;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  return SR ? SR->getSymbol() : nullptr;
}

void lifetime::noteBind(SVal Loc, SVal Val, CheckerContext &C) {
  ProgramStateRef State = C.getState();
  SymbolRef Self =
      ruleEnabled(RuleId::SelfStore) ? selfStoredSymbol(Loc, Val) : nullptr;
  if (Self != pendingSelfStore(State))
    State = setPendingSelfStore(State, Self);
  noteBindImpl(Loc, Val, C, State);
}

void lifetime::noteAsm(const GCCAsmStmt *AS, CheckerContext &C) {
  bool WritesMemory = false;
  for (unsigned I = 0, N = AS->getNumOutputs(); I < N; ++I)
    WritesMemory |= StringRef(AS->getOutputConstraint(I)).contains('m');
  for (unsigned I = 0, N = AS->getNumClobbers(); I < N; ++I)
    WritesMemory |= AS->getClobber(I) == "memory";
  if (!WritesMemory || !ruleEnabled(RuleId::AsmStores))
    return;
  ProgramStateRef State = C.getState();
  for (const Expr *In : AS->inputs()) {
    const MemRegion *R = refRegion(C.getSVal(In));
    const auto *SR = R ? dyn_cast<SymbolicRegion>(R->getBaseRegion()) : nullptr;
    if (!SR)
      continue;
    SymbolRef Sym = SR->getSymbol();
    State = markStored(State, Sym);
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == SR && KV.second.isHeld() &&
          escapesOnStore(keyFamily(KV.first)))
        State = setRef(State, KV.first, KV.second.escaped());
  }
  if (State != C.getState() && applyRule(RuleId::AsmStores))
    C.addTransition(State);
}

/// A pointer, or an integer word that may hold one (`unsigned long _nfct`,
/// a tagged pointer the kernel stores as an integer).
static bool isPointerWord(QualType T, ProgramStateRef State) {
  if (T->isPointerType())
    return true;
  ASTContext &Ctx = State->getStateManager().getContext();
  return T->isIntegerType() &&
         Ctx.getTypeSize(T) == Ctx.getTypeSize(Ctx.VoidPtrTy);
}

ProgramStateRef lifetime::escapeSymbols(ProgramStateRef State,
                                        const InvalidatedSymbols &Escaped,
                                        const CallEvent *Call,
                                        PointerEscapeKind Kind) {
  // Passing a pointer to a function is not a hand-over in the kernel
  // (checkPreCall decides by the callee's name); a store into memory that
  // outlives the function, or into what a callee may keep, is.
  if (Kind == PSK_DirectEscapeOnCall) {
    // ... unless the callee has a body in this TU the analyzer did not
    // inline: it may well put or keep the reference
    // (`np = __of_find_node_by_full_path(np, path)`).
    const auto *FD =
        Call ? dyn_cast_or_null<FunctionDecl>(Call->getDecl()) : nullptr;
    if (!FD || !FD->hasBody() || !ruleEnabled(RuleId::InlinedBodyEscape))
      return State;
  }
  if (Call && contractFor(*Call).API)
    return State;
  // The address of an object stored into the object itself (rule
  // self-store; noteBind() saw the bind) is not published.
  SymbolRef Self = nullptr;
  if (Kind == PSK_EscapeOnBind)
    if (SymbolRef P = pendingSelfStore(State)) {
      State = setPendingSelfStore(State, nullptr);
      if (Escaped.count(P) && applyRule(RuleId::SelfStore))
        Self = P;
    }
  // Stored, or given to a body the analyzer did not inline, which may keep
  // it (`__list_add(&w->list, ...)` past the inlining budget, before
  // kref_init(&w->ref)): a count set afterwards is not this path's. (A
  // call the analyzer evaluates without its body reports its arguments as
  // escaping; one with no body in the TU publishes nothing by that.)
  const auto *Callee =
      Call ? dyn_cast_or_null<FunctionDecl>(Call->getDecl()) : nullptr;
  bool FreesThrough = Callee && Callee->getIdentifier() &&
                      activeModel().Calls.Frees.contains(Callee->getName());
  bool UninlinedBody =
      Callee && Callee->hasBody() &&
      (Kind == PSK_DirectEscapeOnCall || Kind == PSK_IndirectEscapeOnCall) &&
      ruleEnabled(RuleId::InlinedBodyEscape);
  bool FieldGivenToOpaqueCall =
      Call && Kind == PSK_IndirectEscapeOnCall && !UninlinedBody;
  CallRole Role = Call ? contractFor(*Call).Role : CallRole::None;
  bool KeepsNothing =
      Role == CallRole::Logging || Role == CallRole::KeepsNothing;
  if (Kind == PSK_EscapeOnBind || UninlinedBody)
    for (SymbolRef Sym : Escaped)
      if (Sym != Self && isPointerWord(Sym->getType(), State))
        State = markStored(State, Sym);
  for (const auto &KV : allRefs(State)) {
    const auto *SR = dyn_cast<SymbolicRegion>(KV.first.Region->getBaseRegion());
    if (!SR || !Escaped.count(SR->getSymbol()) || SR->getSymbol() == Self)
      continue;
    if (!escapesOnStore(keyFamily(KV.first)))
      continue;
    RefEntry E = KV.second;
    // A created object given by the address of one of its fields to a call
    // without a body: a call that keeps nothing (a log line, a string copy
    // into `o->name`) publishes nothing; one that frees it through the
    // field (`call_rcu(&o->rcu, free_cb)`: `calls: frees`) ends it; any
    // other (`init_srcu_struct(&usr->lock)`, `timer_setup()`) may keep it
    // (rule opaque-call-may-keep): it still leaks on an error return. (A
    // keep-by-name call handed it over before.)
    if (FieldGivenToOpaqueCall && E.isOwned() && E.Acquirer &&
        E.Acquirer->InitsFresh) {
      if (KeepsNothing)
        continue;
      if (!FreesThrough && ruleEnabled(RuleId::OpaqueCallMayKeep)) {
        if (!E.MayBeKept) {
          E.MayBeKept = true;
          E.KeptBy = Call->getOriginExpr();
          State = setRef(State, KV.first, E);
        }
        continue;
      }
    }
    if (Kind == PSK_DirectEscapeOnCall)
      applyRule(RuleId::InlinedBodyEscape);
    if (E.isHeld()) {
      State = setRef(State, KV.first, E.escaped());
    } else if (E.K == RefEntry::Kind::BorrowedPut) {
      State = removeRef(State, KV.first);
    }
  }
  return State;
}

namespace {
/// A set of families (built-in and model-file ones).
struct FamilySet {
  std::bitset<256> Bits;
  void insert(Family F) { Bits.set(static_cast<unsigned>(F)); }
  void insertAll(const FamilySet &O) { Bits |= O.Bits; }
  bool contains(Family F) const { return Bits.test(static_cast<unsigned>(F)); }
  bool empty() const { return Bits.none(); }
};
} // namespace

/// The families a function's body puts a count of, directly or through the
/// functions it calls (Depth levels deep, bodies in this TU).
static FamilySet bodyPutFamilies(const FunctionDecl *FD, unsigned Depth) {
  // Per translation unit (an editor's process analyzes many).
  static const ASTContext *CacheOf = nullptr;
  static llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, FamilySet>
      Cache;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return {};
  if (CacheOf != &Def->getASTContext()) {
    Cache.clear();
    CacheOf = &Def->getASTContext();
  }
  auto Key = std::make_pair(Def, Depth);
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  Cache[Key] = {}; // Recursion ends here.
  FamilySet Families;
  struct Walk : RecursiveASTVisitor<Walk> {
    FamilySet &Out;
    unsigned Depth;
    Walk(FamilySet &Out, unsigned Depth) : Out(Out), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee)
        return true;
      const CallContract &K = contractFor(Callee);
      if (K.API && !K.API->Observe &&
          (K.API->Op == LifeOp::Release || K.API->Op == LifeOp::Consume))
        Out.insert(K.API->Fam);
      else if (!K.API && Depth > 0)
        Out.insertAll(bodyPutFamilies(Callee, Depth - 1));
      return true;
    }
  };
  Walk(Families, Depth).TraverseStmt(Def->getBody());
  Cache[Key] = Families;
  return Families;
}

/// Can a call given an argument whose object is ArgBase reach the object
/// R: the object itself, one read out of it (a few fields deep), or the
/// result of a same-result getter given one of those?
static bool reachableFrom(ProgramStateRef State, const MemRegion *R,
                          const MemRegion *ArgBase, unsigned Depth = 0) {
  const MemRegion *Base = R->getBaseRegion();
  for (unsigned I = 0; Base && I < 4; ++I) {
    if (Base == ArgBase)
      return true;
    Base = loadedOutOf(Base);
  }
  if (Depth > 1)
    return false;
  for (const MemRegion *A : sameResultArgs(State, R->getBaseRegion()))
    if (reachableFrom(State, A, ArgBase, Depth + 1))
      return true;
  return false;
}

ProgramStateRef lifetime::forgetCountsPutOutOfSight(ProgramStateRef State,
                                                    const CallEvent &Call,
                                                    CheckerContext &C) {
  if (C.wasInlined)
    return State;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  if (!FD || !FD->hasBody())
    return State;
  auto Refs = allRefs(State);
  if (Refs.empty())
    return State;
  FamilySet Families = bodyPutFamilies(FD, 3);
  if (Families.empty())
    return State;
  SmallVector<const MemRegion *, 4> ArgBases;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I)
    if (const MemRegion *R = Call.getArgSVal(I).getAsRegion())
      ArgBases.push_back(R->getBaseRegion());
  for (const auto &KV : Refs) {
    if (!KV.second.isHeld() || !Families.contains(keyFamily(KV.first)))
      continue;
    bool Reached = llvm::any_of(ArgBases, [&](const MemRegion *A) {
      return reachableFrom(State, KV.first.Region, A);
    });
    if (Reached && applyRule(RuleId::UninlinedBodyPuts))
      State = setRef(State, KV.first, KV.second.escaped());
  }
  return State;
}
