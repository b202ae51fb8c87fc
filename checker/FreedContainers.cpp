//===- FreedContainers.cpp - References stored in the path's own memory --===//
//
// Rule freed-container. A held reference stored into a field of memory this
// path allocated (an allocator row's result, not devm_* memory) is handed
// over to that memory, not to anyone who keeps it: noteBind() names the
// memory (privateContainer()) and the store's escape records it in the
// entry (RefEntry::escapedInto()). When the path frees that memory with a
// memory-frees call while no other call was given it, the reference is the
// path's again (containerCall()), and leaks unless put; a call given the
// memory may have put what it holds, and ends the link; a put through the
// field ends the entry (release()).
//
// Row key put-only (freedNotPut()): the memory of a named object whose
// first reference the path holds on a put-only count (device_initialize())
// freed instead of put.
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

bool lifetime::isMemoryFree(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         activeModel().Calls.MemoryFrees.contains(FD->getName()) &&
         ruleEnabled(RuleId::FreedContainer);
}

CallRole lifetime::allocatorRoleOf(SymbolRef Mem) {
  const auto *Sym = dyn_cast_or_null<SymbolConjured>(Mem);
  const auto *CE = Sym ? dyn_cast_or_null<CallExpr>(Sym->getStmt()) : nullptr;
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD ? contractFor(FD).Role : CallRole::None;
}

/// The memory a store puts a held reference into, when the path allocated
/// it (an allocator row's result: rule freed-container; a managed-allocator
/// row's, which the device frees: rule managed-container).
SymbolRef lifetime::privateContainer(SVal Loc, SVal Val,
                                     ProgramStateRef State) {
  const MemRegion *L = Loc.getAsRegion();
  const MemRegion *R = refRegion(Val);
  if (!L || !R || !isa<FieldRegion, ElementRegion>(L) ||
      !ruleEnabled(RuleId::FreedContainer))
    return nullptr;
  const auto *SR = dyn_cast<SymbolicRegion>(L->getBaseRegion());
  SymbolRef Sym = SR ? SR->getSymbol() : nullptr;
  CallRole Role = allocatorRoleOf(Sym);
  if (Role != CallRole::Allocator && !(Role == CallRole::ManagedAllocator &&
                                       ruleEnabled(RuleId::ManagedContainer)))
    return nullptr;
  for (const auto &KV : allRefs(State))
    if (KV.first.Region->getBaseRegion() == R->getBaseRegion() &&
        KV.second.isHeld())
      return Sym;
  return nullptr;
}

bool lifetime::inManagedContainer(const RefEntry &E) {
  return E.K == RefEntry::Kind::Escaped && E.Container &&
         ruleEnabled(RuleId::ManagedContainer) &&
         allocatorRoleOf(E.Container) == CallRole::ManagedAllocator;
}

/// Rule managed-container: at an error return, the references stored in
/// device-managed memory that no call was given are the path's again: the
/// device frees the memory, and nothing puts what it holds.
ProgramStateRef lifetime::freeManagedContainers(ProgramStateRef State) {
  for (const auto &KV : allRefs(State)) {
    const RefEntry &E = KV.second;
    if (inManagedContainer(E) && applyRule(RuleId::ManagedContainer))
      State = setRef(State, KV.first, E.freedContainer());
  }
  return State;
}

/// Rule freed-container: a memory-frees call (kfree()) given private memory
/// that holds references the path stored into it gives them back to the
/// path; any other call given that memory (but one that keeps nothing) may
/// have put them, and they stay handed over for good.
ProgramStateRef lifetime::containerCall(const CallEvent &Call,
                                        const CallContract &K,
                                        ProgramStateRef State,
                                        CheckerContext &C,
                                        const NoteTag *&Tag) {
  if (K.Role == CallRole::Logging || K.Role == CallRole::KeepsNothing ||
      !ruleEnabled(RuleId::FreedContainer))
    return State;
  // Every call passes here: most paths hold nothing stored this way.
  if (llvm::none_of(allRefs(State),
                    [](const auto &KV) { return KV.second.Container; }))
    return State;
  bool Frees = isMemoryFree(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  std::string Freed, Memory;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    const auto *SR = R ? dyn_cast<SymbolicRegion>(R->getBaseRegion()) : nullptr;
    if (!SR)
      continue;
    for (const auto &KV : allRefs(State)) {
      const RefEntry &E = KV.second;
      if (E.K != RefEntry::Kind::Escaped || E.Container != SR->getSymbol())
        continue;
      if (Frees && R == SR && applyRule(RuleId::FreedContainer)) {
        State = setRef(State, KV.first, E.freedContainer());
        if (Freed.empty()) {
          Freed = describeRef(KV.first, E);
          llvm::raw_string_ostream OS(Memory);
          Call.getArgExpr(I)->IgnoreParenImpCasts()->printPretty(
              OS, nullptr, PrintingPolicy(C.getLangOpts()));
        }
      } else {
        State = setRef(State, KV.first, E.escaped());
      }
    }
  }
  if (!Freed.empty()) {
    std::string Msg = "'" + Memory + "' is freed here with " + Freed +
                      " stored in it: that reference is this path's to put "
                      "again";
    Tag = C.getNoteTag([Msg](PathSensitiveBugReport &) { return Msg; },
                       /*IsPrunable=*/false);
  }
  return State;
}

/// kfree() of an object whose first reference the path holds on a put-only
/// count (device_initialize(), device_register()): the release the put
/// would run is skipped. Reported by refcount.Leak at the free; returns the
/// error node the path goes on from, or null.
ExplodedNode *lifetime::freedNotPut(const CallEvent &Call, CheckerContext &C,
                                    const LeakReporter *Leak) {
  // The model's memory-frees, whether or not rule freed-container is on
  // (isMemoryFree() asks that rule).
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
  if (!Leak || !hasRefs(C.getState()) || !FD || !FD->getIdentifier() ||
      !activeModel().Calls.MemoryFrees.contains(FD->getName()))
    return nullptr;
  ProgramStateRef State = C.getState();
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R)
      continue;
    for (const auto &KV : allRefs(State)) {
      const RefEntry &E = KV.second;
      if (!E.isOwned() || !E.Acquirer || !E.Acquirer->PutOnly ||
          !E.AcquireSite ||
          KV.first.Region->getBaseRegion() != R->getBaseRegion())
        continue;
      // Only a named object loses something to the free: a register call
      // names it (kobject_init_and_add()'s format; device_add() fails
      // without a name), device_initialize() does not.
      const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
      if (E.Acquirer->KeptOnSuccess != Failure::Never ||
          (SR && isNamed(State, SR->getSymbol()))) {
        ExplodedNode *Err = C.generateNonFatalErrorNode(State);
        if (Err)
          Leak->reportFreedNotPut(C, Err, KV.first, E, Call);
        return Err;
      }
    }
  }
  return nullptr;
}
