//===- ObjectViews.cpp - One object under several pointers ----------------===//
//
// Identity in refcount.LifetimeModel: which pointers name the object a
// reference is on. A converted result (`i2c_verify_adapter(dev)`), the
// driver data of a held device and a handle's `dev` field stand for the
// object; a get's pointer read from a field of memory that keeps the count
// is that memory's reference. Each is a rule of Rules.def.
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

namespace {
/// Where a get's pointer was read from, followed through the parameters of
/// inlined callees to the expression it was passed as: `refcount_inc(
/// &u->__count)` in get_uid(u) called as get_uid(new->user) reads `u` from
/// the field `new->user`; dget(path->dentry) in path_get(&nd->path) reads
/// it from `nd->path.dentry`.
class ReadLocation {
public:
  explicit ReadLocation(CheckerContext &C) : C(C), State(C.getState()) {}

  /// The field region the object pointer of a get argument was read from
  /// (`&u->__count`: the object pointer is `u`), or null.
  const MemRegion *ofGetArgument(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf) {
        // `&u->__count`: the object pointer is the base of the first `->`.
        const Expr *M = UO->getSubExpr()->IgnoreParenCasts();
        while (const auto *ME = dyn_cast<MemberExpr>(M)) {
          M = ME->getBase()->IgnoreParenCasts();
          if (ME->isArrow())
            return ofPointer(M, C.getLocationContext(), 0);
        }
        return nullptr;
      }
    return ofPointer(E, C.getLocationContext(), 0);
  }

private:
  CheckerContext &C;
  ProgramStateRef State;

  /// The location a pointer expression's value was read from.
  const MemRegion *ofPointer(const Expr *E, const LocationContext *LC,
                             int Depth) {
    E = E->IgnoreParenCasts();
    if (isa<MemberExpr>(E))
      return lvalue(E, LC, Depth);
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PVD || Depth > 4)
      return nullptr;
    const StackFrameContext *SFC = LC->getStackFrame();
    const auto *Site = dyn_cast_or_null<CallExpr>(SFC->getCallSite());
    if (!Site || PVD->getFunctionScopeIndex() >= Site->getNumArgs())
      return nullptr;
    return ofPointer(Site->getArg(PVD->getFunctionScopeIndex()),
                     SFC->getParent(), Depth + 1);
  }

  /// The region a pointer expression points to.
  const MemRegion *pointee(const Expr *E, const LocationContext *LC,
                           int Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        return lvalue(UO->getSubExpr(), LC, Depth);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || Depth > 4)
        return nullptr;
      const StackFrameContext *SFC = LC->getStackFrame();
      const auto *Site = dyn_cast_or_null<CallExpr>(SFC->getCallSite());
      const auto *PVD = dyn_cast<ParmVarDecl>(VD);
      if (PVD && Site && PVD->getFunctionScopeIndex() < Site->getNumArgs())
        return pointee(Site->getArg(PVD->getFunctionScopeIndex()),
                       SFC->getParent(), Depth + 1);
      return State->getSVal(State->getLValue(VD, LC)).getAsRegion();
    }
    if (isa<MemberExpr>(E))
      if (const MemRegion *L = lvalue(E, LC, Depth))
        return State->getSVal(L).getAsRegion();
    return nullptr;
  }

  /// The region an lvalue expression (`nd->path`, `s.f`, `v`) names.
  const MemRegion *lvalue(const Expr *E, const LocationContext *LC, int Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      const MemRegion *Base = ME->isArrow() ? pointee(ME->getBase(), LC, Depth)
                                            : lvalue(ME->getBase(), LC, Depth);
      if (!FD || !Base)
        return nullptr;
      return State->getLValue(FD, loc::MemRegionVal(Base)).getAsRegion();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (!isa<ParmVarDecl>(VD) || !LC->getStackFrame()->getCallSite())
          return State->getLValue(VD, LC).getAsRegion();
    return nullptr;
  }
};
} // namespace

/// Is a get's pointer held in memory that keeps the reference?
///  - A field of an object this path allocated (`new = kmem_cache_alloc();
///    *new = *old; get_uid(new->user)` in prepare_creds()): the count is the
///    new object's, dropped by its destructor (put_cred() -> put_cred_rcu()).
///  - A field of memory outliving the function that this path wrote before
///    the get (`nd->path = nd->root; path_get(&nd->path)` in nd_jump_root()):
///    the count is that memory's, as with `hub->hdev = hdev;
///    usb_get_dev(hdev)` (struct copies included). A field read as the
///    caller left it (`get_device(dev->parent)`) is still the function's
///    count.
bool lifetime::heldInMemory(const Expr *ArgE, const MemRegion *R,
                            CheckerContext &C) {
  if (!ruleEnabled(RuleId::HeldInMemory))
    return false;
  if (!ArgE || !R)
    return false;
  const MemRegion *Loc = ReadLocation(C).ofGetArgument(ArgE);
  if (!Loc || !isa<FieldRegion>(Loc))
    return false;
  const auto *Obj = dyn_cast<SymbolicRegion>(Loc->getBaseRegion());
  if (!Obj)
    return false;
  SymbolRef ObjSym = Obj->getSymbol();
  if (const auto *Sym = dyn_cast<SymbolConjured>(ObjSym)) {
    const auto *CE = dyn_cast_or_null<CallExpr>(Sym->getStmt());
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    return FD && isAllocatorRole(contractFor(FD).Role) &&
           applyRule(RuleId::HeldInMemory);
  }
  // Memory the caller gave (`nd`, `dev`): was the field written here?
  if (!isa<SymbolRegionValue>(ObjSym))
    return false;
  return loadedFrom(R->getBaseRegion()) != Loc &&
         applyRule(RuleId::HeldInMemory);
}

/// `adapter = i2c_verify_adapter(dev)`: a call the analyzer did not inline
/// that takes a held reference and returns a pointer to a struct may return
/// another view of the same object; remember it, so that returning it hands
/// the reference over.
/// Does record Outer embed a member of record type Inner (struct i2c_adapter
/// embeds struct device)?
static bool embeds(QualType Outer, QualType Inner) {
  const auto *RD = Outer->getAsRecordDecl();
  if (!RD || !(RD = RD->getDefinition()))
    return false;
  for (const FieldDecl *F : RD->fields())
    if (F->getType().getCanonicalType().getUnqualifiedType() == Inner)
      return true;
  return false;
}

/// Can pointers of types A and B name one object: the same record, or one
/// embedding the other (i2c_verify_adapter(struct device *) returns the
/// struct i2c_adapter around it; i2c_new_client_device(adapter) returns a
/// new client, another object).
static bool sameObjectTypes(QualType A, QualType B) {
  if (!A->isPointerType() || !B->isPointerType())
    return false;
  QualType PA = A->getPointeeType().getCanonicalType().getUnqualifiedType();
  QualType PB = B->getPointeeType().getCanonicalType().getUnqualifiedType();
  if (!PA->isRecordType() || !PB->isRecordType())
    return false;
  return PA == PB || embeds(PA, PB) || embeds(PB, PA);
}

/// Marks Result as standing for the object Base when the path owns a
/// reference to Base that a store would hand over.
static bool markIfHeld(SymbolRef Result, const MemRegion *Base, RuleId Rule,
                       CheckerContext &C, ProgramStateRef State) {
  for (const auto &KV : allRefs(State))
    if (KV.first.Region->getBaseRegion() == Base && KV.second.isOwned() &&
        escapesOnStore(keyFamily(KV.first))) {
      if (!applyRule(Rule))
        return false;
      C.addTransition(markConverted(State, Result, Base));
      return true;
    }
  return false;
}

/// Rule converted-view, for a contract whose result may be a view of an
/// argument: not a value-only call, nor one whose name looks up (`port =
/// of_graph_get_port_by_id(np, 1)`: a getter or lookup returns another
/// object, with a reference of its own, not a view of its argument).
static bool noteConversion(const CallEvent &Call, CheckerContext &C,
                           ProgramStateRef State) {
  QualType RT = Call.getResultType();
  if (!RT->isPointerType() || !RT->getPointeeType()->isRecordType())
    return false;
  SymbolRef Result = Call.getReturnValue().getAsSymbol();
  if (!Result || !isa<SymbolConjured>(Result))
    return false;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R || !sameObjectTypes(Call.getArgExpr(I)->getType(), RT))
      continue;
    if (markIfHeld(Result, R->getBaseRegion(), RuleId::ConvertedView, C, State))
      return true;
  }
  return false;
}

/// `qmp = platform_get_drvdata(pdev); return qmp;` after
/// `pdev = of_find_device_by_node(np)`: the driver data of a held device is
/// the handle its "get" function gives out, and the matching "put" drops
/// the device through it (`put_device(qmp->dev)`). The result stands for the
/// device, as a converted result does: returning it, or handing it to a
/// call that takes ownership (`devm_add_action_or_reset(dev, put, qmp)`),
/// hands the reference over (rule driver-data-handle, on the driver-data
/// role rows). Works on the inline accessors (the result is the value loaded
/// from `dev->driver_data`) and on prototypes alike.
static bool noteDriverData(const CallEvent &Call, int Arg, CheckerContext &C,
                           ProgramStateRef State) {
  if (Arg < 0 || unsigned(Arg) >= Call.getNumArgs())
    return false;
  SymbolRef Result = Call.getReturnValue().getAsSymbol();
  const MemRegion *R = refRegion(Call.getArgSVal(Arg));
  if (!Result || !R)
    return false;
  return markIfHeld(Result, R->getBaseRegion(), RuleId::DriverDataHandle, C,
                    State);
}

bool lifetime::noteViews(const CallEvent &Call, const CallContract &K,
                         CheckerContext &C, ProgramStateRef State) {
  int Arg;
  switch (K.returnEffect(Arg)) {
  case ReturnEffect::DriverDataOf:
    return noteDriverData(Call, Arg, C, State);
  case ReturnEffect::MaybeViewOfArg:
    return noteConversion(Call, C, State);
  default:
    return false;
  }
}

/// `put_device(led_cdev->dev)` where led_cdev is the driver data of the held
/// device (of_led_get(), qmp_put()): a handle's `dev` pointer is the device
/// it was taken from, so the loaded pointer stands for that device too (the
/// field names are the model file's types: handle-device-fields).
bool lifetime::noteHandleDevice(const CastExpr *CE, CheckerContext &C) {
  const auto *ME = dyn_cast<MemberExpr>(CE->getSubExpr()->IgnoreParens());
  if (!ME || !ME->getMemberDecl()->getIdentifier() ||
      !activeModel().Types.HandleDeviceFields.contains(
          ME->getMemberDecl()->getName()) ||
      !CE->getType()->isPointerType())
    return false;
  ProgramStateRef State = C.getState();
  const MemRegion *HandleR = refRegion(C.getSVal(ME->getBase()));
  if (!HandleR)
    return false;
  SymbolRef Loaded = C.getSVal(CE).getAsSymbol();
  const MemRegion *Orig = nullptr;
  if (const auto *Handle = dyn_cast<SymbolicRegion>(HandleR)) {
    Orig = convertedFrom(State, Handle->getSymbol());
  } else if (const auto *Obj =
                 dyn_cast<SymbolicRegion>(HandleR->getBaseRegion())) {
    // The private area inside a held object's own allocation
    // (`netdev_priv(dev)`, inlined: `(char *)dev + ALIGN(...)`): a `dev`
    // field of the object's own type there is its back pointer.
    QualType ObjTy = Obj->getSymbol()->getType()->getPointeeType();
    QualType FieldTy = CE->getType()->getPointeeType();
    if (!ObjTy.isNull() && !FieldTy.isNull() &&
        C.getASTContext().hasSameUnqualifiedType(ObjTy, FieldTy) &&
        llvm::any_of(allRefs(State), [Obj](const auto &KV) {
          return KV.first.Region->getBaseRegion() == Obj && KV.second.isHeld();
        }))
      Orig = Obj;
  }
  if (Orig && Loaded && !convertedFrom(State, Loaded) &&
      applyRule(RuleId::HandleDevField)) {
    C.addTransition(markConverted(State, Loaded, Orig));
    return true;
  }
  return false;
}
