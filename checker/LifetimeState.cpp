//===- LifetimeState.cpp - Which references a path holds ------------------===//

#include "LifetimeState.h"
#include "CountState.h"
#include "Rules.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

REGISTER_MAP_WITH_PROGRAMSTATE(HeldRefs, RefKey, RefEntry)
REGISTER_TRAIT_WITH_PROGRAMSTATE(PathReturnsError, unsigned)
REGISTER_TRAIT_WITH_PROGRAMSTATE(CreatedCountKept, bool)
REGISTER_TRAIT_WITH_PROGRAMSTATE(PendingSelfStore, const void *)
REGISTER_SET_WITH_PROGRAMSTATE(StoredPointers, SymbolRef)
// Pointers read out of a stored pointer's field while it was live.
REGISTER_SET_WITH_PROGRAMSTATE(ReadsOutOfStored, SymbolRef)
REGISTER_MAP_WITH_PROGRAMSTATE(ConvertedResults, SymbolRef, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(FieldCopies, const MemRegion *,
                               const MemRegion *)
REGISTER_SET_WITH_PROGRAMSTATE(AcpiNodes, const MemRegion *)
REGISTER_SET_WITH_PROGRAMSTATE(KeptGivenObjects, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(NullWithArg, SymbolRef, const MemRegion *)
REGISTER_MAP_WITH_PROGRAMSTATE(ErrPtrFacts, SymbolRef, bool)

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

/// The field or variable a symbolic pointer was loaded from, if any.
/// The region a pointer's symbol was loaded from (before or after a call
/// invalidated it), or null.
static const MemRegion *loadRegion(const MemRegion *Base) {
  const auto *SR = dyn_cast<SymbolicRegion>(Base);
  if (!SR)
    return nullptr;
  SymbolRef Sym = SR->getSymbol();
  if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym))
    return RV->getRegion();
  if (const auto *D = dyn_cast<SymbolDerived>(Sym))
    return D->getRegion();
  return nullptr;
}

const MemRegion *krefcheck::loadedFrom(const MemRegion *Base) {
  const MemRegion *From = loadRegion(Base);
  // Only fields: a variable's value is the same symbol until reassigned.
  return isa_and_nonnull<FieldRegion>(From) ? From : nullptr;
}

const MemRegion *krefcheck::loadedOutOf(const MemRegion *Base) {
  const MemRegion *From = loadRegion(Base);
  return isa_and_nonnull<FieldRegion, ElementRegion>(From)
             ? From->getBaseRegion()
             : nullptr;
}

const ParmVarDecl *krefcheck::givenParam(const MemRegion *R) {
  // `priv->dev->of_node`: at most a few fields deep.
  for (unsigned Depth = 0; R && Depth < 4; ++Depth) {
    const MemRegion *From = loadRegion(R->getBaseRegion());
    if (!From)
      return nullptr;
    if (const auto *VR = dyn_cast<VarRegion>(From)) {
      const auto *P = dyn_cast<ParmVarDecl>(VR->getDecl());
      return P && VR->getStackFrame()->inTopFrame() ? P : nullptr;
    }
    if (!isa<FieldRegion, ElementRegion>(From))
      return nullptr;
    R = From;
  }
  return nullptr;
}

/// Is R (or the object R was loaded from, e.g. `l->supplier`) an internal
/// reference found by a list walk or an index lookup?
bool krefcheck::reachedFromInternal(ProgramStateRef State, const MemRegion *R) {
  for (int Depth = 0; R && Depth < 3; ++Depth) {
    const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
    if (!SR)
      return false;
    SymbolRef Sym = SR->getSymbol();
    if (getInternalOrigin(State, Sym))
      return true;
    if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym))
      R = RV->getRegion();
    else if (const auto *D = dyn_cast<SymbolDerived>(Sym))
      R = D->getRegion();
    else
      return false;
  }
  return false;
}

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

/// Whether Copy is a pointer reloaded from a field a held object's pointer
/// Obj was stored into (`md->port = port`, then `md->port` read again after a
/// call invalidated `*md`): rule field-copy-identity.
static bool reloadedFieldCopy(ProgramStateRef S, const MemRegion *Obj,
                              const MemRegion *Copy) {
  if (!ruleEnabled(RuleId::FieldCopyIdentity))
    return false;
  const MemRegion *Origin = loadedFrom(Copy);
  const MemRegion *const *Stored =
      Origin ? S->get<FieldCopies>(Origin) : nullptr;
  return Stored && (*Stored)->getBaseRegion() == Obj;
}

/// Whether two pointers were loaded from the same place: the same field, or
/// the same element of arrays loaded from the same place (`wcnss->pds[0]`
/// before and after a call invalidated `*wcnss` and so `wcnss->pds`), or the
/// same field path of an object and of the pointer a field copy of it was
/// reloaded from (`port->dev.parent` and `md->port->dev.parent`).
static bool sameLoadOrigin(ProgramStateRef S, const MemRegion *A,
                           const MemRegion *B, unsigned Depth = 0) {
  const MemRegion *OA = loadRegion(A), *OB = loadRegion(B);
  if (!OA || !OB)
    return false;
  if (OA == OB)
    return isa<FieldRegion>(OA) || isa<ElementRegion>(OA);
  if (Depth > 3)
    return false;
  const MemRegion *SA = nullptr, *SB = nullptr;
  // The same field of objects loaded from the same place
  // (`vfe->camss->dev` before and after a call invalidated `*vfe`), through
  // embedded structs (`port->dev.parent`).
  const auto *FA = dyn_cast<FieldRegion>(OA);
  const auto *FB = dyn_cast<FieldRegion>(OB);
  while (FA && FB && FA->getDecl() == FB->getDecl()) {
    SA = FA->getSuperRegion()->StripCasts();
    SB = FB->getSuperRegion()->StripCasts();
    FA = dyn_cast<FieldRegion>(SA);
    FB = dyn_cast<FieldRegion>(SB);
  }
  const auto *EA = dyn_cast<ElementRegion>(OA);
  const auto *EB = dyn_cast<ElementRegion>(OB);
  if (EA && EB && EA->getIndex() == EB->getIndex() &&
      EA->getElementType() == EB->getElementType()) {
    SA = EA->getSuperRegion();
    SB = EB->getSuperRegion();
  }
  if (!SA || !SB)
    return false;
  if (SA == SB || reloadedFieldCopy(S, SA, SB) || reloadedFieldCopy(S, SB, SA))
    return true;
  return sameLoadOrigin(S, SA, SB, Depth + 1);
}

/// Whether a counter field looks like its object's lifetime count
/// (`ns.count`, `sk_refcnt`, `kobj.kref`) rather than a count of something
/// else the object keeps (`sk_wmem_alloc`, `net->passive`): its name says
/// it counts references or users.
static bool isLifetimeCounterField(const MemRegion *R) {
  const auto *FR = dyn_cast<FieldRegion>(R);
  if (!FR)
    return false;
  std::string N = FR->getDecl()->getName().lower();
  StringRef Name(N);
  return Name.contains("ref") || Name.ends_with("count") ||
         Name.ends_with("usage") || Name.ends_with("users") ||
         Name.ends_with("use");
}

/// A counter-keyed reference (family kref, from a refcount_*/kref_* call on
/// a field) on a lifetime count inside the object Base, for a get or put of
/// family F on Base itself: only for object families, and only on Base's
/// own fields, so a count on another object (`&other->sk_refcnt`) or of
/// another kind (`sk->sk_wmem_alloc`) is still reported.
static std::optional<std::pair<RefKey, RefEntry>>
objectCounterRef(ProgramStateRef S, const MemRegion *Base, Family F) {
  if (F == Family::Kref || !isLifetimeFamily(F))
    return std::nullopt;
  for (const auto &KV : S->get<HeldRefs>()) {
    const MemRegion *KR = KV.first.Region;
    if (keyFamily(KV.first) == Family::Kref && KR != Base &&
        KR->getBaseRegion() == Base && isLifetimeCounterField(KR))
      return std::make_pair(KV.first, KV.second);
  }
  return std::nullopt;
}

/// Two counter fields of one object (`&r->ref` and `&r->pending`) are two
/// counts: a put of one never drops the other.
static bool otherCounterField(const MemRegion *A, const MemRegion *B) {
  const auto *FA = dyn_cast<FieldRegion>(A);
  const auto *FB = dyn_cast<FieldRegion>(B);
  return FA && FB && FA->getDecl() != FB->getDecl();
}

std::optional<std::pair<RefKey, RefEntry>>
krefcheck::findRef(ProgramStateRef S, const MemRegion *R, Family F) {
  if (!R)
    return std::nullopt;
  RefKey K = makeRefKey(R, F);
  if (const RefEntry *E = getRef(S, K))
    return std::make_pair(K, *E);
  const MemRegion *Base = R->getBaseRegion();
  for (const auto &KV : S->get<HeldRefs>())
    if (keyFamily(KV.first) == F && KV.first.Region->getBaseRegion() == Base &&
        !otherCounterField(KV.first.Region, R))
      return std::make_pair(KV.first, KV.second);
  // fwnode_handle_put() of a software node puts its kobject: the node and
  // device families meet on the same object.
  if (F == Family::Node || F == Family::Device) {
    Family Other = F == Family::Node ? Family::Device : Family::Node;
    for (const auto &KV : S->get<HeldRefs>())
      if (keyFamily(KV.first) == Other &&
          KV.first.Region->getBaseRegion() == Base)
        return std::make_pair(KV.first, KV.second);
  }
  // `put_net(peer)` after `refcount_inc_not_zero(&peer->ns.count)` (the
  // inline body of maybe_get_net()): the object API's put drops the count
  // field of the object it is given.
  if (auto Counter = objectCounterRef(S, Base, F))
    return Counter;
  // `put_device(&adapter->dev)` after `adapter = i2c_verify_adapter(dev)`:
  // the converted result names the object `dev` holds a reference to.
  if (const auto *SR = dyn_cast<SymbolicRegion>(Base))
    if (const MemRegion *Orig = convertedFrom(S, SR->getSymbol()))
      if (Orig != Base)
        if (auto Found = findRef(S, Orig, F))
          return Found;
  // `dev->parent` loaded again after a call invalidated `*dev` is a new
  // symbol for the same field: the same reference.
  if (isa<SymbolicRegion>(Base))
    for (const auto &KV : S->get<HeldRefs>())
      if (keyFamily(KV.first) == F &&
          sameLoadOrigin(S, KV.first.Region->getBaseRegion(), Base))
        return std::make_pair(KV.first, KV.second);
  // `ctrl->dev = &pdev->dev; ... pm_runtime_put(ctrl->dev)` after a call
  // invalidated `*ctrl`: the reloaded field is the pointer stored in it.
  if (const MemRegion *Origin = loadedFrom(Base))
    if (const MemRegion *const *Copy = S->get<FieldCopies>(Origin))
      if ((*Copy)->getBaseRegion() != Base)
        if (auto Found = findRef(S, *Copy, F))
          return Found;
  return std::nullopt;
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
static bool readFromMemory(SymbolRef Sym) {
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
