//===- LifetimeState.cpp - Which references a path holds ------------------===//

#include "LifetimeState.h"
#include "CountState.h"
#include "Rules.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include <optional>

using namespace clang;
using namespace ento;
using namespace krefcheck;

REGISTER_MAP_WITH_PROGRAMSTATE(HeldRefs, RefKey, RefEntry)
REGISTER_TRAIT_WITH_PROGRAMSTATE(PathReturnsError, unsigned)
REGISTER_TRAIT_WITH_PROGRAMSTATE(CreatedCountKept, bool)
REGISTER_TRAIT_WITH_PROGRAMSTATE(PendingSelfStore, const void *)
REGISTER_TRAIT_WITH_PROGRAMSTATE(PendingContainer, const void *)
REGISTER_SET_WITH_PROGRAMSTATE(StoredPointers, SymbolRef)
// Objects a `names` row gave a name on this path (dev_set_name()).
REGISTER_SET_WITH_PROGRAMSTATE(NamedObjects, SymbolRef)
// The status the naming call returned, by object, while it lives: a status
// known nonzero when it dies says the call failed and named nothing
// (kobject_set_name_vargs() leaves the name unset when it fails).
REGISTER_MAP_WITH_PROGRAMSTATE(NamingResults, SymbolRef, SymbolRef)
// Pointers read out of a stored pointer's field while it was live.
REGISTER_SET_WITH_PROGRAMSTATE(ReadsOutOfStored, SymbolRef)
REGISTER_MAP_WITH_PROGRAMSTATE(ConvertedResults, SymbolRef, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(FieldCopies, const MemRegion *,
                               const MemRegion *)
REGISTER_SET_WITH_PROGRAMSTATE(AcpiNodes, const MemRegion *)
REGISTER_SET_WITH_PROGRAMSTATE(KeptGivenObjects, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(NullWithArg, SymbolRef, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(ErrPtrFacts, SymbolRef, bool)
REGISTER_MAP_WITH_PROGRAMSTATE(ProvenEqualPtrs, SymbolRef, SymbolRef)
/// Rule release-callback-puts: the release callbacks this path installed,
/// by the object whose field holds them (`chip->devs` for
/// `chip->devs.release = fn`). The analyzer forgets the stored function
/// pointer when a later call is given the object (dev_set_name()).
REGISTER_MAP_WITH_PROGRAMSTATE(InstalledReleases, const MemRegion *,
                               const clang::FunctionDecl *)

/// Drops the entries of a map keyed by symbol whose symbol died.
template <typename Trait>
static ProgramStateRef removeDeadKeys(ProgramStateRef S, SymbolReaper &SR) {
  for (const auto &KV : S->get<Trait>())
    if (SR.isDead(KV.first))
      S = S->remove<Trait>(KV.first);
  return S;
}

RefEntry RefEntry::acquiredBy(const LifetimeAPI &API, const clang::Stmt *Site,
                              const clang::Expr *ArgE, unsigned Since) const {
  RefEntry E = withKind(Kind::Owned);
  E.Count = 1;
  E.Since = Since;
  E.Acquirer = &API;
  E.AcquireSite = Site;
  E.Releaser = nullptr;
  E.HeldAtCalleeError = false;
  E.Registered = false;
  if (!E.Var && !E.ArgExpr)
    E.ArgExpr = ArgE;
  if (!E.Var && ArgE)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(ArgE->IgnoreParenImpCasts()))
      E.Var = dyn_cast<VarDecl>(DRE->getDecl());
  return E;
}

void RefEntry::dump(raw_ostream &OS) const {
  static const char *Kinds[] = {"owned", "released", "borrowed-put", "escaped",
                                "lost"};
  OS << Kinds[static_cast<unsigned>(K)] << " x" << Count;
  if (Acquirer)
    OS << " by " << Acquirer->Name << "()";
  if (Releaser)
    OS << " put by " << Releaser->Name << "()";
  if (Since)
    OS << " since $" << Since;
  if (HeldAtCalleeError)
    OS << " held at a callee's error return";
  if (Registered)
    OS << " registered";
}

const RefEntry *krefcheck::getRef(ProgramStateRef S, const RefKey &K) {
  return S->get<HeldRefs>(K);
}
ProgramStateRef krefcheck::setRef(ProgramStateRef S, const RefKey &K,
                                  const RefEntry &E) {
  return S->set<HeldRefs>(K, E);
}
ProgramStateRef krefcheck::removeRef(ProgramStateRef S, const RefKey &K) {
  return S->remove<HeldRefs>(K);
}

bool krefcheck::hasRefs(ProgramStateRef S) {
  return !S->get<HeldRefs>().isEmpty();
}

RefMap krefcheck::allRefs(ProgramStateRef S) { return S->get<HeldRefs>(); }

bool krefcheck::isGivenPointer(ProgramStateRef S, const MemRegion *R) {
  // A list walk's entry (`list_for_each_entry(link, &dev->links.consumers,
  // s_node)`) was found, not given: the list holds its count.
  return givenParam(R) && !wasKeptGiven(S, R) && !reachedFromInternal(S, R);
}

bool krefcheck::isGivenReferencePut(ProgramStateRef S, const RefKey &K,
                                    const RefEntry &E) {
  return E.K == RefEntry::Kind::BorrowedPut && isLifetimeFamily(K.Fam) &&
         isGivenPointer(S, K.Region);
}

ProgramStateRef krefcheck::markKeptGiven(ProgramStateRef S,
                                         const MemRegion *R) {
  return S->add<KeptGivenObjects>(R->getBaseRegion());
}

bool krefcheck::wasKeptGiven(ProgramStateRef S, const MemRegion *R) {
  return R && S->contains<KeptGivenObjects>(R->getBaseRegion());
}

const MemRegion *krefcheck::refRegion(SVal V) {
  const MemRegion *R = V.getAsRegion();
  return R ? R->StripCasts() : nullptr;
}

ProgramStateRef krefcheck::setReturnsError(ProgramStateRef S, PathError E) {
  return S->set<PathReturnsError>(unsigned(E));
}
PathError krefcheck::returnsError(ProgramStateRef S) {
  return PathError(S->get<PathReturnsError>());
}
ProgramStateRef krefcheck::markCreatedCountKept(ProgramStateRef S) {
  return S->set<CreatedCountKept>(true);
}
bool krefcheck::createdCountKept(ProgramStateRef S) {
  return S->get<CreatedCountKept>();
}
ProgramStateRef krefcheck::setPendingSelfStore(ProgramStateRef S,
                                               SymbolRef Sym) {
  return S->set<PendingSelfStore>(Sym);
}
SymbolRef krefcheck::pendingSelfStore(ProgramStateRef S) {
  return static_cast<SymbolRef>(S->get<PendingSelfStore>());
}
ProgramStateRef krefcheck::setPendingContainer(ProgramStateRef S,
                                               SymbolRef Mem) {
  return S->set<PendingContainer>(Mem);
}
SymbolRef krefcheck::pendingContainer(ProgramStateRef S) {
  return static_cast<SymbolRef>(S->get<PendingContainer>());
}

std::string krefcheck::describeRef(const RefKey &K, const RefEntry &E) {
  if (E.Var)
    return "'" + E.Var->getName().str() + "'";
  if (E.ArgExpr) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    static const LangOptions LO;
    E.ArgExpr->IgnoreParenImpCasts()->printPretty(OS, nullptr,
                                                  PrintingPolicy(LO));
    if (S.size() <= 40)
      return "'" + S + "'";
  }
  const MemRegion *R = K.Region;
  if (R->canPrintPretty()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    R->printPretty(OS);
    return S;
  }
  if (E.Acquirer && E.Acquirer->RefArg == RetVal)
    return "the result of " + E.Acquirer->Name.str() + "()";
  return "the object";
}

void krefcheck::printLifetimeFacts(raw_ostream &OS, ProgramStateRef S,
                                   const char *NL) {
  for (const auto &KV : S->get<HeldRefs>()) {
    OS << "  ref " << KV.first.Region << " family " << unsigned(KV.first.Fam)
       << ": ";
    KV.second.dump(OS);
    OS << NL;
  }
  for (SymbolRef Sym : S->get<StoredPointers>())
    OS << "  stored " << Sym << NL;
  for (const auto &KV : S->get<FieldCopies>())
    OS << "  field " << KV.first << " holds " << KV.second << NL;
  if (returnsError(S) != PathError::None)
    OS << "  path returns an error" << NL;
}

ProgramStateRef krefcheck::markNamed(ProgramStateRef S, SymbolRef Sym) {
  return S->add<NamedObjects>(Sym);
}
ProgramStateRef krefcheck::noteNamingResult(ProgramStateRef S, SymbolRef Sym,
                                            SVal Result) {
  SymbolRef Status = Result.getAsSymbol();
  return Sym && Status && S->contains<NamedObjects>(Sym)
             ? S->set<NamingResults>(Sym, Status)
             : S;
}
bool krefcheck::isNamed(ProgramStateRef S, SymbolRef Sym) {
  return Sym && S->contains<NamedObjects>(Sym);
}
ProgramStateRef krefcheck::markStored(ProgramStateRef S, SymbolRef Sym) {
  return S->add<StoredPointers>(Sym);
}
bool krefcheck::isStored(ProgramStateRef S, SymbolRef Sym) {
  if (!Sym)
    return false;
  // A tagged pointer (`(void *)(skb->_nfct & NFCT_PTRMASK)`) is the stored
  // word with its tag bits masked off: look through to the word.
  for (SymbolRef Part : Sym->symbols())
    if (S->contains<StoredPointers>(Part))
      return true;
  return false;
}
/// The symbolic object whose field a pointer symbol was read from
/// (`md` for `md->chan`), or null.
static SymbolRef fieldOwner(SymbolRef Sym) {
  const TypedValueRegion *From = nullptr;
  if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym))
    From = RV->getRegion();
  else if (const auto *D = dyn_cast<SymbolDerived>(Sym))
    From = D->getRegion();
  const auto *FR = dyn_cast_or_null<FieldRegion>(From);
  if (!FR)
    return nullptr;
  const auto *Owner =
      dyn_cast<SymbolicRegion>(FR->getSuperRegion()->StripCasts());
  return Owner ? Owner->getSymbol() : nullptr;
}
/// Read out of memory (a parameter, a field of one), not produced by a
/// call on this path.
bool krefcheck::readFromMemory(SymbolRef Sym) {
  return isa<SymbolRegionValue, SymbolDerived>(Sym);
}
ProgramStateRef krefcheck::noteReadOutOfStored(ProgramStateRef S,
                                               SymbolRef Sym) {
  if (!Sym || !readFromMemory(Sym) || S->get<StoredPointers>().isEmpty())
    return S;
  SymbolRef Owner = fieldOwner(Sym);
  if (!Owner || !readFromMemory(Owner) || !S->contains<StoredPointers>(Owner))
    return S;
  return S->add<ReadsOutOfStored>(Sym);
}
bool krefcheck::linkedToStored(ProgramStateRef S, SymbolRef Sym) {
  // Only objects the function was given, linked to pointers it was given:
  // a pointer it looked up and stored (`sor->aux = find_aux(np);
  // get_device(sor->aux->dev)`) is its own to put on an error path.
  if (!Sym || !readFromMemory(Sym))
    return false;
  if (S->contains<ReadsOutOfStored>(Sym))
    return true;
  if (SymbolRef Owner = fieldOwner(Sym))
    if (readFromMemory(Owner) && S->contains<StoredPointers>(Owner))
      return true;
  for (SymbolRef Stored : S->get<StoredPointers>())
    if (readFromMemory(Stored) && fieldOwner(Stored) == Sym)
      return true;
  return false;
}
ProgramStateRef krefcheck::removeDeadStored(ProgramStateRef S,
                                            SymbolReaper &SR) {
  // A pointer read out of memory (`parent`) stays marked after its variable
  // dies: the get on `parent->dev` that follows names it only through the
  // field symbol (rule stored-linked-get).
  for (SymbolRef Sym : S->get<StoredPointers>())
    if (SR.isDead(Sym))
      S = S->remove<StoredPointers>(Sym);
  for (SymbolRef Sym : S->get<ReadsOutOfStored>())
    if (SR.isDead(Sym))
      S = S->remove<ReadsOutOfStored>(Sym);
  // Checkers see the constraints of dying symbols: a naming call whose
  // status dies known nonzero failed, and the object has no name.
  SValBuilder &SVB = S->getStateManager().getSValBuilder();
  for (const auto &KV : S->get<NamingResults>()) {
    if (!SR.isDead(KV.second))
      continue;
    SVal IsZero = SVB.evalEQ(S, nonloc::SymbolVal(KV.second),
                             SVB.makeZeroVal(KV.second->getType()));
    if (auto D = IsZero.getAs<DefinedOrUnknownSVal>())
      if (!S->assume(*D, true))
        S = S->remove<NamedObjects>(KV.first);
    S = S->remove<NamingResults>(KV.first);
  }
  return S;
}

ProgramStateRef krefcheck::markConverted(ProgramStateRef S, SymbolRef Result,
                                         const MemRegion *RefBase) {
  return S->set<ConvertedResults>(Result, RefBase);
}
const MemRegion *krefcheck::convertedFrom(ProgramStateRef S, SymbolRef Sym) {
  if (!Sym)
    return nullptr;
  const MemRegion *const *R = S->get<ConvertedResults>(Sym);
  return R ? *R : nullptr;
}
bool krefcheck::hasLiveConversion(ProgramStateRef S, const MemRegion *RefBase,
                                  SymbolReaper &SR) {
  for (const auto &KV : S->get<ConvertedResults>())
    if (KV.second == RefBase && !SR.isDead(KV.first))
      return true;
  return false;
}
ProgramStateRef krefcheck::markAcpiNode(ProgramStateRef S,
                                        const MemRegion *Node) {
  return S->add<AcpiNodes>(Node);
}
bool krefcheck::testedAcpi(ProgramStateRef S, const MemRegion *Node) {
  return S->contains<AcpiNodes>(Node);
}

ProgramStateRef krefcheck::noteNullWithArg(ProgramStateRef S, SymbolRef Result,
                                           const MemRegion *Arg) {
  return S->set<NullWithArg>(Result, Arg);
}
const MemRegion *krefcheck::nullWithArg(ProgramStateRef S, SymbolRef Result) {
  const MemRegion *const *Arg = S->get<NullWithArg>(Result);
  return Arg ? *Arg : nullptr;
}
ProgramStateRef krefcheck::noteErrPtr(ProgramStateRef S, SymbolRef Ptr,
                                      bool IsErr) {
  return S->set<ErrPtrFacts>(Ptr, IsErr);
}
std::optional<bool> krefcheck::errPtrFact(ProgramStateRef S, SymbolRef Ptr) {
  if (const bool *B = S->get<ErrPtrFacts>(Ptr))
    return *B;
  return std::nullopt;
}
ProgramStateRef krefcheck::removeDeadErrPtrs(ProgramStateRef S,
                                             SymbolReaper &SR) {
  return removeDeadKeys<ErrPtrFacts>(S, SR);
}
ProgramStateRef krefcheck::removeDeadNullWithArg(ProgramStateRef S,
                                                 SymbolReaper &SR) {
  return removeDeadKeys<NullWithArg>(S, SR);
}

const MemRegion *krefcheck::fieldCopyIn(ProgramStateRef S,
                                        const MemRegion *Field) {
  const MemRegion *const *Copy = S->get<FieldCopies>(Field);
  return Copy ? *Copy : nullptr;
}
ProgramStateRef krefcheck::noteFieldCopy(ProgramStateRef S,
                                         const MemRegion *Field,
                                         const MemRegion *Ref) {
  return S->set<FieldCopies>(Field, Ref);
}
bool krefcheck::storedInLiveField(ProgramStateRef S, const MemRegion *R,
                                  SymbolReaper &SR) {
  if (!ruleEnabled(RuleId::FieldCopyIdentity))
    return false;
  for (const auto &KV : S->get<FieldCopies>())
    if (KV.second->getBaseRegion() == R->getBaseRegion() &&
        SR.isLiveRegion(KV.first))
      return true;
  return false;
}

ProgramStateRef krefcheck::removeDeadFieldCopies(ProgramStateRef S,
                                                 SymbolReaper &SR) {
  // Kept while a reference on the stored object is tracked: the pointer
  // reloaded from the field outlives the structure's own pointer (`put(
  // ctrl->dev)` is the last use of `ctrl`).
  for (const auto &KV : S->get<FieldCopies>()) {
    if (SR.isLiveRegion(KV.first))
      continue;
    bool Tracked = false;
    for (const auto &Ref : S->get<HeldRefs>())
      if (Ref.first.Region->getBaseRegion() == KV.second->getBaseRegion())
        Tracked = true;
    if (!Tracked)
      S = S->remove<FieldCopies>(KV.first);
  }
  return S;
}
ProgramStateRef krefcheck::removeDeadConverted(ProgramStateRef S,
                                               SymbolReaper &SR) {
  return removeDeadKeys<ConvertedResults>(S, SR);
}

/// The two pointers Cond, taken as Assumption, says are equal (`a == b`
/// true, `a != b` false).
static std::optional<std::pair<SymbolRef, SymbolRef>>
assumedEqualPointers(SVal Cond, bool Assumption) {
  const auto *E = dyn_cast_or_null<SymSymExpr>(Cond.getAsSymbol());
  if (!E)
    return std::nullopt;
  BinaryOperatorKind Op = E->getOpcode();
  if (!(Op == BO_EQ && Assumption) && !(Op == BO_NE && !Assumption))
    return std::nullopt;
  SymbolRef L = E->getLHS(), R = E->getRHS();
  if (!Loc::isLocType(L->getType()) || !Loc::isLocType(R->getType()))
    return std::nullopt;
  return std::make_pair(L, R);
}

/// Whether the path holds an entry on the object Sym points to that
/// satisfies Pred.
template <typename PredT>
static bool holdsOn(ProgramStateRef S, SymbolRef Sym, PredT Pred) {
  for (const auto &KV : S->get<HeldRefs>())
    if (const auto *SR =
            dyn_cast<SymbolicRegion>(KV.first.Region->getBaseRegion()))
      if (SR->getSymbol() == Sym && Pred(KV.second))
        return true;
  return false;
}

ProgramStateRef krefcheck::noteProvenEqual(ProgramStateRef S, SVal Cond,
                                           bool Assumption) {
  auto Equal = assumedEqualPointers(Cond, Assumption);
  if (!Equal)
    return S;
  auto [L, R] = *Equal;
  // Only a comparison with a held object's pointer is worth keeping: the
  // constraint manager forgets it when that pointer's variable dies.
  auto Any = [](const RefEntry &) { return true; };
  if (!holdsOn(S, L, Any) && !holdsOn(S, R, Any))
    return S;
  return S->set<ProvenEqualPtrs>(L, R)->set<ProvenEqualPtrs>(R, L);
}
ProgramStateRef krefcheck::refuteFreshEqualsLoaded(ProgramStateRef S, SVal Cond,
                                                   bool Assumption) {
  auto Equal = assumedEqualPointers(Cond, Assumption);
  if (!Equal)
    return S;
  auto [L, R] = *Equal;
  auto Fresh = [&](SymbolRef Sym) {
    return !isStored(S, Sym) && holdsOn(S, Sym, [](const RefEntry &E) {
      return E.isOwned() && E.Acquirer && E.Acquirer->InitsFresh;
    });
  };
  auto Loaded = [](SymbolRef Sym) {
    return isa<SymbolRegionValue, SymbolDerived>(Sym);
  };
  if (((Fresh(L) && Loaded(R)) || (Fresh(R) && Loaded(L))) &&
      applyRule(RuleId::FreshPointerDistinct))
    return nullptr;
  return S;
}
bool krefcheck::provenEqual(ProgramStateRef S, SymbolRef A, SymbolRef B) {
  // Either entry may be gone: each is dropped when its key dies.
  const SymbolRef *P = S->get<ProvenEqualPtrs>(A);
  const SymbolRef *Q = S->get<ProvenEqualPtrs>(B);
  return (P && *P == B) || (Q && *Q == A);
}
ProgramStateRef krefcheck::removeDeadProvenEqual(ProgramStateRef S,
                                                 SymbolReaper &SR) {
  return removeDeadKeys<ProvenEqualPtrs>(S, SR);
}

ProgramStateRef krefcheck::noteInstalledRelease(ProgramStateRef S,
                                                const MemRegion *Object,
                                                const clang::FunctionDecl *Fn) {
  return S->set<InstalledReleases>(Object, Fn);
}
const clang::FunctionDecl *
krefcheck::installedRelease(ProgramStateRef S, const MemRegion *Object) {
  const clang::FunctionDecl *const *Fn = S->get<InstalledReleases>(Object);
  return Fn ? *Fn : nullptr;
}
ProgramStateRef krefcheck::removeDeadInstalledReleases(ProgramStateRef S,
                                                       SymbolReaper &SR) {
  for (const auto &KV : S->get<InstalledReleases>())
    if (!SR.isLiveRegion(KV.first))
      S = S->remove<InstalledReleases>(KV.first);
  return S;
}
