//===- RefLookup.cpp - Which held reference a pointer names ---------------===//
//
// findRef(): the reference a get or put on a pointer acts on. The pointer
// may name a held object directly, through another field or counter of the
// same object, through a converted view, or after a call invalidated the
// memory it was read from (the same field read again, a field path through
// a pointer stored into a field: rule field-copy-identity). The helpers say
// where a pointer was read from (loadedFrom(), givenParam(), ...).
//
//===----------------------------------------------------------------------===//

#include "CountState.h"
#include "LifetimeState.h"
#include "Rules.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

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

bool krefcheck::inGivenMemory(const MemRegion *R) {
  const MemRegion *Base = R->getBaseRegion();
  if (const auto *SR = dyn_cast<SymbolicRegion>(Base))
    return readFromMemory(SR->getSymbol());
  if (const auto *VR = dyn_cast<VarRegion>(Base))
    return VR->getDecl()->hasGlobalStorage();
  return false;
}

bool krefcheck::isGivenRegistered(const MemRegion *R, const RefEntry &E) {
  return E.Acquirer && E.Acquirer->InitsFresh &&
         E.Acquirer->KeptOnSuccess != Failure::Never && inGivenMemory(R);
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

/// Whether Copy is a pointer reloaded from a field a held object's pointer
/// Obj was stored into (`md->port = port`, then `md->port` read again after a
/// call invalidated `*md`): rule field-copy-identity.
static bool reloadedFieldCopy(ProgramStateRef S, const MemRegion *Obj,
                              const MemRegion *Copy) {
  if (!ruleEnabled(RuleId::FieldCopyIdentity))
    return false;
  const MemRegion *Origin = loadedFrom(Copy);
  const MemRegion *Stored = Origin ? fieldCopyIn(S, Origin) : nullptr;
  return Stored && Stored->getBaseRegion() == Obj;
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
  if (OA == OB) {
    if (isa<FieldRegion>(OA) || isa<ElementRegion>(OA))
      return true;
    // A global read again after a call invalidated it (`uv_hubs[i]` before
    // and after kobject_init_and_add()): rule global-reload-identity.
    const auto *VR = dyn_cast<VarRegion>(OA);
    return VR && VR->getDecl()->hasGlobalStorage() &&
           applyRule(RuleId::GlobalReloadIdentity);
  }
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
  for (const auto &KV : allRefs(S)) {
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

/// A held reference of family F whose object the path proved equal to R's
/// (rule proven-equal): `if (old == gang) break; ... dma_fence_put(old)`
/// after dma_fence_get(gang).
static std::optional<std::pair<RefKey, RefEntry>>
provenEqualRef(ProgramStateRef S, const MemRegion *R, Family F) {
  const auto *Base = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!Base || !ruleEnabled(RuleId::ProvenEqual))
    return std::nullopt;
  for (const auto &KV : allRefs(S)) {
    const auto *KB = dyn_cast<SymbolicRegion>(KV.first.Region->getBaseRegion());
    if (!KB || KB == Base || keyFamily(KV.first) != F || !KV.second.isHeld() ||
        otherCounterField(KV.first.Region, R))
      continue;
    if (provenEqual(S, KB->getSymbol(), Base->getSymbol())) {
      applyRule(RuleId::ProvenEqual);
      return std::make_pair(KV.first, KV.second);
    }
  }
  return std::nullopt;
}

std::optional<std::pair<RefKey, RefEntry>>
krefcheck::findRef(ProgramStateRef S, const MemRegion *R, Family F) {
  if (!R)
    return std::nullopt;
  RefKey K = makeRefKey(R, F);
  if (const RefEntry *E = getRef(S, K)) {
    // `old` got and put once, then put again: the second put is the equal
    // held pointer's (amdgpu_device_switch_gang()).
    if (!E->isHeld())
      if (auto Equal = provenEqualRef(S, R, F))
        return Equal;
    return std::make_pair(K, *E);
  }
  const MemRegion *Base = R->getBaseRegion();
  for (const auto &KV : allRefs(S))
    if (keyFamily(KV.first) == F && KV.first.Region->getBaseRegion() == Base &&
        !otherCounterField(KV.first.Region, R))
      return std::make_pair(KV.first, KV.second);
  // fwnode_handle_put() of a software node puts its kobject: the node and
  // device families meet on the same object.
  if (F == Family::Node || F == Family::Device) {
    Family Other = F == Family::Node ? Family::Device : Family::Node;
    for (const auto &KV : allRefs(S))
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
    for (const auto &KV : allRefs(S))
      if (keyFamily(KV.first) == F &&
          sameLoadOrigin(S, KV.first.Region->getBaseRegion(), Base))
        return std::make_pair(KV.first, KV.second);
  // `ctrl->dev = &pdev->dev; ... pm_runtime_put(ctrl->dev)` after a call
  // invalidated `*ctrl`: the reloaded field is the pointer stored in it.
  if (const MemRegion *Origin = loadedFrom(Base))
    if (const MemRegion *Copy = fieldCopyIn(S, Origin))
      if (Copy->getBaseRegion() != Base)
        if (auto Found = findRef(S, Copy, F))
          return Found;
  if (auto Equal = provenEqualRef(S, R, F))
    return Equal;
  return std::nullopt;
}
