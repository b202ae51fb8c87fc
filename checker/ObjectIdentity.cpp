//===- ObjectIdentity.cpp - Which pointers may name the same object -------===//
//
// Identity in refcount.LifetimeModel across calls the analyzer cannot see
// into, beyond same-result getters (SameResults.cpp): a put (or get) on a
// pointer that comes from a call, or a field read again after a call, made
// after the path took (or dropped) a count, may be that count's object:
// rules unknown-put-target and unknown-get-target decide. The result of an
// opaque call that was given a held object (or the address of the variable
// holding it) is a neighbour of that object (its child, parent, endpoint,
// next element), never a candidate: code that has the object needs no call
// to find it.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "LifetimeModel.h"
#include "LifetimeModelImpl.h"
#include "Rules.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;
using namespace krefcheck::lifetime;

// The opaque calls (by their expression) that were given a held object, a
// field of one, or the address of a location holding one, from the call's
// PreCall to its PostStmt; then the symbols of their results, which die
// with the pointers (a set of statements would outlive them and keep apart
// states that differ in nothing else, costing the analyzer its caching).
REGISTER_SET_WITH_PROGRAMSTATE(NeighbourCalls, const Stmt *)
REGISTER_SET_WITH_PROGRAMSTATE(NeighbourResults, SymbolRef)
// The pointer fields a held pointer was read through, to the held object
// (`sor->aux` for a count on `sor->aux->dev`).
REGISTER_MAP_WITH_PROGRAMSTATE(HeldThrough, const MemRegion *,
                               const MemRegion *)

static const FieldDecl *fieldOf(const MemRegion *R) {
  const auto *FR = dyn_cast_or_null<FieldRegion>(R);
  return FR ? FR->getDecl() : nullptr;
}

/// Is the pointer R read again through the fields the held object at
/// HeldBase was reached through: `sor->aux->dev` re-read after a call,
/// where `sor->aux` is a field the get went through (rule
/// held-field-not-null records them) and `dev` the same last field?
static bool sameFieldPath(ProgramStateRef State, const MemRegion *R,
                          const MemRegion *HeldBase) {
  const FieldDecl *Last = fieldOf(loadedFrom(R->getBaseRegion()));
  if (!Last || Last != fieldOf(loadedFrom(HeldBase)))
    return false;
  const MemRegion *Base = loadedFrom(R->getBaseRegion())->getBaseRegion();
  for (int Depth = 0; Depth < 3; ++Depth) {
    const MemRegion *Field = loadedFrom(Base);
    if (!Field)
      return false;
    if (const MemRegion *const *To = State->get<HeldThrough>(Field))
      if (*To == HeldBase)
        return true;
    // `mcli = midev->client; put_device(&mcli->client->dev)` after
    // `get_device(&mcli->client->dev); midev->client = mcli`: the field
    // holds a copy of the pointer the held object was read out of (rule
    // field-copy-identity).
    if (Depth == 0)
      if (const MemRegion *Copy = fieldCopyIn(State, Field))
        if (Copy->getBaseRegion() == loadedFrom(HeldBase)->getBaseRegion() &&
            applyRule(RuleId::FieldCopyIdentity))
          return true;
    Base = Field->getBaseRegion();
  }
  return false;
}

/// Is V a held object, a field of one, or a location that holds one?
static bool namesHeldObject(ProgramStateRef State, SVal V) {
  const MemRegion *R = V.getAsRegion();
  if (!R)
    return false;
  auto Held = [&State](const MemRegion *Base) {
    for (const auto &KV : allRefs(State))
      if (KV.first.Region == Base)
        return true;
    return false;
  };
  if (Held(R->getBaseRegion()))
    return true;
  const auto *TR = dyn_cast<TypedValueRegion>(R);
  if (!TR || !TR->getValueType()->isPointerType())
    return false;
  const MemRegion *Pointee = State->getSVal(R).getAsRegion();
  return Pointee && Held(Pointee->getBaseRegion());
}

ProgramStateRef lifetime::noteNeighbourCall(ProgramStateRef State,
                                            const CallEvent &Call) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!CE || !Call.getResultType()->isPointerType() ||
      State->contains<NeighbourCalls>(CE))
    return State;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I)
    if (namesHeldObject(State, Call.getArgSVal(I)))
      return State->add<NeighbourCalls>(CE);
  return State;
}

ProgramStateRef lifetime::settleNeighbourCall(ProgramStateRef State,
                                              const CallExpr *CE, SVal Result) {
  if (!State->contains<NeighbourCalls>(CE))
    return State;
  State = State->remove<NeighbourCalls>(CE);
  const MemRegion *R = Result.getAsRegion();
  const auto *SR = R ? dyn_cast<SymbolicRegion>(R->getBaseRegion()) : nullptr;
  return SR ? State->add<NeighbourResults>(SR->getSymbol()) : State;
}

ProgramStateRef lifetime::removeDeadNeighbours(ProgramStateRef State,
                                               SymbolReaper &SR) {
  for (SymbolRef S : State->get<NeighbourResults>())
    if (SR.isDead(S))
      State = State->remove<NeighbourResults>(S);
  return State;
}

/// Was R returned by a call given a held object (see noteNeighbourCall)?
static bool neighbourOfHeld(ProgramStateRef State, const MemRegion *R) {
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  return SR && State->contains<NeighbourResults>(SR->getSymbol());
}

/// Does the pointer R come from a call made after the symbol count Since:
/// the result of a call, or a field read again after a call invalidated
/// it (the first read of a field the function never lost is as old as the
/// function)?
static bool newerThan(const MemRegion *R, unsigned Since) {
  const MemRegion *Base = R->getBaseRegion();
  for (int Depth = 0; Depth < 4; ++Depth) {
    const auto *SR = dyn_cast<SymbolicRegion>(Base);
    if (!SR)
      return false;
    SymbolRef Sym = SR->getSymbol();
    if (const auto *SC = dyn_cast<SymbolConjured>(Sym))
      return SC->getSymbolID() > Since;
    if (const auto *D = dyn_cast<SymbolDerived>(Sym)) {
      const auto *Parent = dyn_cast<SymbolData>(D->getParentSymbol());
      if (Parent && Parent->getSymbolID() > Since)
        return true;
      Base = D->getRegion()->getBaseRegion();
    } else if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym)) {
      Base = RV->getRegion()->getBaseRegion();
    } else {
      return false;
    }
  }
  return false;
}

/// The type of the object R is (the pointee of a symbolic pointer).
static QualType objectType(const MemRegion *R) {
  if (const auto *SR = dyn_cast<SymbolicRegion>(R))
    return SR->getSymbol()->getType()->getPointeeType();
  if (const auto *TR = dyn_cast<TypedValueRegion>(R))
    return TR->getValueType();
  return QualType();
}

static bool sameObjectType(const MemRegion *A, const MemRegion *B) {
  QualType TA = objectType(A), TB = objectType(B);
  return !TA.isNull() && !TB.isNull() &&
         TA.getCanonicalType().getUnqualifiedType() ==
             TB.getCanonicalType().getUnqualifiedType();
}

/// The memory location the pointer R's object was read from (`qm->pdev`
/// for `&qm->pdev->dev`), whether read first or again after a call.
static const MemRegion *readFrom(const MemRegion *R) {
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!SR)
    return nullptr;
  SymbolRef Sym = SR->getSymbol();
  if (const auto *D = dyn_cast<SymbolDerived>(Sym))
    return D->getRegion();
  if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym))
    return RV->getRegion();
  return loadedFrom(SR);
}

/// Is R the result of a call (not a pointer read out of memory)?
static bool isCallResult(const MemRegion *R) {
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  return SR && isa<SymbolConjured>(SR->getSymbol());
}

/// Is S inside the body or the condition of a loop of its function?
static bool inLoop(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  for (int Depth = 0; !Parents.empty() && Depth < 64; ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (P.get<WhileStmt>() || P.get<ForStmt>() || P.get<DoStmt>())
      return true;
    if (P.get<Decl>())
      return false;
    Parents = Ctx.getParents(P);
  }
  return false;
}

/// Rule loop-call-walks: A and B are results of one call expression written
/// in a loop (`while ((np = s->parse_prop(con_np, name, i++)))`): two
/// passes of a walk, two objects, never the same one by identity lost.
static bool walkedByOneCall(ProgramStateRef State, const MemRegion *A,
                            const MemRegion *B) {
  auto CallOf = [](const MemRegion *R) -> const Stmt * {
    const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
    const auto *SC = SR ? dyn_cast<SymbolConjured>(SR->getSymbol()) : nullptr;
    return SC ? SC->getStmt() : nullptr;
  };
  const Stmt *S = CallOf(A);
  return S && S == CallOf(B) &&
         inLoop(S, State->getStateManager().getContext()) &&
         applyRule(RuleId::LoopCallWalks);
}

std::optional<std::pair<RefKey, RefEntry>>
lifetime::unknownTargetOf(ProgramStateRef State, const MemRegion *R, Family F,
                          bool ForPut) {
  // A pointer read again from where the held one was read names it (the
  // call in between may have changed the field, but the code says it did
  // not); a call's result may name any held object of its type, if only
  // one qualifies.
  std::optional<std::pair<RefKey, RefEntry>> Result;
  unsigned CallResultMatches = 0;
  const MemRegion *From = readFrom(R);
  bool FromCall = isCallResult(R) && !neighbourOfHeld(State, R);
  for (const auto &KV : allRefs(State)) {
    const RefEntry &E = KV.second;
    if (KV.first.Fam != F || KV.first.Region == R)
      continue;
    bool Kind = ForPut ? E.isHeld() && !E.isNewReference()
                       : E.K == RefEntry::Kind::BorrowedPut;
    if (!Kind || !sameObjectType(KV.first.Region, R) || !newerThan(R, E.Since))
      continue;
    if (From && From == readFrom(KV.first.Region))
      return KV;
    if (sameFieldPath(State, R, KV.first.Region->getBaseRegion()))
      return KV;
    if (FromCall && !walkedByOneCall(State, R, KV.first.Region) &&
        ++CallResultMatches == 1)
      Result = KV;
  }
  if (CallResultMatches != 1)
    return std::nullopt; // None, or the path cannot say which.
  return Result;
}

bool lifetime::mayBeNamedAgain(const MemRegion *R) {
  if (!ruleEnabled(RuleId::UnknownGetTarget))
    return false;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!SR)
    return false;
  // A call's result, a field read again after a call, or the first read of
  // a field (`data->pdev` on entry): a later read of the field, after a
  // call invalidated it, names the object again.
  SymbolRef Sym = SR->getSymbol();
  if (const auto *RV = dyn_cast<SymbolRegionValue>(Sym))
    return !isa<VarRegion>(RV->getRegion());
  return isa<SymbolConjured, SymbolDerived>(Sym);
}

std::string lifetime::pointerOrigin(const MemRegion *R) {
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!SR)
    return "";
  SymbolRef Sym = SR->getSymbol();
  if (const auto *SC = dyn_cast<SymbolConjured>(Sym))
    if (const auto *CE = dyn_cast_or_null<CallExpr>(SC->getStmt()))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getIdentifier())
          return "comes from " + FD->getName().str() + "()";
  if (isa<SymbolDerived>(Sym))
    return "was read again after a call that may have changed it";
  return "";
}

const NoteTag *lifetime::unmatchedPutNote(CheckerContext &C,
                                          ProgramStateRef State,
                                          const MemRegion *R,
                                          const LifetimeAPI &API,
                                          const std::string &Fallback) {
  // The counts of the same family on objects of the same type that this put
  // did not drop: a report about one of them says why the put missed it.
  SmallVector<std::pair<const MemRegion *, std::string>, 2> Others;
  for (const auto &KV : allRefs(State))
    if (KV.first.Fam == API.Fam && KV.first.Region != R && KV.second.isHeld() &&
        sameObjectType(KV.first.Region, R))
      Others.push_back({KV.first.Region, describeRef(KV.first, KV.second)});
  std::string Callee = API.Name.str() + "()";
  std::string Origin = pointerOrigin(R);
  // The put of a reference the function was given (rule
  // given-reference-single-put): say whose it was.
  bool Given = isLifetimeFamily(API.Fam) && isGivenPointer(State, R) &&
               ruleEnabled(RuleId::GivenReferenceSinglePut);
  return C.getNoteTag([R, Others, Callee, Fallback, Origin,
                       Given](PathSensitiveBugReport &BR) -> std::string {
    if (!isLifetimeReport(BR))
      return "";
    auto Interesting = [&BR](const MemRegion *M) {
      if (BR.isInteresting(M))
        return true;
      const auto *SR = dyn_cast<SymbolicRegion>(M);
      return SR && BR.isInteresting(SR->getSymbol());
    };
    if (Interesting(R)) {
      std::string Name = Fallback.empty() ? "the object" : Fallback;
      if (Given)
        return "The reference " + (Fallback.empty() ? "" : Fallback + " ") +
               "this function was given is dropped by " + Callee;
      return "Reference to " + Name + " released by " + Callee;
    }
    std::string What = Fallback.empty() ? "an object" : Fallback;
    for (const auto &O : Others) {
      if (!Interesting(O.first))
        continue;
      if (O.second == What) // The same expression, read again.
        return "The call to " + Callee + " puts " + What +
               (Origin.empty() ? " read again after a call"
                               : " as it " + Origin) +
               ", which the path cannot tell is the object it took the "
               "count on";
      return "The call to " + Callee + " puts " + What + ", not " + O.second +
             (Origin.empty() ? "" : ": " + What + " here " + Origin);
    }
    return "";
  });
}

/// The location the lvalue E names (a variable, or a field through `->`
/// or `.`), evaluated in State; null if E is anything else.
static const MemRegion *lvalueRegion(ProgramStateRef State, const Expr *E,
                                     const LocationContext *LCtx,
                                     int Depth = 0) {
  E = E->IgnoreParens();
  if (Depth > 4)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD ? State->getLValue(VD, LCtx).getAsRegion() : nullptr;
  }
  const auto *ME = dyn_cast<MemberExpr>(E);
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD)
    return nullptr;
  SVal BaseLoc;
  const Expr *BaseE = ME->getBase()->IgnoreParenImpCasts();
  if (ME->isArrow()) {
    const MemRegion *P = lvalueRegion(State, BaseE, LCtx, Depth + 1);
    if (!P)
      return nullptr;
    BaseLoc = State->getSVal(P);
  } else {
    const MemRegion *B = lvalueRegion(State, BaseE, LCtx, Depth + 1);
    if (!B)
      return nullptr;
    BaseLoc = loc::MemRegionVal(B);
  }
  if (!BaseLoc.getAs<Loc>())
    return nullptr;
  return State->getLValue(FD, BaseLoc).getAsRegion();
}

ProgramStateRef lifetime::noteHeldThrough(ProgramStateRef State,
                                          const Expr *ArgE,
                                          const MemRegion *Held,
                                          const LocationContext *LCtx) {
  if (!ArgE || !ruleEnabled(RuleId::HeldFieldNotNull))
    return State;
  // `sor->aux->dev`, `&priv->client->dev`: every pointer field read on the
  // way to the object.
  const Expr *E = ArgE->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParens();
  const MemRegion *Base = Held->getBaseRegion();
  for (int Depth = 0; Depth < 4; ++Depth) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenCasts());
    if (!ME)
      break;
    const Expr *BaseE = ME->getBase()->IgnoreParenImpCasts();
    if (ME->isArrow() && BaseE->getType()->isPointerType())
      if (const MemRegion *Field = lvalueRegion(State, BaseE, LCtx))
        if (isa<FieldRegion>(Field))
          State = State->set<HeldThrough>(Field, Base);
    E = BaseE;
  }
  return State;
}

ProgramStateRef lifetime::pruneNullHeldFields(ProgramStateRef State) {
  // Read again after a call, such a field may be assumed NULL, and the put
  // under `if (sor->aux)` skipped, though the path took the count through
  // it.
  for (const auto &KV : State->get<HeldThrough>()) {
    bool StillHeld = false;
    for (const auto &R : allRefs(State))
      if (R.first.Region->getBaseRegion() == KV.second && R.second.isHeld())
        StillHeld = true;
    if (!StillHeld)
      continue;
    SVal Now = State->getSVal(KV.first);
    if (isa_and_nonnull<SymbolDerived, SymbolConjured>(Now.getAsLocSymbol()) &&
        State->isNull(Now).isConstrainedTrue() &&
        applyRule(RuleId::HeldFieldNotNull))
      return nullptr;
  }
  return State;
}
