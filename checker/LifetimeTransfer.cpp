//===- LifetimeTransfer.cpp - Applying get/put contracts to the state -----===//
//
// The state transfer of refcount.LifetimeModel (LifetimeState.h has the
// diagram): a get/put contract (Contracts.h) applied to the references the
// path holds.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "CountState.h"
#include "CounterKey.h"
#include "CounterUses.h"
#include "LifetimeModel.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "RefcountModel.h"
#include "Rules.h"
#include "clang/AST/ParentMap.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

/// Strips `!!x`, `unlikely(x)` (__builtin_expect) and parentheses.
static const Expr *stripCondition(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_LNot)
        if (const auto *U2 =
                dyn_cast<UnaryOperator>(U->getSubExpr()->IgnoreParenImpCasts()))
          if (U2->getOpcode() == UO_LNot) {
            E = U2->getSubExpr();
            continue;
          }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (CE->getBuiltinCallee() == Builtin::BI__builtin_expect &&
          CE->getNumArgs() == 2) {
        E = CE->getArg(0);
        continue;
      }
    return E;
  }
  return E;
}

/// Is the get at Site inside `if (!test_and_set_bit(nr, flags)) { ... }`
/// (a claim-bit role row)? Then the bit owns the reference: whoever clears
/// the bit with test_and_clear_bit() puts it (usb hub child_usage_bits), not
/// this path.
bool lifetime::ownedByBit(const Stmt *Site, CheckerContext &C) {
  if (!Site)
    return false;
  const ParentMap &PM = C.getLocationContext()->getParentMap();
  const Stmt *Child = Site;
  for (const Stmt *P = PM.getParent(Site); P; Child = P, P = PM.getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || If->getThen() != Child)
      continue;
    const auto *Not =
        dyn_cast_or_null<UnaryOperator>(stripCondition(If->getCond()));
    if (!Not || Not->getOpcode() != UO_LNot)
      continue;
    const auto *Test = dyn_cast<CallExpr>(stripCondition(Not->getSubExpr()));
    const FunctionDecl *FD = Test ? Test->getDirectCallee() : nullptr;
    if (FD && contractFor(FD).Role == CallRole::ClaimBit)
      return applyRule(RuleId::BitOwnedGet);
  }
  return false;
}

/// Does ArgE name its object through a parameter of a function the analysis
/// inlined (`client->base.dev` in tegra_client_open(), called from a walk
/// of tegra->clients)? Then whatever walk reached the object was a
/// caller's, not this function's.
static bool givenToInlinedCallee(const Expr *ArgE, const LocationContext *LC) {
  if (!ArgE || !LC->getStackFrame()->getCallSite())
    return false;
  const Expr *E = ArgE;
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E))
      E = UO->getSubExpr();
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return isa<ParmVarDecl>(DRE->getDecl());
    else
      return false;
  }
  return false;
}

ProgramStateRef lifetime::acquire(ProgramStateRef State, const MemRegion *R,
                                  const LifetimeAPI &API, const Stmt *Site,
                                  const Expr *ArgE, unsigned Since,
                                  bool GivenToCallee) {
  auto Found = findRef(State, R, API.Fam);
  // A count set up fresh (device_initialize(&o->dev) after kref_init(&o->ref))
  // is a count of its own, not another family's counter in the object.
  if (Found && API.InitsFresh && keyFamily(Found->first) != API.Fam)
    Found.reset();
  // A get on an object reached through a list walk or an index lookup keeps
  // it for the index or a later walk, which this path cannot follow; not a
  // usage vote an inlined callee took on what its caller gave it.
  if (!Found && !isNewReference(API) && reachedFromInternal(State, R) &&
      !(!escapesOnStore(API.Fam) && GivenToCallee &&
        applyRule(RuleId::GivenVoteOwn)) &&
      applyRule(RuleId::InternalGet))
    return State;
  if (!Found && !isNewReference(API) && escapesOnStore(API.Fam))
    if (const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()))
      if ((isStored(State, SR->getSymbol()) &&
           applyRule(RuleId::StoredBeforeGet)) ||
          (linkedToStored(State, SR->getSymbol()) &&
           applyRule(RuleId::StoredLinkedGet)))
        return State;
  // The get names an object the path cannot tell apart from one whose
  // count it dropped without having taken it: the count given back.
  if (!Found && !isNewReference(API))
    if (auto Alias = unknownTargetOf(State, R, API.Fam, /*ForPut=*/false))
      if (applyRule(RuleId::UnknownGetTarget))
        return removeRef(State, Alias->first);
  RefKey K = Found ? Found->first : makeRefKey(R, API.Fam);
  RefEntry E;
  if (Found) {
    E = Found->second;
    if (E.K == RefEntry::Kind::Escaped)
      return State;
    if (E.K == RefEntry::Kind::Owned) {
      ++E.Count;
      return setRef(State, K, E);
    }
    // A get of the count this path dropped for its caller gives it back:
    // `pm_runtime_put_sync(dev); ...; pm_runtime_get_sync(dev)` power-cycles
    // the device and returns holding what the caller held.
    if (E.K == RefEntry::Kind::BorrowedPut && !isNewReference(API) &&
        applyRule(RuleId::PowerCycle))
      return removeRef(State, K);
  }
  return setRef(State, K, E.acquiredBy(API, Site, ArgE, Since));
}

/// Hands the held counts Selects picks over to whoever rule Rule says drops
/// them (the three rules below differ only in which counts they pick).
template <typename Pred>
static ProgramStateRef giveUpHeld(ProgramStateRef State, RuleId Rule,
                                  Pred Selects) {
  for (const auto &KV : allRefs(State))
    if (KV.second.isHeld() && Selects(KV.first, KV.second) && applyRule(Rule))
      State = setRef(State, KV.first, KV.second.escaped());
  return State;
}

/// Rule holder-put: the gets this path took on pointers read out of the
/// fields of the object R names are that object's to drop.
static ProgramStateRef giveUpHeldByFields(ProgramStateRef State,
                                          const MemRegion *R) {
  const MemRegion *Holder = R->getBaseRegion();
  return giveUpHeld(State, RuleId::HolderPut,
                    [Holder](const RefKey &K, const RefEntry &E) {
                      const MemRegion *Base = K.Region->getBaseRegion();
                      return !E.isNewReference() && Base != Holder &&
                             loadedOutOf(Base) == Holder;
                    });
}

/// Rule release-frees-object: the put that dropped the last count of an
/// object this path created (device_initialize(), kref_init() on memory it
/// allocated) ran the object's release callback, which frees the object:
/// the other counts the path created on the same memory (the kref of a
/// structure whose device was just put) end with it.
static ProgramStateRef freeCreatedSiblings(ProgramStateRef State,
                                           const RefKey &Dropped) {
  const MemRegion *Base = Dropped.Region->getBaseRegion();
  return giveUpHeld(State, RuleId::ReleaseFreesObject,
                    [&](const RefKey &K, const RefEntry &E) {
                      return !(K == Dropped) &&
                             K.Region->getBaseRegion() == Base && E.Acquirer &&
                             E.Acquirer->InitsFresh;
                    });
}

/// Rule release-callback-puts: a put of an object whose release callback
/// this path installed (`chip->devs.release = tpm_devs_release`; the model
/// file's types: release-fields) is the put of an object the path set up,
/// which runs that callback: the counts of family F the callback's body
/// puts, held on other fields of the same structure, are the callback's to
/// drop (tpm_devs_add(): get_device(&chip->dev) "on behalf of devs", put by
/// tpm_devs_release()).
static ProgramStateRef giveUpToReleaseCallback(ProgramStateRef State,
                                               const MemRegion *R, Family F) {
  const FunctionDecl *Fn =
      hasRefs(State) ? installedRelease(State, R) : nullptr;
  if (!Fn || !bodyPutsFamily(Fn, F, 3))
    return State;
  const MemRegion *Base = R->getBaseRegion();
  return giveUpHeld(State, RuleId::ReleaseCallbackPuts,
                    [&](const RefKey &K, const RefEntry &) {
                      return K.Region != R && keyFamily(K) == F &&
                             K.Region->getBaseRegion() == Base;
                    });
}

ProgramStateRef lifetime::release(ProgramStateRef State, const MemRegion *R,
                                  const LifetimeAPI &API, unsigned Since,
                                  const StackFrameContext *ReleaseFrame) {
  if (ruleEnabled(RuleId::HolderPut))
    State = giveUpHeldByFields(State, R);
  State = giveUpToReleaseCallback(State, R, API.Fam);
  auto Found = findRef(State, R, API.Fam);
  if (!Found) {
    return setRef(State, makeRefKey(R, API.Fam),
                  RefEntry::borrowedPut(API, Since));
  }
  RefEntry E = Found->second;
  switch (E.K) {
  case RefEntry::Kind::Owned:
  case RefEntry::Kind::Lost:
    if (E.Count > 1) {
      --E.Count;
    } else if (!E.isNewReference()) {
      // A get and a put on a pointer the function was given: back to the
      // caller's reference, which this path neither holds nor released.
      return removeRef(State, Found->first);
    } else {
      bool FreesObject = E.Acquirer && E.Acquirer->InitsFresh && E.isOwned() &&
                         !API.ReleaseInCaller;
      E = E.releasedBy(API, ReleaseFrame);
      if (FreesObject)
        return freeCreatedSiblings(setRef(State, Found->first, E),
                                   Found->first);
    }
    return setRef(State, Found->first, E);
  case RefEntry::Kind::Escaped:
    // Put through the field of the memory it was stored in (rule
    // freed-container): freeing that memory gives nothing back.
    if (E.Container)
      return removeRef(State, Found->first);
    return State;
  case RefEntry::Kind::Released:
  case RefEntry::Kind::BorrowedPut:
    return State;
  }
  return State;
}

std::pair<ProgramStateRef, ProgramStateRef>
lifetime::splitOnFailure(ProgramStateRef State, SVal Ret, Failure F,
                         CheckerContext &C) {
  switch (F) {
  case Failure::NegErrno:
    return {assumeCmpZero(State, Ret, BO_GE, C),
            assumeCmpZero(State, Ret, BO_LT, C)};
  case Failure::Errno:
    // Never positive: a path that assumes so is not taken.
    return {assumeCmpZero(State, Ret, BO_EQ, C),
            assumeCmpZero(State, Ret, BO_LT, C)};
  case Failure::NotPositive:
    return {assumeCmpZero(State, Ret, BO_GT, C),
            assumeCmpZero(State, Ret, BO_LE, C)};
  case Failure::Zero:
    return {assumeCmpZero(State, Ret, BO_NE, C),
            assumeCmpZero(State, Ret, BO_EQ, C)};
  default:
    return {State, nullptr};
  }
}

/// The returned value is `ret` constrained by `Op 0` on the state.
ProgramStateRef lifetime::assumeCmpZero(ProgramStateRef S, SVal Ret,
                                        BinaryOperatorKind Op,
                                        CheckerContext &C) {
  SValBuilder &SVB = C.getSValBuilder();
  auto NL = Ret.getAs<NonLoc>();
  if (!NL)
    return S;
  SVal Cond = SVB.evalBinOpNN(
      S, Op, *NL, SVB.makeZeroVal(SVB.getContext().IntTy).castAs<NonLoc>(),
      SVB.getConditionType());
  auto DV = Cond.getAs<DefinedOrUnknownSVal>();
  if (!DV)
    return S;
  return S->assume(*DV, true);
}

/// The node a node getter starts from, when it finds nothing from no node
/// (rule null-node-getter; the node types are the model file's types: nodes):
/// `of_get_parent(np)`, `of_get_child_by_name(np, ..)`, `of_parse_phandle(np,
/// ..)`, `fwnode_get_parent(fw)` return NULL for a NULL node (unlike an
/// iterator's `from`, where NULL means the whole tree).
static const MemRegion *nodeOfNodeGetter(const CallEvent &Call,
                                         const LifetimeAPI &API) {
  if (API.Op != LifeOp::Acquire || API.RefArg != RetVal ||
      API.Fail != Failure::Null || API.Fam != Family::Node ||
      Call.getNumArgs() == 0)
    return nullptr;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  if (!FD || FD->getNumParams() == 0)
    return nullptr;
  // (of_get_cpu_node() starts from a CPU number.)
  QualType Start = FD->getParamDecl(0)->getType()->getPointeeType();
  const RecordDecl *RD = Start.isNull() ? nullptr : Start->getAsRecordDecl();
  if (!RD || !RD->getIdentifier() ||
      !activeModel().Types.Nodes.contains(RD->getName()) ||
      !ruleEnabled(RuleId::NullNodeGetter))
    return nullptr;
  return refRegion(Call.getArgSVal(0));
}

/// `f` for `&f->ref` or `&f->ref.refcount`; E itself otherwise.
static const Expr *objectOfCounter(const Expr *E) {
  const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return E;
  const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
  while (ME && !ME->isArrow())
    ME = dyn_cast<MemberExpr>(ME->getBase()->IgnoreParens());
  return ME ? ME->getBase()->IgnoreParenImpCasts() : E;
}

/// Rule given-object-registered: a register row that sets the first
/// reference (`first-reference` with `kept-on-success`: device_register(),
/// kobject_init_and_add()) on an object the function was given or a global
/// one (`&sbi->s_kobj`, `&f2fs_tune`). The memory is not the path's, but
/// the reference is: when the call fails, its contract is that the caller
/// puts it (ext4_register_sysfs()).
static bool givenObjectRegistered(const LifetimeAPI &API, const MemRegion *R) {
  return API.KeptOnSuccess != Failure::Never && inGivenMemory(R) &&
         applyRule(RuleId::GivenObjectRegistered);
}

bool lifetime::initCreatesObject(const CallEvent &Call, const LifetimeAPI &API,
                                 ProgramStateRef State) {
  // A tracked init row (kref_init), or an object row with
  // `first-reference` (device_initialize).
  const CountAPI *Row = lookupCountAPI(API.Name);
  if ((!Row && API.Observe) || API.RefArg < 0 ||
      unsigned(API.RefArg) >= Call.getNumArgs())
    return false;
  // kref_init() sets one; a row with a `value:` argument must be given the
  // constant one (refcount_set(&o->refs, 2) is a biased count, not a
  // creation this model can follow).
  if (Row && Row->ValueArg) {
    if (*Row->ValueArg >= Call.getNumArgs())
      return false;
    auto CI = Call.getArgSVal(*Row->ValueArg).getAs<nonloc::ConcreteInt>();
    if (!CI || apsInt(CI->getValue()) != 1)
      return false;
  }
  // A counter inside another lifetime counter (the model file's types:
  // lifetime-counters; `refcount_set(&o->ref.refcount, 1)` on a struct
  // kref's insides) is that counter's, which its puts name: not followed.
  if (const auto *UO = dyn_cast<UnaryOperator>(
          Call.getArgExpr(API.RefArg)->IgnoreParenImpCasts()))
    for (const auto *ME =
             dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
         ME && !ME->isArrow();
         ME = dyn_cast<MemberExpr>(ME->getBase()->IgnoreParens()))
      if (const auto *RD = ME->getBase()->getType()->getAsRecordDecl())
        if (RD->getIdentifier() &&
            activeModel().Types.LifetimeCounters.contains(RD->getName()))
          return false;
  // The object the counter is in came from an allocator on this path (its
  // pointer is the symbol the call returned). Device-managed memory is the
  // device's to free (role managed-allocator).
  const MemRegion *R = refRegion(Call.getArgSVal(API.RefArg));
  if (R && givenObjectRegistered(API, R))
    return true;
  const auto *Obj = R ? dyn_cast<SymbolicRegion>(R->getBaseRegion()) : nullptr;
  const auto *Sym = Obj ? dyn_cast<SymbolConjured>(Obj->getSymbol()) : nullptr;
  const auto *Alloc =
      Sym ? dyn_cast_or_null<CallExpr>(Sym->getStmt()) : nullptr;
  const FunctionDecl *FD = Alloc ? Alloc->getDirectCallee() : nullptr;
  if (!FD || contractFor(FD).Role != CallRole::Allocator)
    return false;
  // Raw memory (`calls: memory-allocators`): a constructor of another TU
  // (netfs_alloc_request()) returns its object with its counts set, and a
  // count set again later (`atomic_set(&rreq->nr_outstanding, 1)`) is not
  // its first reference.
  if (!FD->getIdentifier() ||
      !activeModel().Calls.MemoryAllocators.contains(FD->getName()))
    return false;
  // Published before its count was set (`idr_alloc(&idr, nbd, ...);
  // ...; refcount_set(&nbd->refs, 1)` in nbd_dev_add()): the count is the
  // index's or the list's, not a reference this path holds.
  if (isStored(State, Sym))
    return false;
  return applyRule(RuleId::FreshObjectInit) &&
         (!API.CreatedOnly || applyRule(RuleId::CreatedAtomicCount));
}

/// Rule plain-style-counter: the counter the call works on is of the plain
/// style in this TU (CounterUseDB::isPlainStyle()).
static bool isPlainStyleCounter(const CallEvent &Call, const LifetimeAPI &API) {
  if (API.RefArg < 0 || unsigned(API.RefArg) >= Call.getNumArgs())
    return false;
  const FieldDecl *FD = counterFieldFromExpr(Call.getArgExpr(API.RefArg));
  const Decl *D = Call.getDecl();
  return FD && D && CounterUseDB::get(D->getASTContext()).isPlainStyle(FD) &&
         applyRule(RuleId::PlainStyleCounter);
}

bool krefcheck::followsCount(const CallEvent &Call, const LifetimeAPI &API,
                             ProgramStateRef State) {
  if (!API.CreatedOnly)
    return !API.Observe || !isPlainStyleCounter(Call, API);
  if (!ruleEnabled(RuleId::CreatedAtomicCount) || API.RefArg < 0 ||
      unsigned(API.RefArg) >= Call.getNumArgs())
    return false;
  // An atomic_t the TU never decrements-and-tests (nor the like) counts
  // something other than references.
  const FieldDecl *FD = counterFieldFromExpr(Call.getArgExpr(API.RefArg));
  const Decl *D = Call.getDecl();
  if (!FD || !D || !CounterUseDB::get(D->getASTContext()).isRefcount(FD))
    return false;
  if (API.InitsFresh)
    return true; // initCreatesObject() decides.
  // The very counter whose first reference the path created.
  const RefEntry *E = counterRef(Call, API, State);
  return E && E->Acquirer && E->Acquirer->CreatedOnly;
}

const RefEntry *krefcheck::counterRef(const CallEvent &Call,
                                      const LifetimeAPI &API,
                                      ProgramStateRef State) {
  if (API.RefArg < 0 || unsigned(API.RefArg) >= Call.getNumArgs())
    return nullptr;
  const MemRegion *R = refRegion(Call.getArgSVal(API.RefArg));
  return R ? getRef(State, makeRefKey(R, API.Fam)) : nullptr;
}

void lifetime::applyCall(const CallEvent &Call, const LifetimeAPI &API,
                         CheckerContext &C, bool Evaluate) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  ProgramStateRef State = C.getState();
  const LocationContext *LCtx = C.getLocationContext();
  std::string Callee = API.Name.str() + "()";
  const NoteTag *ConsumeNote = nullptr;

  // The iterator's previous node (or `from`) is put first.
  if (API.Op == LifeOp::ConsumeAcquire) {
    SVal Prev = Call.getArgSVal(API.ConsumedArg);
    const MemRegion *R = refRegion(Prev);
    if (R && !State->isNull(Prev).isConstrainedTrue()) {
      State = release(State, R, API, symbolWatermark(CE, C));
      std::string Fallback = exprText(Call.getArgExpr(API.ConsumedArg), C);
      ConsumeNote =
          refNote(C, R, API.Fam, Fallback, [Callee](const std::string &N) {
            return "The call to " + Callee + " puts the previous reference " +
                   N;
          });
    }
  }

  SVal Ret = UnknownVal();
  bool VoidRet = Call.getResultType()->isVoidType();
  // What the analyzer does to a call it does not inline: the objects the
  // arguments point to and the globals may have changed (a put may free;
  // a lookup takes locks and walks lists). Besides being the sound model,
  // this lets paths that differ only in what they knew of those objects
  // meet again, as they do under `core` alone: without it the exploded
  // graph of devm_of_platform_populate() grows by half (43k states under
  // `core`, 67k; 50k with it).
  if (Evaluate)
    State = Call.invalidateRegions(C.blockCount(), State);
  if (Evaluate && !VoidRet) {
    if (API.ReturnsArg)
      Ret = Call.getArgSVal(API.RefArg);
    else
      Ret = conjureCallResult(Call, C);
    State = State->BindExpr(CE, LCtx, Ret);
  } else if (!Evaluate) {
    Ret = Call.getReturnValue();
  }

  if (API.Op == LifeOp::Release) {
    // `if (atomic_dec_and_test(&o->ref)) kfree(o);`: the release code is in
    // this function (rule put-helper-returned).
    const StackFrameContext *ReleaseFrame =
        API.ReleaseInCaller && CE && resultTested(CE, LCtx->getParentMap())
            ? C.getStackFrame()
            : nullptr;
    SVal Arg = Call.getArgSVal(API.RefArg);
    const MemRegion *R = refRegion(Arg);
    if (!R || State->isNull(Arg).isConstrainedTrue()) {
      C.addTransition(State);
      return;
    }
    auto Before = findRef(State, R, API.Fam);
    std::string Fallback = exprText(Call.getArgExpr(API.RefArg), C);
    if (!Before) {
      // A put on a pointer from a call made after the get (an opaque
      // getter, a field read again): maybe the held count's object.
      auto Alias = unknownTargetOf(State, R, API.Fam, /*ForPut=*/true);
      if (Alias && applyRule(RuleId::UnknownPutTarget)) {
        State = release(State, Alias->first.Region, API, 0, ReleaseFrame);
        std::string Origin = pointerOrigin(R);
        C.addTransition(
            State,
            refNote(C, Alias->first.Region, API.Fam, "",
                    [Callee, Fallback, Origin](const std::string &N) {
                      return "The call to " + Callee + " puts " +
                             (Fallback.empty() ? "an object" : Fallback) +
                             ", which the path cannot tell apart from " + N +
                             (Origin.empty() ? "" : " (it " + Origin + ")") +
                             ": counted as its put (rule unknown-put-target)";
                    }));
        return;
      }
      State = release(State, R, API, symbolWatermark(CE, C), ReleaseFrame);
      C.addTransition(State, unmatchedPutNote(C, State, R, API, Fallback));
      return;
    }
    bool Last = Before->second.isOwned() && Before->second.Count == 1;
    State = release(State, R, API, 0, ReleaseFrame);
    C.addTransition(
        State, refNote(C, Before->first.Region, API.Fam, Fallback,
                       [Callee, Last](const std::string &N) {
                         return "Reference to " + N + " released by " + Callee +
                                (Last ? ": this path holds no more references "
                                        "to it"
                                      : "");
                       }));
    return;
  }

  // Acquire or ConsumeAcquire.
  const MemRegion *R = nullptr;
  const Expr *ArgE = nullptr;
  SVal RefV = UnknownVal();
  if (API.RefArg == RetVal) {
    RefV = Ret;
  } else {
    RefV = Call.getArgSVal(API.RefArg);
    ArgE = Call.getArgExpr(API.RefArg);
    // A created object is named by its pointer, not its counter: `f` for
    // kref_init(&f->ref).
    if (API.InitsFresh)
      ArgE = objectOfCounter(ArgE);
  }
  R = refRegion(RefV);
  if (!R || State->isNull(RefV).isConstrainedTrue()) {
    C.addTransition(State, ConsumeNote);
    return;
  }

  if (API.RefArg == RetVal && API.NullIfNegativeArg >= 0 &&
      unsigned(API.NullIfNegativeArg) < Call.getNumArgs()) {
    // null-if-negative: a negative argument gives NULL before anything is
    // looked up (get_net_ns_by_id(net, -1)), so a non-NULL result says the
    // argument was not negative, and a later `if (id >= 0) put` matches.
    SVal A = Call.getArgSVal(unsigned(API.NullIfNegativeArg));
    auto DV = Ret.getAs<DefinedOrUnknownSVal>();
    if (A.getAs<NonLoc>() && DV) {
      ProgramStateRef Negative = assumeCmpZero(State, A, BO_LT, C);
      ProgramStateRef NotNegative = assumeCmpZero(State, A, BO_GE, C);
      if (Negative)
        if (ProgramStateRef NullResult = Negative->assume(*DV, false))
          C.addTransition(NullResult);
      if (!NotNegative)
        return;
      State = NotNegative;
    }
  }
  ProgramStateRef Ok = State, Failed = nullptr;
  if (const MemRegion *From = nodeOfNodeGetter(Call, API))
    if (SymbolRef Result = Ret.getAsLocSymbol())
      if (applyRule(RuleId::NullNodeGetter))
        Ok = noteNullWithArg(Ok, Result, From);
  if (API.Fail == Failure::Null) {
    // A get on an argument that returns NULL when it fails
    // (try_get_task_stack); a NULL +1 result holds nothing by itself.
    if (API.RefArg != RetVal)
      if (auto DV = Ret.getAs<DefinedOrUnknownSVal>())
        std::tie(Ok, Failed) = State->assume(*DV);
  } else if (isIntegerFailure(API.Fail)) {
    std::tie(Ok, Failed) = splitOnFailure(State, Ret, API.Fail, C);
  }

  std::string Fallback =
      API.RefArg == RetVal ? "the result of " + Callee : exprText(ArgE, C);
  Family F = API.Fam;
  if (Ok && !isNewReference(API) &&
      (ownedByBit(CE, C) || heldInMemory(ArgE, R, C))) {
    C.addTransition(Ok, ConsumeNote);
    Ok = nullptr;
  }
  if (Ok) {
    Ok = acquire(Ok, R, API, CE, ArgE, symbolWatermark(CE, C),
                 givenToInlinedCallee(ArgE, C.getLocationContext()));
    Ok = noteHeldThrough(Ok, ArgE, R, C.getLocationContext());
    auto Found = findRef(Ok, R, F);
    const MemRegion *KR = Found ? Found->first.Region : R;
    std::function<std::string(const std::string &)> Msg;
    if (F == Family::PmRuntime) {
      bool Always = API.Fail == Failure::Never;
      Msg = [Callee, Always](const std::string &N) {
        return "The call to " + Callee + " takes a runtime-PM usage count of " +
               N + (Always ? ", even when it fails" : ": it succeeded");
      };
    } else if (API.InitsFresh) {
      Msg = [Callee](const std::string &N) {
        return "The call to " + Callee + " sets the count of the new object " +
               N + " to one: this path holds its first reference";
      };
    } else if (isNewReference(API)) {
      Msg = [Callee](const std::string &N) {
        return "The call to " + Callee +
               " returns a counted reference (+1): " + N + " must be released";
      };
    } else {
      Msg = [Callee](const std::string &N) {
        return "Reference to " + N + " taken by " + Callee;
      };
    }
    const NoteTag *T = refNote(C, KR, F, Fallback, Msg);
    if (API.KeptOnSuccess != Failure::Never) {
      // kept-on-success (device_register()): registered when it succeeds,
      // still this path's reference when it fails.
      auto [Kept, Held] = splitOnFailure(Ok, Ret, API.KeptOnSuccess, C);
      if (Kept) {
        if (const auto *SR = dyn_cast<SymbolicRegion>(KR->getBaseRegion()))
          Kept = markStored(Kept, SR->getSymbol());
        if (const RefEntry *E = getRef(Kept, makeRefKey(KR, F))) {
          bool Registered = applyRule(RuleId::RegisteredUntilSuccess);
          Kept = setRef(Kept, makeRefKey(KR, F),
                        Registered ? E->registered() : E->escaped());
          if (Registered)
            T = refNote(C, KR, F, Fallback, [Callee](const std::string &N) {
              return "The call to " + Callee + " registers " + N +
                     ": the registration keeps it once this function "
                     "returns success";
            });
        }
      }
      if (Held)
        C.addTransition(
            Held, refNote(C, KR, F, Fallback, [Callee](const std::string &N) {
              return "The call to " + Callee + " fails: it set the count of " +
                     N +
                     " to one and kept nothing, so this path holds its "
                     "first reference";
            }));
      if (!Kept) {
        if (Failed)
          C.addTransition(Failed);
        return;
      }
      Ok = Kept;
    }
    if (ConsumeNote) {
      // Both notes on one transition: chain two transitions.
      ExplodedNode *N = C.addTransition(Ok, ConsumeNote);
      if (N)
        C.addTransition(Ok, N, T);
    } else {
      C.addTransition(Ok, T);
    }
  }
  if (Failed)
    C.addTransition(Failed);
}
