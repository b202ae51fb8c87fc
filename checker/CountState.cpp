//===- CountState.cpp - What a path knows about each count ---------------===//

#include "CountState.h"
#include "CounterKey.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SValBuilder.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SymbolManager.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

REGISTER_MAP_WITH_PROGRAMSTATE(CounterStates, const MemRegion *, CountState)
REGISTER_MAP_WITH_PROGRAMSTATE(UnownedReads, const MemRegion *, SymbolRef)
REGISTER_SET_WITH_PROGRAMSTATE(ZeroFilledObjects, SymbolRef)
REGISTER_MAP_WITH_PROGRAMSTATE(InternalRefs, SymbolRef, unsigned)
// The node field a list walk reached an internal reference through.
REGISTER_MAP_WITH_PROGRAMSTATE(InternalMembers, SymbolRef, const void *)
// Objects (base regions) a tested kref_put()'s release callback freed.
REGISTER_MAP_WITH_PROGRAMSTATE(ReleasedObjects, const MemRegion *, ReleaseRan)

void CountState::dump(raw_ostream &OS) const {
  OS << (isHeld() ? "Held" : "Zero") << '(';
  switch (W) {
  case Why::Init:
    OS << "init";
    break;
  case Why::TryGetOk:
    OS << "try-get ok";
    break;
  case Why::Get:
    OS << "get";
    break;
  case Why::PutHitZero:
    OS << "put hit zero";
    break;
  case Why::TryGetFailed:
    OS << "try-get failed";
    break;
  case Why::SetZero:
    OS << "set to zero";
    break;
  case Why::SetZeroPrivate:
    OS << "set to zero, private object";
    break;
  }
  if (Extra)
    OS << ", +" << Extra;
  if (PutFrame)
    OS << ", in " << PutFrame;
  OS << ')';
}

StringRef krefcheck::describeOrigin(InternalOrigin O) {
  switch (O) {
  case InternalOrigin::List:
    return "a list walk";
  case InternalOrigin::HList:
    return "a hash-list walk";
  case InternalOrigin::RBTree:
    return "an rb-tree walk";
  case InternalOrigin::IDR:
    return "an IDR lookup";
  case InternalOrigin::XArray:
    return "an XArray lookup";
  case InternalOrigin::RadixTree:
    return "a radix-tree lookup";
  case InternalOrigin::RHashtable:
    return "an rhashtable lookup";
  case InternalOrigin::RCU:
    return "an RCU-protected pointer";
  }
  return "an index";
}

const CountState *krefcheck::getCountState(ProgramStateRef S,
                                           const MemRegion *Counter) {
  return S->get<CounterStates>(Counter);
}
ProgramStateRef krefcheck::setCountState(ProgramStateRef S,
                                         const MemRegion *Counter,
                                         CountState CS) {
  return S->set<CounterStates>(Counter, CS);
}
ProgramStateRef krefcheck::forgetCountState(ProgramStateRef S,
                                            const MemRegion *Counter) {
  return S->remove<CounterStates>(Counter);
}

ProgramStateRef krefcheck::setUnownedRead(ProgramStateRef S,
                                          const MemRegion *Counter,
                                          SymbolRef Value) {
  return S->set<UnownedReads>(Counter, Value);
}
SymbolRef krefcheck::getUnownedRead(ProgramStateRef S,
                                    const MemRegion *Counter) {
  const SymbolRef *V = S->get<UnownedReads>(Counter);
  return V ? *V : nullptr;
}

ProgramStateRef krefcheck::forgetUnownedReadsIn(ProgramStateRef S, SVal Value) {
  SymbolRef V = Value.getAsSymbol();
  if (!V)
    return S;
  SValBuilder &SVB = S->getStateManager().getSValBuilder();
  ProgramStateRef Orig = S;
  for (SymbolRef Part : V->symbols())
    for (const auto &KV : Orig->get<UnownedReads>()) {
      if (KV.second != Part)
        continue;
      // A read already tested against zero (`n && n - 1 < bound`) keeps
      // that test.
      SVal IsZero = SVB.evalEQ(Orig, SVB.makeSymbolVal(Part),
                               SVB.makeZeroVal(Part->getType()));
      if (auto D = IsZero.getAs<DefinedOrUnknownSVal>()) {
        auto [Zero, NonZero] = Orig->assume(*D);
        if (!Zero || !NonZero)
          continue;
      }
      S = S->remove<UnownedReads>(KV.first);
    }
  return S;
}

ProgramStateRef krefcheck::forgetPutsOutlivedBy(ProgramStateRef S,
                                                SymbolRef Obj,
                                                const MemRegion *Accessed,
                                                const StackFrameContext *Cur) {
  if (!Obj || !Accessed || !Cur)
    return S;
  for (const auto &KV : S->get<CounterStates>()) {
    const StackFrameContext *PutFrame = KV.second.putFrame();
    if (!PutFrame || !KV.second.isZero() || ownerSymbol(KV.first) != Obj)
      continue;
    // Only a caller of the put's frame: the put's own frame and its callees
    // (the release function) touch the object to tear it down.
    if (!Cur->isParentOf(PutFrame))
      continue;
    if (Accessed == KV.first || Accessed->isSubRegionOf(KV.first))
      continue;
    S = S->remove<CounterStates>(KV.first);
  }
  return S;
}

ProgramStateRef krefcheck::markZeroFilled(ProgramStateRef S, SymbolRef Obj) {
  return S->add<ZeroFilledObjects>(Obj);
}
bool krefcheck::isZeroFilled(ProgramStateRef S, SymbolRef Obj) {
  return Obj && S->contains<ZeroFilledObjects>(Obj);
}
ProgramStateRef krefcheck::forgetFailedTryGets(ProgramStateRef S,
                                               SymbolRef Obj) {
  for (const auto &KV : S->get<CounterStates>())
    if (KV.second.isZero() &&
        KV.second.why() == CountState::Why::TryGetFailed &&
        ownerSymbol(KV.first) == Obj)
      S = S->remove<CounterStates>(KV.first);
  return S;
}

ProgramStateRef krefcheck::forgetZeroFilled(ProgramStateRef S, SymbolRef Obj) {
  // Called for every escaping symbol: most were never zero-filled objects.
  if (!S->contains<ZeroFilledObjects>(Obj))
    return S;
  return S->remove<ZeroFilledObjects>(Obj);
}

ProgramStateRef krefcheck::markInternal(ProgramStateRef S, SymbolRef Obj,
                                        InternalOrigin O) {
  if (S->get<InternalRefs>(Obj))
    return S;
  return S->set<InternalRefs>(Obj, static_cast<unsigned>(O));
}
ProgramStateRef krefcheck::markInternalMember(ProgramStateRef S, SymbolRef Obj,
                                              const FieldDecl *Member) {
  return Member ? S->set<InternalMembers>(Obj, Member) : S;
}
const FieldDecl *krefcheck::internalMember(ProgramStateRef S, SymbolRef Obj) {
  const void *const *M = Obj ? S->get<InternalMembers>(Obj) : nullptr;
  return M ? static_cast<const FieldDecl *>(*M) : nullptr;
}
std::optional<InternalOrigin> krefcheck::getInternalOrigin(ProgramStateRef S,
                                                           SymbolRef Obj) {
  if (!Obj)
    return std::nullopt;
  if (const unsigned *V = S->get<InternalRefs>(Obj))
    return static_cast<InternalOrigin>(*V);
  return std::nullopt;
}

ProgramStateRef krefcheck::markReleaseRan(ProgramStateRef S,
                                          const MemRegion *Object,
                                          ReleaseRan R) {
  return Object ? S->set<ReleasedObjects>(Object->getBaseRegion(), R) : S;
}

const ReleaseRan *krefcheck::releaseRanFor(ProgramStateRef S,
                                           const MemRegion *R) {
  return R ? S->get<ReleasedObjects>(R->getBaseRegion()) : nullptr;
}

ProgramStateRef krefcheck::removeDeadCountFacts(ProgramStateRef S,
                                                SymbolReaper &SR) {
  for (const auto &KV : S->get<CounterStates>())
    if (!SR.isLiveRegion(KV.first))
      S = S->remove<CounterStates>(KV.first);
  for (const auto &KV : S->get<UnownedReads>())
    if (!SR.isLiveRegion(KV.first))
      S = S->remove<UnownedReads>(KV.first);
  for (SymbolRef Sym : S->get<ZeroFilledObjects>())
    if (SR.isDead(Sym))
      S = S->remove<ZeroFilledObjects>(Sym);
  for (const auto &KV : S->get<InternalRefs>())
    if (SR.isDead(KV.first))
      S = S->remove<InternalRefs>(KV.first);
  for (const auto &KV : S->get<ReleasedObjects>())
    if (!SR.isLiveRegion(KV.first))
      S = S->remove<ReleasedObjects>(KV.first);
  return S;
}

void krefcheck::markCountFactsLive(ProgramStateRef S, SymbolReaper &SR) {
  // A count read without a reference must outlive its expression: its
  // constraints (tested non-zero, or zero) decide the check-then-get report.
  // (Liveness of the counter is not computed yet at this point, so every
  // remembered read stays alive; checkDeadSymbols drops dead counters.)
  for (const auto &KV : S->get<UnownedReads>())
    SR.markLive(KV.second);
}

void krefcheck::printCountFacts(raw_ostream &OS, ProgramStateRef S,
                                const char *NL) {
  for (const auto &KV : S->get<CounterStates>()) {
    OS << "  counter " << KV.first << ": ";
    KV.second.dump(OS);
    OS << NL;
  }
  for (const auto &KV : S->get<UnownedReads>())
    OS << "  counter " << KV.first << " read without a reference as "
       << KV.second << NL;
  for (SymbolRef Sym : S->get<ZeroFilledObjects>())
    OS << "  zero-filled object " << Sym << NL;
  for (const auto &KV : S->get<InternalRefs>())
    OS << "  internal reference " << KV.first << " from "
       << describeOrigin(static_cast<InternalOrigin>(KV.second)) << NL;
  for (const auto &KV : S->get<ReleasedObjects>())
    OS << "  object " << KV.first << " freed by the release of "
       << KV.second.Counter << NL;
}
