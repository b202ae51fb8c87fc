//===- LifetimeEscapes.cpp - Hand-overs of references ---------------------===//
//
// When a reference stops being the path's to drop by a call: handed to a
// call whose contract consumes or keeps it, given to a store that keeps it
// only on success, or escaped the analyzer's view. Returns are in
// LifetimeReturns.cpp, binds and asm in LifetimeBinds.cpp. The heuristics
// among these are rules of Rules.def.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "Rules.h"
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

static bool bodyInTU(const CallEvent &Call) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  return FD && FD->hasBody();
}

/// Rule body-decides: a callee whose body is in this TU is inlined (or its
/// arguments escape, rule body-escape); its name says nothing more. Asked
/// only where a naming rule would act on a held reference.
static bool bodyDecides(const CallEvent &Call) {
  return bodyInTU(Call) && applyRule(RuleId::BodyDecides);
}

/// Whether the call hands the reference over, by the effect its contract
/// gives the argument (rules name-takes-ownership, indirect-call-keeps) or
/// because the argument is a list node of the object (rule
/// list-node-handover).
static bool keeps(const CallEvent &Call, const CallContract &K,
                  ArgEffect Effect, bool ListNode) {
  if (Effect == ArgEffect::Keep && (K.isIndirect() || !bodyDecides(Call)) &&
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

static FamilySet bodyPutFamilies(const FunctionDecl *FD, unsigned Depth);

/// Rule undo-helper-votes reads the helper's name only where the TU lacks
/// its body: a body shows whether it puts runtime-PM votes (itself or
/// through the functions it calls), and one that only disables runtime PM
/// (gc0310_remove(): pm_runtime_disable()) undoes none, whatever its name.
static bool undoHelperMayPutVotes(const CallEvent &Call) {
  return !bodyInTU(Call) ||
         bodyPutFamilies(dyn_cast<FunctionDecl>(Call.getDecl()), 3)
             .contains(Family::PmRuntime);
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

/// A pointer the function was given, registered or stored here before any
/// put of it: a later put may be that call's count (rule
/// given-reference-single-put). After a put, the call is a use.
static ProgramStateRef keepGiven(ProgramStateRef To, ProgramStateRef State,
                                 const MemRegion *R) {
  const MemRegion *Base = R->getBaseRegion();
  if (givenParam(R) && ruleEnabled(RuleId::GivenReferenceSinglePut) &&
      llvm::none_of(allRefs(State), [Base](const auto &KV) {
        return KV.first.Region->getBaseRegion() == Base &&
               KV.second.K == RefEntry::Kind::BorrowedPut;
      }))
    return markKeptGiven(To, R);
  return To;
}

SymbolRef lifetime::namedObject(const CallEvent &Call, const CallContract &K) {
  if (!K.API || !K.API->Names || K.API->RefArg < 0 ||
      unsigned(K.API->RefArg) >= Call.getNumArgs())
    return nullptr;
  const MemRegion *R = refRegion(Call.getArgSVal(K.API->RefArg));
  const auto *SR = R ? dyn_cast<SymbolicRegion>(R->getBaseRegion()) : nullptr;
  return SR ? SR->getSymbol() : nullptr;
}

void lifetime::handOverArguments(const CallEvent &Call, CheckerContext &C,
                                 ExplodedNode *Pred) {
  // What a get/put does to the references it is given is evaluated
  // elsewhere (applyCall); calls that read only a pointer's value keep
  // nothing.
  const CallContract &K = contractFor(Call);
  dumpContract(Call, C);
  const NoteTag *FreedTag = nullptr;
  ProgramStateRef Orig = C.getState();
  ProgramStateRef State = containerCall(Call, K, Orig, C, FreedTag);
  // dev_set_name(): the object now owns a name its release frees.
  if (SymbolRef Named = namedObject(Call, K))
    State = markNamed(State, Named);
  auto Finish = [&](ProgramStateRef S) {
    if (S != Orig)
      C.addTransition(S, Pred ? Pred : C.getPredecessor(), FreedTag);
  };
  if (K.changesCount() || K.valueOnly()) {
    // A register row (kept-on-success: device_register()) on an object the
    // function was given sets up a count that the registration keeps.
    if (K.API && K.API->KeptOnSuccess != Failure::Never && K.API->RefArg >= 0 &&
        unsigned(K.API->RefArg) < Call.getNumArgs())
      if (const MemRegion *R = refRegion(Call.getArgSVal(K.API->RefArg)))
        State = keepGiven(State, State, R);
    Finish(State);
    return;
  }
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
    // the object as a store does; a body shows its own stores. Only raw
    // memory this path allocated needs the mark (its count is set later and
    // is then the list's): an object with counts is kept by the count the
    // callee takes, and a mark on every pointer given to a function pointer
    // keeps apart paths that would merge (issue 15's cost).
    const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
    bool Publishes =
        SR &&
        (Effect == ArgEffect::Store
             ? !WaitForResult
             : !bodyInTU(Call) &&
                   allocatorRoleOf(SR->getSymbol()) == CallRole::Allocator &&
                   ruleEnabled(K.isIndirect() ? RuleId::IndirectCallKeeps
                                              : RuleId::NameTakesOwnership));
    if (Publishes)
      Stored = markStored(Stored, SR->getSymbol());
    Stored = keepGiven(Stored, State, R);
  }
  RefMap Refs = allRefs(State);
  if (!hasRefs(State)) {
    Finish(Stored);
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
            undoHelperMayPutVotes(Call) && applyRule(RuleId::UndoHelperVotes)) {
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
        // logging call or one that keeps nothing (pm_runtime_allow()) does
        // not (so a later get can still give the caller's count back: rule
        // power-cycle). The put of a reference the function was given is
        // forgotten only once the call returns (forgetPassedGivenPuts):
        // passing the pointer is a use after that put, which
        // refcount.UseAfterPut reports before the call.
        if (K.Role != CallRole::Logging && K.Role != CallRole::KeepsNothing &&
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
      if (Effect == ArgEffect::GiveUp && !OtherField && !bodyDecides(Call) &&
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
      if (keeps(Call, K, Effect, ListNode)) {
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
  Finish(New);
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
      K.Role == CallRole::Logging || K.Role == CallRole::KeepsNothing ||
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
  // A store into memory this path allocated (rule freed-container; noteBind()
  // saw the bind): handed over to that memory until the path frees it.
  SymbolRef Mem = nullptr;
  if (Kind == PSK_EscapeOnBind && (Mem = pendingContainer(State)))
    State = setPendingContainer(State, nullptr);
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
  // kfree() frees the memory it is given and keeps nothing that memory
  // points to: a reference stored in it is not handed over by the free (rule
  // freed-container gave it back to the path before the call).
  bool MemoryFree = isMemoryFree(Callee);
  auto GivenItself = [&](const MemRegion *Base) {
    for (unsigned I = 0, N = Call->getNumArgs(); I < N; ++I)
      if (const MemRegion *A = refRegion(Call->getArgSVal(I)))
        if (A->getBaseRegion() == Base)
          return true;
    return false;
  };
  auto FieldOfItself = [&](const MemRegion *Base) {
    for (unsigned I = 0, N = Call->getNumArgs(); I < N; ++I)
      if (const MemRegion *A = Call->getArgSVal(I).getAsRegion())
        if (A != Base && A->getBaseRegion() == Base)
          return true;
    return false;
  };
  for (const auto &KV : allRefs(State)) {
    const auto *SR = dyn_cast<SymbolicRegion>(KV.first.Region->getBaseRegion());
    if (!SR || !Escaped.count(SR->getSymbol()) || SR->getSymbol() == Self)
      continue;
    if (!escapesOnStore(keyFamily(KV.first)))
      continue;
    if (MemoryFree && !GivenItself(SR))
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
    // The address of one of its fields given to a call without a body
    // (`mutex_trylock(&pdev->dev.mutex)`, `sysfs_create_group(&dev->kobj,
    // ..)`): passing an object is no hand-over in the kernel, and passing
    // its field is none either; a keep-by-name call or a list node handed
    // it over before (checkPreCall). A held pointer stored in memory the
    // call is given still escapes: the callee can take it from there.
    // (A created object's fields: rule opaque-call-may-keep above; a call
    // that frees through the field ends the object.)
    if (FieldGivenToOpaqueCall && E.isHeld() && !FreesThrough &&
        !(E.Acquirer && E.Acquirer->InitsFresh) && FieldOfItself(SR) &&
        applyRule(RuleId::FieldAddressNoHandover))
      continue;
    if (Kind == PSK_DirectEscapeOnCall)
      applyRule(RuleId::InlinedBodyEscape);
    if (E.isHeld()) {
      State = setRef(State, KV.first, Mem ? E.escapedInto(Mem) : E.escaped());
    } else if (E.K == RefEntry::Kind::BorrowedPut) {
      State = removeRef(State, KV.first);
    }
  }
  return State;
}

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

bool lifetime::bodyPutsFamily(const FunctionDecl *FD, Family F,
                              unsigned Depth) {
  return bodyPutFamilies(FD, Depth).contains(F);
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
  if (!hasRefs(State))
    return State;
  RefMap Refs = allRefs(State);
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
