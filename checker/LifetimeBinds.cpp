//===- LifetimeBinds.cpp - Stores that publish references -----------------===//
//
// A reference stored into memory that outlives the function (a field of
// an object reachable from outside, a global) is handed over; so is one
// given to inline asm that writes memory (rule asm-stores).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModelImpl.h"
#include "ModelFile.h"
#include "Rules.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

/// A pointer to an object whose references the model counts by its own
/// type (the model file's types: counted-objects).
static bool isCountedObjectPointer(QualType T) {
  if (!T->isPointerType())
    return false;
  const auto *RT = T->getPointeeType()->getAs<RecordType>();
  return RT && RT->getDecl()->getIdentifier() &&
         activeModel().Types.CountedObjects.contains(RT->getDecl()->getName());
}

/// Rule global-object-stored: the address of a global object (`&init_ipc_ns`
/// through get_ipc_ns()) stored into memory outside the stack hands its
/// counts over as a symbolic pointer's escape on that bind does; the
/// analyzer reports no escape for a region that is not a symbol. Into
/// memory this path allocated it is handed to that memory (rule
/// freed-container).
static ProgramStateRef storeGlobalObject(SVal Loc, SVal Val,
                                         ProgramStateRef State) {
  const MemRegion *R = refRegion(Val);
  const MemRegion *L = Loc.getAsRegion();
  const auto *GV = R ? dyn_cast<VarRegion>(R->getBaseRegion()) : nullptr;
  if (!GV || !GV->getDecl()->hasGlobalStorage() || !L ||
      !isa<SymbolicRegion>(L->getBaseRegion()) ||
      isa<StackSpaceRegion>(memorySpace(L, State)))
    return State;
  SymbolRef Mem = privateContainer(Loc, Val, State);
  for (const auto &KV : allRefs(State))
    if (KV.first.Region->getBaseRegion() == GV && KV.second.isHeld() &&
        escapesOnStore(keyFamily(KV.first)) &&
        applyRule(RuleId::GlobalObjectStored))
      State = setRef(State, KV.first,
                     Mem ? KV.second.escapedInto(Mem) : KV.second.escaped());
  return State;
}

static void noteBindImpl(SVal Loc, SVal Val, CheckerContext &C,
                         ProgramStateRef State) {
  State = storeGlobalObject(Loc, Val, State);
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
    // The held object itself, or the object it was read out of
    // (`midev->client = mcli` after get_device(&mcli->client->dev)).
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == R->getBaseRegion() ||
          (KV.second.isHeld() &&
           loadedOutOf(KV.first.Region->getBaseRegion()) ==
               R->getBaseRegion())) {
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
  SymbolRef Mem = privateContainer(Loc, Val, State);
  if (Mem != pendingContainer(State))
    State = setPendingContainer(State, Mem);
  // `dev->release = fn` (rule release-callback-puts reads it at the put).
  if (const auto *FR = dyn_cast_or_null<FieldRegion>(Loc.getAsRegion()))
    if (const auto *FCR =
            dyn_cast_or_null<FunctionCodeRegion>(Val.getAsRegion()))
      if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(FCR->getDecl()))
        if (FR->getDecl()->getIdentifier() &&
            activeModel().Types.ReleaseFields.contains(
                FR->getDecl()->getName()) &&
            ruleEnabled(RuleId::ReleaseCallbackPuts))
          State = noteInstalledRelease(State, FR->getSuperRegion(), Fn);
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
