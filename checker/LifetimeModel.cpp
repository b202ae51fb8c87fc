//===- LifetimeModel.cpp - refcount.LifetimeModel: who holds references ---===//
//
// Hidden modeling checker of refcount.Leak, refcount.Underflow and
// refcount.UseAfterPut. It evaluates the object get/put APIs of the table in
// LifetimeAPI.cpp by name (eval::Call; kref_* and refcount_* are evaluated by
// refcount.Model and only observed here), and tracks per (object, count
// family) what this path holds (LifetimeState.h):
//
//   +1 result (of_find_*, bus_find_device)      -> Owned(1), new reference
//   get on a pointer (get_device, of_node_get)  -> Owned(n+1)
//   put with Owned(n > 1)                       -> Owned(n-1)
//   put with Owned(1)                           -> Released
//   put of a pointer this path never got        -> BorrowedPut
//   get with BorrowedPut (a power cycle)        -> the caller's count back
//   iterator step (of_get_next_child(p, prev))  -> put prev, +1 result
//   failure per the table (NULL, ERR_PTR via IS_ERR(), negative errno)
//                                               -> nothing acquired
//   stored into memory outliving the function, returned, passed to a
//   function whose name takes ownership (device_add, list_add, *_set_*),
//   a field list node passed anywhere          -> Escaped
//   runtime-PM vote on a device read out of what an undo helper
//   (`*_disable`, `*_off`, ...) is given       -> Escaped
//   a get inside `if (!test_and_set_bit(..))`  -> not tracked: the bit owns it
//   result of a call that took the reference (`i2c_verify_adapter(dev)`)
//   returned                                   -> Escaped
//   pointer dies while Owned: a new reference leaks now (refcount.Leak); a
//   get on a pointer the caller passed is Lost, and leaks only if the
//   function returns an error (its undo contract): otherwise the get is
//   usually the caller's or a paired put elsewhere.
//
//===----------------------------------------------------------------------===//

#include "LifetimeModel.h"
#include "Compat.h"
#include "CountState.h"
#include "LifetimeAPI.h"
#include "LifetimeState.h"
#include "StaticInit.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

bool krefcheck::isLifetimeReport(PathSensitiveBugReport &BR) {
  StringRef N = BR.getBugType().getCheckerName();
  return N == "refcount.Leak" || N == "refcount.Underflow" ||
         N == "refcount.UseAfterPut";
}

void krefcheck::markRefInteresting(PathSensitiveBugReport &BR,
                                   const RefKey &K) {
  BR.markInteresting(K.first);
  if (const auto *SR = dyn_cast<SymbolicRegion>(K.first))
    BR.markInteresting(SR->getSymbol());
}

static bool isInterestingRef(PathSensitiveBugReport &BR, const MemRegion *R) {
  if (BR.isInteresting(R))
    return true;
  if (const auto *SR = dyn_cast<SymbolicRegion>(R))
    return BR.isInteresting(SR->getSymbol());
  return false;
}

static bool hasNameWord(StringRef Name, const llvm::StringSet<> &Words) {
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '_', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    if (Words.contains(P))
      return true;
  return false;
}

bool krefcheck::nameTakesOwnership(StringRef Name) {
  static const llvm::StringSet<> Words = {
      "add",   "register", "attach",   "insert", "store",   "set",
      "link",  "assign",   "install",  "queue",  "enqueue", "push",
      "save",  "consume",  "transfer", "take",   "hold",    "bind",
      "adopt", "stash",    "keep",     "own",    "hash",    "graft"};
  return hasNameWord(Name, Words) || nameReleases(Name);
}

/// dev_err(), dev_dbg(), netdev_warn(), printk(): print and keep nothing.
static bool isLoggingCall(StringRef Name) {
  if (Name.contains("printk") || Name == "dev_err_probe")
    return true;
  Name = Name.ltrim('_');
  Name.consume_front("dynamic_");
  if (!Name.consume_front("dev_") && !Name.consume_front("netdev_"))
    return false;
  return llvm::is_contained(
      {"emerg", "alert", "crit", "err", "warn", "notice", "info", "dbg"}, Name);
}

/// `qcom_rproc_pds_disable(adsp, adsp->proxy_pds, n)`, `foo_power_off(priv)`:
/// an undo helper of runtime-PM votes.
static bool nameUndoesPm(StringRef Name) {
  static const llvm::StringSet<> Words = {"disable", "off",     "unprepare",
                                          "put",     "release", "unvote"};
  return hasNameWord(Name, Words);
}

bool krefcheck::nameReleases(StringRef Name) {
  static const llvm::StringSet<> Words = {
      "put",        "release", "free",    "destroy", "unref",      "kfree",
      "kvfree",     "vfree",   "drop",    "kill",    "unregister", "del",
      "disconnect", "remove",  "cleanup", "dispose"};
  return hasNameWord(Name, Words);
}

std::string krefcheck::recommendedPut(const LifetimeAPI &A) {
  StringRef N = A.Name;
  switch (A.Fam) {
  case Family::Node:
    return (N.starts_with("fwnode") || N.starts_with("device_"))
               ? "fwnode_handle_put()"
               : "of_node_put()";
  case Family::Device:
    if (N.starts_with("pci_"))
      return "pci_dev_put()";
    if (N.starts_with("usb_get_intf"))
      return "usb_put_intf()";
    if (N.starts_with("usb_"))
      return "usb_put_dev()";
    if (N.starts_with("kobject"))
      return "kobject_put()";
    if (N.starts_with("acpi_"))
      return "acpi_dev_put()";
    return "put_device()";
  case Family::PmRuntime:
    return N == "pm_runtime_get_sync" || N == "pm_runtime_get"
               ? "pm_runtime_put_noidle()"
               : "pm_runtime_put()";
  case Family::Kref:
    if (N == "try_get_task_stack")
      return "put_task_stack()";
    return N.starts_with("refcount") ? "refcount_dec_and_test()" : "kref_put()";
  default:
    return releaseNameFor(A.Fam).str();
  }
}

namespace {

class LifetimeModel
    : public Checker<eval::Call, check::PreCall, check::PostCall,
                     check::PreStmt<ReturnStmt>, check::PostStmt<CastExpr>,
                     check::Bind, check::PointerEscape, check::DeadSymbols,
                     check::EndFunction> {
public:
  const LeakReporter *Leak = nullptr;

  bool evalCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPostCall(const CallEvent &Call, CheckerContext &C) const;
  void checkPreStmt(const ReturnStmt *RS, CheckerContext &C) const;
  void checkPostStmt(const CastExpr *CE, CheckerContext &C) const;
  void checkBind(SVal Loc, SVal Val, const Stmt *S, CheckerContext &C) const;
#if LLVM_VERSION_MAJOR >= 22
  void checkBind(SVal Loc, SVal Val, const Stmt *S, bool AtDeclInit,
                 CheckerContext &C) const {
    checkBind(Loc, Val, S, C);
  }
#endif
  ProgramStateRef checkPointerEscape(ProgramStateRef State,
                                     const InvalidatedSymbols &Escaped,
                                     const CallEvent *Call,
                                     PointerEscapeKind Kind) const;
  void checkDeadSymbols(SymbolReaper &SR, CheckerContext &C) const;
  void checkEndFunction(const ReturnStmt *RS, CheckerContext &C) const;
  void printState(raw_ostream &Out, ProgramStateRef State, const char *NL,
                  const char *Sep) const override;

private:
  ProgramStateRef acquire(ProgramStateRef State, const MemRegion *R,
                          const LifetimeAPI &API, const Stmt *Site,
                          const Expr *ArgE) const;
  ProgramStateRef release(ProgramStateRef State, const MemRegion *R,
                          const LifetimeAPI &API) const;
  const NoteTag *
  refNote(CheckerContext &C, const MemRegion *R, Family F, std::string Fallback,
          std::function<std::string(const std::string &)> Msg) const;
  bool evalIsErr(const CallEvent &Call, CheckerContext &C, bool OrNull) const;
  bool evalPtrErr(const CallEvent &Call, CheckerContext &C) const;
  void applyCall(const CallEvent &Call, const LifetimeAPI &API,
                 CheckerContext &C, bool Evaluate) const;
};

/// MemRegion::getMemorySpace() takes the state since LLVM 21.
const MemSpaceRegion *memorySpace(const MemRegion *R, ProgramStateRef State) {
#if LLVM_VERSION_MAJOR >= 21
  return R->getMemorySpace(State);
#else
  (void)State;
  return R->getMemorySpace();
#endif
}

/// The text of a get/put argument (`&pdev->dev`) for messages.
std::string exprText(const Expr *E, CheckerContext &C) {
  if (!E)
    return "";
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return "'" + DRE->getDecl()->getName().str() + "'";
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, PrintingPolicy(C.getLangOpts()));
  if (S.size() > 40)
    return "";
  return "'" + S + "'";
}

const NoteTag *LifetimeModel::refNote(
    CheckerContext &C, const MemRegion *R, Family F, std::string Fallback,
    std::function<std::string(const std::string &)> Msg) const {
  return C.getNoteTag(
      [R, F, Fallback, Msg](PathSensitiveBugReport &BR) -> std::string {
        if (!isLifetimeReport(BR) || !isInterestingRef(BR, R))
          return "";
        std::string Name = Fallback;
        if (const RefEntry *E =
                getRef(BR.getErrorNode()->getState(), makeRefKey(R, F)))
          if (E->Var)
            Name = describeRef(makeRefKey(R, F), *E);
        if (Name.empty())
          Name = "the object";
        return Msg(Name);
      });
}

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
static bool heldInMemory(const Expr *ArgE, const MemRegion *R,
                         CheckerContext &C) {
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
    return FD && FD->getIdentifier() && FD->getName().contains("alloc");
  }
  // Memory the caller gave (`nd`, `dev`): was the field written here?
  if (!isa<SymbolRegionValue>(ObjSym))
    return false;
  return loadedFrom(R->getBaseRegion()) != Loc;
}

/// Is R (or the object R was loaded from, e.g. `l->supplier`) an internal
/// reference found by a list walk or an index lookup?
static bool reachedFromInternal(ProgramStateRef State, const MemRegion *R) {
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

/// Is the get at Site inside `if (!test_and_set_bit(nr, flags)) { ... }`?
/// Then the bit owns the reference: whoever clears the bit with
/// test_and_clear_bit() puts it (usb hub child_usage_bits), not this path.
bool ownedByBit(const Stmt *Site, CheckerContext &C) {
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
    if (FD && FD->getIdentifier()) {
      StringRef N = FD->getName();
      if (N == "test_and_set_bit" || N == "__test_and_set_bit" ||
          N == "test_and_set_bit_lock")
        return true;
    }
  }
  return false;
}

/// Whether the path knows the pointer R is NULL, also through a stored
/// comparison (`bool b = !!(!p); if (b)`, as WARN_ONCE() expands), whose
/// constraint the analyzer keeps on the comparison, not on `p`, or because
/// it was looked up from a node that is NULL (`pctlnp = of_get_parent(np);
/// if (!np || !pctlnp) return -ENODEV;`).
static bool knownNull(ProgramStateRef State, const MemRegion *R,
                      CheckerContext &C, unsigned Depth = 0) {
  loc::MemRegionVal V(R);
  if (State->isNull(V).isConstrainedTrue())
    return true;
  const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion());
  if (!SR || SR != R)
    return false;
  if (const MemRegion *Arg = nullWithArg(State, SR->getSymbol()))
    if (Depth < 4 && knownNull(State, Arg, C, Depth + 1))
      return true;
  SValBuilder &SVB = C.getSValBuilder();
  QualType T = SR->getSymbol()->getType();
  if (!T->isPointerType())
    return false;
  SVal Eq = SVB.evalBinOp(State, BO_EQ, V, SVB.makeNullWithType(T),
                          SVB.getConditionType());
  auto DV = Eq.getAs<DefinedOrUnknownSVal>();
  return DV && !State->assume(*DV, false);
}

ProgramStateRef LifetimeModel::acquire(ProgramStateRef State,
                                       const MemRegion *R,
                                       const LifetimeAPI &API, const Stmt *Site,
                                       const Expr *ArgE) const {
  auto Found = findRef(State, R, API.Fam);
  // A get on an object reached through a list walk or an index lookup keeps
  // it for the index or a later walk, which this path cannot follow.
  if (!Found && !isNewReference(API) && reachedFromInternal(State, R))
    return State;
  if (!Found && !isNewReference(API) && escapesOnStore(API.Fam))
    if (const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()))
      if (isStored(State, SR->getSymbol()))
        return State;
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
    if (E.K == RefEntry::Kind::BorrowedPut && !isNewReference(API))
      return removeRef(State, K);
  }
  E.K = RefEntry::Kind::Owned;
  E.Count = 1;
  E.Acquirer = &API;
  E.AcquireSite = Site;
  E.Releaser = nullptr;
  if (!E.Var && !E.ArgExpr)
    E.ArgExpr = ArgE;
  if (!E.Var && ArgE)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(ArgE->IgnoreParenImpCasts()))
      E.Var = dyn_cast<VarDecl>(DRE->getDecl());
  return setRef(State, K, E);
}

ProgramStateRef LifetimeModel::release(ProgramStateRef State,
                                       const MemRegion *R,
                                       const LifetimeAPI &API) const {
  auto Found = findRef(State, R, API.Fam);
  if (!Found) {
    RefEntry E;
    E.K = RefEntry::Kind::BorrowedPut;
    E.Releaser = &API;
    return setRef(State, makeRefKey(R, API.Fam), E);
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
      E.Count = 0;
      E.K = RefEntry::Kind::Released;
      E.Releaser = &API;
    }
    return setRef(State, Found->first, E);
  case RefEntry::Kind::Released:
  case RefEntry::Kind::BorrowedPut:
  case RefEntry::Kind::Escaped:
    return State;
  }
  return State;
}

/// The returned value is `ret` constrained by `Op 0` on the state.
ProgramStateRef assumeCmpZero(ProgramStateRef S, SVal Ret,
                              BinaryOperatorKind Op, CheckerContext &C) {
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

/// The node a node getter starts from, when it finds nothing from no node:
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
      (RD->getName() != "device_node" && RD->getName() != "fwnode_handle"))
    return nullptr;
  return refRegion(Call.getArgSVal(0));
}

void LifetimeModel::applyCall(const CallEvent &Call, const LifetimeAPI &API,
                              CheckerContext &C, bool Evaluate) const {
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
      State = release(State, R, API);
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
    SVal Arg = Call.getArgSVal(API.RefArg);
    const MemRegion *R = refRegion(Arg);
    if (!R || State->isNull(Arg).isConstrainedTrue()) {
      C.addTransition(State);
      return;
    }
    auto Before = findRef(State, R, API.Fam);
    bool Last = Before && Before->second.isOwned() && Before->second.Count == 1;
    State = release(State, R, API);
    std::string Fallback = exprText(Call.getArgExpr(API.RefArg), C);
    C.addTransition(
        State, refNote(C, Before ? Before->first.first : R, API.Fam, Fallback,
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
  }
  R = refRegion(RefV);
  if (!R || State->isNull(RefV).isConstrainedTrue()) {
    C.addTransition(State, ConsumeNote);
    return;
  }

  ProgramStateRef Ok = State, Failed = nullptr;
  if (const MemRegion *From = nodeOfNodeGetter(Call, API))
    if (SymbolRef Result = Ret.getAsLocSymbol())
      Ok = noteNullWithArg(Ok, Result, From);
  switch (API.Fail) {
  case Failure::NegErrno:
    Ok = assumeCmpZero(State, Ret, BO_GE, C);
    Failed = assumeCmpZero(State, Ret, BO_LT, C);
    break;
  case Failure::Errno:
    // Never positive: a path that assumes so is not taken.
    Ok = assumeCmpZero(State, Ret, BO_EQ, C);
    Failed = assumeCmpZero(State, Ret, BO_LT, C);
    break;
  case Failure::NotPositive:
    Ok = assumeCmpZero(State, Ret, BO_GT, C);
    Failed = assumeCmpZero(State, Ret, BO_LE, C);
    break;
  case Failure::Zero:
    Ok = assumeCmpZero(State, Ret, BO_NE, C);
    Failed = assumeCmpZero(State, Ret, BO_EQ, C);
    break;
  case Failure::Null:
    // A get on an argument that returns NULL when it fails
    // (try_get_task_stack); a NULL +1 result holds nothing by itself.
    if (API.RefArg != RetVal)
      if (auto DV = Ret.getAs<DefinedOrUnknownSVal>())
        std::tie(Ok, Failed) = State->assume(*DV);
    break;
  default:
    break;
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
    Ok = acquire(Ok, R, API, CE, ArgE);
    auto Found = findRef(Ok, R, F);
    const MemRegion *KR = Found ? Found->first.first : R;
    std::function<std::string(const std::string &)> Msg;
    if (F == Family::PmRuntime) {
      bool Always = API.Fail == Failure::Never;
      Msg = [Callee, Always](const std::string &N) {
        return "The call to " + Callee + " takes a runtime-PM usage count of " +
               N + (Always ? ", even when it fails" : ": it succeeded");
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

/// Did this path take a count on the object R points into (kref_get(&p->kref),
/// get_device(p))? Then the pointer is a real object, never an ERR_PTR():
/// `if (IS_ERR(p))` / `PTR_ERR(p) == -EAGAIN` after `return p` of a lookup
/// that took a count cannot hold (tty_lookup_driver, gss_setup_upcall).
static bool countedObject(ProgramStateRef State, const MemRegion *R) {
  const MemRegion *Base = R->getBaseRegion();
  for (const auto &KV : allRefs(State))
    if (KV.first.first->getBaseRegion() == Base && KV.second.Acquirer &&
        !isNewReference(*KV.second.Acquirer) &&
        KV.second.K != RefEntry::Kind::BorrowedPut)
      return true;
  return false;
}

bool LifetimeModel::evalPtrErr(const CallEvent &Call, CheckerContext &C) const {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (Call.getNumArgs() != 1 || !CE || !CE->getType()->isIntegerType())
    return false;
  const MemRegion *R = refRegion(Call.getArgSVal(0));
  ProgramStateRef State = C.getState();
  if (!R || !countedObject(State, R))
    return false;
  // The value of a real pointer as a long: anything but -MAX_ERRNO..-1.
  SVal Ret = conjureCallResult(Call, C);
  BasicValueFactory &BVF = C.getSValBuilder().getBasicValueFactory();
  QualType T = CE->getType();
  auto DV = Ret.getAs<DefinedOrUnknownSVal>();
  if (!DV)
    return false;
  ProgramStateRef NotErr = State->assumeInclusiveRange(
      *DV, BVF.getValue(-4095, T), BVF.getValue(-1, T), false);
  if (!NotErr)
    return false;
  C.addTransition(NotErr->BindExpr(CE, C.getLocationContext(), Ret));
  return true;
}

bool LifetimeModel::evalIsErr(const CallEvent &Call, CheckerContext &C,
                              bool OrNull) const {
  if (Call.getNumArgs() != 1)
    return false;
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!CE)
    return false;
  SVal Arg = Call.getArgSVal(0);
  const MemRegion *R = refRegion(Arg);
  if (!R)
    return false;
  ProgramStateRef State = C.getState();
  SmallVector<RefKey, 2> Keys;
  for (const auto &KV : allRefs(State))
    if (KV.first.first == R && KV.second.isOwned() && KV.second.Acquirer &&
        (KV.second.Acquirer->Fail == Failure::ErrPtr ||
         KV.second.Acquirer->Fail == Failure::NullOrErrPtr))
      Keys.push_back(KV.first);
  SValBuilder &SVB = C.getSValBuilder();
  QualType T = CE->getType();
  // The driver data or converted view of a held device is a real object:
  // `psy = dev_get_drvdata(dev); if (IS_ERR_OR_NULL(psy))` in
  // power_supply_get_by_phandle()'s caller.
  bool Handle = false;
  if (const auto *SR = dyn_cast<SymbolicRegion>(R->getBaseRegion()))
    Handle = convertedFrom(State, SR->getSymbol()) != nullptr;
  if (Keys.empty() && (Handle || countedObject(State, R))) {
    C.addTransition(
        State->BindExpr(CE, C.getLocationContext(), SVB.makeIntVal(0, T)));
    return true;
  }
  if (Keys.empty()) {
    // A result that is NULL on failure is never an ERR_PTR():
    // IS_ERR_OR_NULL() of it is a NULL test.
    // So is a pointer into its object (`container_of(dev, struct
    // regulator_dev, dev)` of a found device).
    bool NullResult = false;
    for (const auto &KV : allRefs(State))
      if (KV.first.first->getBaseRegion() == R->getBaseRegion() &&
          KV.second.isOwned() && KV.second.Acquirer &&
          KV.second.Acquirer->Fail == Failure::Null &&
          isNewReference(*KV.second.Acquirer))
        NullResult = true;
    auto DV = Arg.getAs<DefinedOrUnknownSVal>();
    if (!NullResult || !DV)
      return false;
    auto [NonNull, IsNull] = State->assume(*DV);
    if (NonNull)
      C.addTransition(
          NonNull->BindExpr(CE, C.getLocationContext(), SVB.makeIntVal(0, T)));
    if (IsNull)
      C.addTransition(IsNull->BindExpr(CE, C.getLocationContext(),
                                       SVB.makeIntVal(OrNull ? 1 : 0, T)));
    return true;
  }
  ProgramStateRef Err =
      State->BindExpr(CE, C.getLocationContext(), SVB.makeIntVal(1, T));
  for (const RefKey &K : Keys)
    Err = removeRef(Err, K);
  ProgramStateRef Ok =
      State->BindExpr(CE, C.getLocationContext(), SVB.makeIntVal(0, T));
  if (OrNull)
    if (auto DV = Arg.getAs<DefinedOrUnknownSVal>())
      Ok = Ok->assume(*DV, true);
  if (Ok)
    C.addTransition(Ok);
  C.addTransition(Err);
  return true;
}

/// ACPI firmware nodes are not counted: acpi_device_fwnode_ops and
/// acpi_data_fwnode_ops have no .get/.put, so the fwnode API called from
/// ACPI's own functions (acpi_fwnode_get_named_child_node,
/// acpi_graph_get_next_endpoint) only walks them and owes no put.
/// The same holds for a fwnode the path has seen `is_acpi_node()` (or
/// `is_acpi_device_node()`, `is_acpi_data_node()`) accept
/// (mvpp2_use_acpi_compat_mode()).
static bool isAcpiFwnodeWalk(const LifetimeAPI &API, const CallEvent &Call,
                             CheckerContext &C) {
  if (API.Fam != Family::Node || API.Name.starts_with("of_"))
    return false;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(C.getLocationContext()->getDecl());
  if (FD && FD->getIdentifier() &&
      FD->getName().ltrim('_').starts_with("acpi_"))
    return true;
  ProgramStateRef State = C.getState();
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I)
    if (const MemRegion *R = refRegion(Call.getArgSVal(I)))
      if (testedAcpi(State, R->getBaseRegion()))
        return true;
  return false;
}

/// `is_acpi_node(fwnode)` (and `is_acpi_device_node()`,
/// `is_acpi_data_node()`): evaluated as true, with the node remembered as an
/// ACPI node, or false.
static bool evalAcpiTest(const CallEvent &Call, CheckerContext &C) {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || Call.getNumArgs() != 1 ||
      !(II->getName() == "is_acpi_node" ||
        II->getName() == "is_acpi_device_node" ||
        II->getName() == "is_acpi_data_node"))
    return false;
  const MemRegion *R = refRegion(Call.getArgSVal(0));
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!R || !CE)
    return false;
  ProgramStateRef State = C.getState();
  SValBuilder &SVB = C.getSValBuilder();
  const LocationContext *LC = C.getLocationContext();
  QualType T = CE->getType();
  // An ACPI node took no count when it was found: forget the reference.
  ProgramStateRef Acpi = markAcpiNode(State, R->getBaseRegion());
  for (const auto &KV : allRefs(State))
    if (KV.first.first->getBaseRegion() == R->getBaseRegion() &&
        keyFamily(KV.first) == Family::Node)
      Acpi = removeRef(Acpi, KV.first);
  C.addTransition(Acpi->BindExpr(CE, LC, SVB.makeIntVal(1, T)));
  C.addTransition(State->BindExpr(CE, LC, SVB.makeIntVal(0, T)));
  return true;
}

bool LifetimeModel::evalCall(const CallEvent &Call, CheckerContext &C) const {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || !Call.getDecl() ||
      !isa_and_nonnull<CallExpr>(Call.getOriginExpr()))
    return false;
  StringRef Name = II->getName();
  if (Name == "IS_ERR")
    return evalIsErr(Call, C, false);
  if (Name == "IS_ERR_OR_NULL")
    return evalIsErr(Call, C, true);
  if (Name == "PTR_ERR")
    return evalPtrErr(Call, C);
  if (Name.starts_with("is_acpi_"))
    return evalAcpiTest(Call, C);
  const LifetimeAPI *API =
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  if (!API || API->Observe || !changesCount(*API))
    return false;
  if (isAcpiFwnodeWalk(*API, Call, C))
    return false;
  int NArgs = Call.getNumArgs();
  if (API->RefArg >= NArgs || API->ConsumedArg >= NArgs)
    return false;
  if (API->RefArg >= 0 &&
      !Call.getArgExpr(API->RefArg)->getType()->isPointerType())
    return false;
  if (API->RefArg == RetVal && !Call.getResultType()->isPointerType())
    return false;
  applyCall(Call, *API, C, /*Evaluate=*/true);
  return true;
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

bool nameLooksUp(StringRef Name) {
  static const llvm::StringSet<> Words = {"get",   "find",  "lookup", "parse",
                                          "next",  "alloc", "create", "new",
                                          "first", "last",  "parent", "child"};
  return hasNameWord(Name, Words);
}

/// Marks Result as standing for the object Base when the path owns a
/// reference to Base that a store would hand over.
bool markIfHeld(SymbolRef Result, const MemRegion *Base, CheckerContext &C) {
  ProgramStateRef State = C.getState();
  for (const auto &KV : allRefs(State))
    if (KV.first.first->getBaseRegion() == Base && KV.second.isOwned() &&
        escapesOnStore(keyFamily(KV.first))) {
      C.addTransition(markConverted(State, Result, Base));
      return true;
    }
  return false;
}

void noteConversion(const CallEvent &Call, CheckerContext &C) {
  QualType RT = Call.getResultType();
  if (!RT->isPointerType() || !RT->getPointeeType()->isRecordType())
    return;
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || II->getName().starts_with("IS_ERR") ||
      II->getName().starts_with("PTR_ERR") || II->getName().starts_with("ERR_"))
    return;
  // `port = of_graph_get_port_by_id(np, 1)`: a getter or lookup returns
  // another object (with a reference of its own), not a view of its
  // argument.
  if (nameLooksUp(II->getName()))
    return;
  SymbolRef Result = Call.getReturnValue().getAsSymbol();
  if (!Result || !isa<SymbolConjured>(Result))
    return;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R || !sameObjectTypes(Call.getArgExpr(I)->getType(), RT))
      continue;
    if (markIfHeld(Result, R->getBaseRegion(), C))
      return;
  }
}

/// `qmp = platform_get_drvdata(pdev); return qmp;` after
/// `pdev = of_find_device_by_node(np)`: the driver data of a held device is
/// the handle its "get" function gives out, and the matching "put" drops
/// the device through it (`put_device(qmp->dev)`). The result stands for the
/// device, as a converted result does: returning it, or handing it to a
/// call that takes ownership (`devm_add_action_or_reset(dev, put, qmp)`),
/// hands the reference over. Works on the inline accessors (the result is
/// the value loaded from `dev->driver_data`) and on prototypes alike.
bool isDriverDataAccessor(StringRef Name) {
  return Name.ends_with("get_drvdata") || Name.ends_with("get_clientdata") ||
         Name == "usb_get_intfdata";
}

void noteDriverData(const CallEvent &Call, CheckerContext &C) {
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  if (!II || !isDriverDataAccessor(II->getName()) || Call.getNumArgs() != 1)
    return;
  SymbolRef Result = Call.getReturnValue().getAsSymbol();
  const MemRegion *R = refRegion(Call.getArgSVal(0));
  if (!Result || !R)
    return;
  markIfHeld(Result, R->getBaseRegion(), C);
}

void LifetimeModel::checkPostCall(const CallEvent &Call,
                                  CheckerContext &C) const {
  // kref_* and refcount_* are evaluated by refcount.Model: observe them.
  const LifetimeAPI *API =
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  if (!API) {
    noteConversion(Call, C);
    noteDriverData(Call, C);
    return;
  }
  if (!API->Observe)
    return;
  if (API->RefArg >= (int)Call.getNumArgs() ||
      !Call.getArgExpr(API->RefArg)->getType()->isPointerType())
    return;
  if (API->Fail == Failure::Zero) {
    // refcount.Model split the result into concrete 0 / 1.
    SVal Ret = Call.getReturnValue();
    if (Ret.isZeroConstant())
      return;
  }
  LifetimeAPI Copy = *API;
  (void)Copy;
  // The result was already split by refcount.Model: acquire unconditionally.
  if (API->Fail == Failure::Zero) {
    ProgramStateRef State = C.getState();
    const MemRegion *R = refRegion(Call.getArgSVal(API->RefArg));
    if (!R || ownedByBit(Call.getOriginExpr(), C))
      return;
    State = acquire(State, R, *API, Call.getOriginExpr(),
                    Call.getArgExpr(API->RefArg));
    C.addTransition(State);
    return;
  }
  applyCall(Call, *API, C, /*Evaluate=*/false);
}

bool isListNodeType(QualType T) {
  if (const auto *RT = T->getAs<RecordType>()) {
    StringRef N = RT->getDecl()->getName();
    return N == "list_head" || N == "hlist_node" || N == "rb_node" ||
           N == "llist_node" || N == "hlist_nulls_node";
  }
  return false;
}

void LifetimeModel::checkPreCall(const CallEvent &Call,
                                 CheckerContext &C) const {
  // Hand-overs through calls we do not model.
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  StringRef Name = II ? II->getName() : "";
  // What an API does to the references it is given is evaluated elsewhere;
  // consume and borrow contracts only decide about their argument here.
  const LifetimeAPI *API =
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
  if (API && changesCount(*API))
    return;
  if (Name.starts_with("IS_ERR") || Name.starts_with("PTR_ERR"))
    return;
  ProgramStateRef State = C.getState();
  auto Refs = allRefs(State);
  if (Refs.empty())
    return;
  bool Unknown = !II || !Call.getDecl();
  bool Takes = !Unknown && nameTakesOwnership(Name);
  bool Releases = !Unknown && nameReleases(Name);
  bool UndoesPm = !Unknown && !API && nameUndoesPm(Name);
  ProgramStateRef New = State;
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *R = refRegion(Call.getArgSVal(I));
    if (!R)
      continue;
    bool Contract = API && API->RefArg == int(I);
    if (Contract && API->Op == LifeOp::Borrow)
      continue; // Lent for the call, whatever the callee's name says.
    const MemRegion *Base = R->getBaseRegion();
    // A converted result or driver-data handle stands for its device.
    if (const auto *SR = dyn_cast<SymbolicRegion>(Base))
      if (const MemRegion *Orig = convertedFrom(State, SR->getSymbol()))
        Base = Orig;
    for (const auto &KV : Refs) {
      RefEntry E = KV.second;
      if (KV.first.first->getBaseRegion() != Base) {
        // The runtime-PM votes on devices read out of the structure an undo
        // helper is given are what it undoes (drivers vote on an array of
        // power domains in one helper and unvote them in another).
        if (UndoesPm && keyFamily(KV.first) == Family::PmRuntime &&
            (E.K == RefEntry::Kind::Owned || E.K == RefEntry::Kind::Lost) &&
            loadedOutOf(KV.first.first->getBaseRegion()) == Base) {
          E.K = RefEntry::Kind::Escaped;
          New = setRef(New, KV.first, E);
        }
        continue;
      }
      if (Contract &&
          (E.K == RefEntry::Kind::Owned || E.K == RefEntry::Kind::Lost)) {
        // Consumed: the callee owns the reference now.
        E.K = RefEntry::Kind::Escaped;
        New = setRef(New, KV.first, E);
        continue;
      }
      if (E.K == RefEntry::Kind::BorrowedPut) {
        // The callee may take a reference of its own: forget the put.
        if (!isLoggingCall(Name))
          New = removeRef(New, KV.first);
        continue;
      }
      if (E.K == RefEntry::Kind::Escaped)
        continue;
      if (Releases) {
        // device_unregister(), kfree(), list_del(): the object is given up
        // (or dropped from where it was registered): nothing left to check.
        E.K = RefEntry::Kind::Escaped;
        New = setRef(New, KV.first, E);
        continue;
      }
      if (E.K == RefEntry::Kind::Released)
        continue;
      if (!escapesOnStore(keyFamily(KV.first)))
        continue;
      const auto *TR = dyn_cast<TypedValueRegion>(R);
      bool ListNode =
          R != KV.first.first && TR && isListNodeType(TR->getValueType());
      if (Unknown || Takes || ListNode) {
        E.K = RefEntry::Kind::Escaped;
        New = setRef(New, KV.first, E);
      }
    }
  }
  if (New != State)
    C.addTransition(New);
}

bool isErrorReturn(const Expr *RetE, SVal V, ProgramStateRef State,
                   CheckerContext &C) {
  const Expr *E = RetE->IgnoreParenCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier() &&
          (FD->getName() == "ERR_PTR" || FD->getName() == "ERR_CAST"))
        return true;
  if (RetE->getType()->isPointerType()) {
    if (V.isZeroConstant())
      return true;
    if (auto CI = V.getAs<loc::ConcreteInt>())
      return apsInt(CI->getValue()).getZExtValue() >= (uint64_t)-4095;
    return false;
  }
  if (!RetE->getType()->isSignedIntegerType())
    return false;
  // -EINPROGRESS is the status of an asynchronous operation under way
  // (pm_runtime_get() queued the resume), not a failure.
  constexpr int EInProgress = 115; // include/uapi/asm-generic/errno.h
  if (auto NL = V.getAs<NonLoc>()) {
    SValBuilder &SVB = C.getSValBuilder();
    SVal Eq = SVB.evalBinOpNN(
        State, BO_EQ, *NL,
        SVB.makeIntVal(-EInProgress, C.getASTContext().IntTy).castAs<NonLoc>(),
        SVB.getConditionType());
    if (auto D = Eq.getAs<DefinedOrUnknownSVal>())
      if (State->assume(*D, true) && !State->assume(*D, false))
        return false;
  }
  ProgramStateRef Neg = assumeCmpZero(State, V, BO_LT, C);
  ProgramStateRef NonNeg = assumeCmpZero(State, V, BO_GE, C);
  if (!V.getAs<NonLoc>())
    return false;
  return Neg && !NonNeg;
}

void LifetimeModel::checkPreStmt(const ReturnStmt *RS,
                                 CheckerContext &C) const {
  const Expr *RetE = RS->getRetValue();
  if (!RetE)
    return;
  if (!C.inTopFrame()) {
    // `pci_dev_put(dev); return dev;`: the function deliberately returns a
    // pointer it holds no count on (the object is kept alive elsewhere, e.g.
    // on a bus list); its caller uses it as a borrowed pointer.
    const MemRegion *R = refRegion(C.getSVal(RetE));
    if (!R)
      return;
    ProgramStateRef State = C.getState();
    for (const auto &KV : allRefs(State)) {
      if (KV.first.first->getBaseRegion() != R->getBaseRegion() ||
          KV.second.K != RefEntry::Kind::Released)
        continue;
      RefEntry E = KV.second;
      E.K = RefEntry::Kind::Escaped;
      State = setRef(State, KV.first, E);
    }
    C.addTransition(State);
    return;
  }
  ProgramStateRef State = C.getState();
  SVal V = C.getSVal(RetE);
  const Expr *Stripped = RetE->IgnoreParenCasts();
  const MemRegion *R = refRegion(V);
  const MemRegion *Base = R ? R->getBaseRegion() : nullptr;
  for (const auto &KV : allRefs(State)) {
    RefEntry E = KV.second;
    if (E.K != RefEntry::Kind::Owned && E.K != RefEntry::Kind::Lost)
      continue;
    const MemRegion *RefBase = KV.first.first->getBaseRegion();
    bool Returned =
        E.AcquireSite == Stripped ||
        (Base && escapesOnStore(keyFamily(KV.first)) &&
         (RefBase == Base ||
          (isa<SymbolicRegion>(Base) &&
           convertedFrom(State, cast<SymbolicRegion>(Base)->getSymbol()) ==
               RefBase)));
    if (Returned) {
      E.K = RefEntry::Kind::Escaped;
      State = setRef(State, KV.first, E);
    }
  }
  if (isErrorReturn(RetE, V, State, C))
    State = setReturnsError(State, true);
  C.addTransition(State);
}

/// A pointer to an object whose references the model counts by its own
/// type (struct device and device_node, whatever embeds them).
static bool isCountedObjectPointer(QualType T) {
  if (!T->isPointerType())
    return false;
  const auto *RT = T->getPointeeType()->getAs<RecordType>();
  if (!RT || !RT->getDecl()->getIdentifier())
    return false;
  StringRef N = RT->getDecl()->getName();
  return N == "device" || N == "device_node" || N == "fwnode_handle";
}

void LifetimeModel::checkBind(SVal Loc, SVal Val, const Stmt *S,
                              CheckerContext &C) const {
  // Remember the local variable a reference is kept in, for messages.
  const MemRegion *R = refRegion(Val);
  if (!R)
    return;
  ProgramStateRef State = C.getState();
  const MemRegion *L = Loc.getAsRegion();
  const auto *VR = dyn_cast_or_null<VarRegion>(L);
  // Stored into a global or static (the analyzer does not count that as an
  // escape), or into a variable whose cleanup function puts it
  // (`struct device_node *np __free(device_node) = ...`): handed over.
  bool HandedOver = L && (isa<GlobalsSpaceRegion>(memorySpace(L, State)) ||
                          (VR && VR->getDecl()->hasAttr<CleanupAttr>()));
  if (HandedOver) {
    for (const auto &KV : allRefs(State)) {
      if (KV.first.first != R || !escapesOnStore(keyFamily(KV.first)))
        continue;
      RefEntry E = KV.second;
      if (E.K == RefEntry::Kind::Owned || E.K == RefEntry::Kind::Lost) {
        E.K = RefEntry::Kind::Escaped;
        State = setRef(State, KV.first, E);
      }
    }
    C.addTransition(State);
    return;
  }
  if (const auto *FR = dyn_cast_or_null<FieldRegion>(L)) {
    // Also before any get: `ctrl->dev = &pdev->dev;` early in probe, the
    // get and the put through `ctrl->dev` later.
    if (isCountedObjectPointer(FR->getDecl()->getType())) {
      C.addTransition(noteFieldCopy(State, FR, R));
      return;
    }
    for (const auto &KV : allRefs(State))
      if (KV.first.first->getBaseRegion() == R->getBaseRegion()) {
        C.addTransition(noteFieldCopy(State, FR, R));
        return;
      }
    return;
  }
  if (!VR || !VR->getDecl()->hasLocalStorage())
    return;
  for (const auto &KV : allRefs(State)) {
    if (KV.first.first != R || KV.second.Var)
      continue;
    RefEntry E = KV.second;
    E.Var = dyn_cast<VarDecl>(VR->getDecl());
    State = setRef(State, KV.first, E);
  }
  C.addTransition(State);
}

/// `for_each_card_prelinks(card, i, link)` over `static struct snd_soc_card
/// card = { .num_links = ARRAY_SIZE(links) }`: a loop bound read from a
/// global table still has the table's initial value, so the loop is not
/// walked zero times (which would leave what its body stores looking
/// leaked). Applied where the bound is loaded, before the comparison splits
/// the path; a bound the path wrote itself is a concrete value and left
/// alone.
static void constrainStaticBound(const CastExpr *CE, CheckerContext &C) {
  const auto *ME = dyn_cast<MemberExpr>(CE->getSubExpr()->IgnoreParens());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD ||
      !(CE->getType()->isIntegerType() || CE->getType()->isPointerType()))
    return;
  // Cheapest test first: the field of a global (this runs on every member
  // load), then the walk up to a loop condition.
  const MemRegion *BaseR = C.getSVal(ME->getBase()).getAsRegion();
  if (!BaseR || !isa<VarRegion>(BaseR->StripCasts()) ||
      !isInLoopCondition(CE, C.getLocationContext()->getParentMap()))
    return;
  ProgramStateRef State = C.getState();
  SVal Field = State->getLValue(FD, loc::MemRegionVal(BaseR));
  std::optional<int64_t> Init = staticFieldInitializer(Field.getAsRegion());
  if (!Init)
    return;
  if (CE->getType()->isPointerType()) {
    auto P = C.getSVal(CE).getAs<DefinedOrUnknownSVal>();
    if (P && P->getAsSymbol())
      if (ProgramStateRef S = State->assume(*P, true))
        C.addTransition(S);
    return;
  }
  auto Cur = C.getSVal(CE).getAs<NonLoc>();
  if (!Cur || !Cur->getAsSymbol())
    return;
  SValBuilder &SVB = C.getSValBuilder();
  SVal Eq = SVB.evalBinOpNN(
      State, BO_EQ, *Cur, SVB.makeIntVal(*Init, CE->getType()).castAs<NonLoc>(),
      SVB.getConditionType());
  if (auto D = Eq.getAs<DefinedOrUnknownSVal>())
    if (ProgramStateRef S = State->assume(*D, true))
      C.addTransition(S);
}

/// `put_device(led_cdev->dev)` where led_cdev is the driver data of the held
/// device (of_led_get(), qmp_put()): a handle's `dev` pointer is the device
/// it was taken from, so the loaded pointer stands for that device too.
static void noteHandleDevice(const CastExpr *CE, CheckerContext &C) {
  const auto *ME = dyn_cast<MemberExpr>(CE->getSubExpr()->IgnoreParens());
  if (!ME || !ME->getMemberDecl()->getIdentifier() ||
      ME->getMemberDecl()->getName() != "dev" ||
      !CE->getType()->isPointerType())
    return;
  ProgramStateRef State = C.getState();
  const auto *Handle =
      dyn_cast_or_null<SymbolicRegion>(refRegion(C.getSVal(ME->getBase())));
  if (!Handle)
    return;
  const MemRegion *Orig = convertedFrom(State, Handle->getSymbol());
  SymbolRef Loaded = C.getSVal(CE).getAsSymbol();
  if (Orig && Loaded && !convertedFrom(State, Loaded))
    C.addTransition(markConverted(State, Loaded, Orig));
}

/// `(void *)(skb->_nfct & NFCT_PTRMASK)` after `dst->_nfct = skb->_nfct`:
/// the analyzer leaves an integer-to-pointer cast of a symbolic word
/// unknown, so give it a pointer symbol and carry the "stored" mark of the
/// word over to it (a get on it is then the reference of the object the
/// word was stored into).
void LifetimeModel::checkPostStmt(const CastExpr *CE, CheckerContext &C) const {
  if (CE->getCastKind() == CK_LValueToRValue) {
    // A handle's `dev`, or a loop bound or table (never both: the table
    // case needs a global's field, the handle a converted pointer).
    const auto *ME = dyn_cast<MemberExpr>(CE->getSubExpr()->IgnoreParens());
    if (ME && ME->getMemberDecl()->getIdentifier() &&
        ME->getMemberDecl()->getName() == "dev")
      noteHandleDevice(CE, C);
    else
      constrainStaticBound(CE, C);
    return;
  }
  if (CE->getCastKind() != CK_IntegralToPointer)
    return;
  ProgramStateRef State = C.getState();
  SymbolRef Word = C.getSVal(CE->getSubExpr()).getAsSymbol();
  if (!Word || !isStored(State, Word))
    return;
  SVal V = C.getSVal(CE);
  if (V.isUnknown()) {
    V = conjureExprValue(CE, CE->getType(), C);
    State = State->BindExpr(CE, C.getLocationContext(), V);
  }
  SymbolRef Ptr = V.getAsLocSymbol();
  if (!Ptr)
    Ptr = V.getAsSymbol();
  if (Ptr)
    State = markStored(State, Ptr);
  C.addTransition(State);
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

ProgramStateRef LifetimeModel::checkPointerEscape(
    ProgramStateRef State, const InvalidatedSymbols &Escaped,
    const CallEvent *Call, PointerEscapeKind Kind) const {
  // Passing a pointer to a function is not a hand-over in the kernel
  // (checkPreCall decides by the callee's name); a store into memory that
  // outlives the function, or into what a callee may keep, is.
  if (Kind == PSK_DirectEscapeOnCall) {
    // ... unless the callee has a body in this TU the analyzer did not
    // inline: it may well put or keep the reference
    // (`np = __of_find_node_by_full_path(np, path)`).
    const auto *FD =
        Call ? dyn_cast_or_null<FunctionDecl>(Call->getDecl()) : nullptr;
    if (!FD || !FD->hasBody())
      return State;
  }
  if (Call &&
      lookupLifetimeAPI(dyn_cast_or_null<FunctionDecl>(Call->getDecl())))
    return State;
  if (Kind == PSK_EscapeOnBind)
    for (SymbolRef Sym : Escaped)
      if (isPointerWord(Sym->getType(), State))
        State = markStored(State, Sym);
  for (const auto &KV : allRefs(State)) {
    const auto *SR = dyn_cast<SymbolicRegion>(KV.first.first->getBaseRegion());
    if (!SR || !Escaped.count(SR->getSymbol()))
      continue;
    if (!escapesOnStore(keyFamily(KV.first)))
      continue;
    RefEntry E = KV.second;
    if (E.K == RefEntry::Kind::Owned || E.K == RefEntry::Kind::Lost) {
      E.K = RefEntry::Kind::Escaped;
      State = setRef(State, KV.first, E);
    } else if (E.K == RefEntry::Kind::BorrowedPut) {
      State = removeRef(State, KV.first);
    }
  }
  return State;
}

/// An object an `__init` function creates (`kobject_create_and_add()`) and
/// keeps when it succeeds is meant to live until shutdown (a permanent sysfs
/// directory): its reference is not a leak on success. A lookup's reference
/// (`of_find_node_by_path()`) still is, and so is either on failure.
static bool createdForever(const RefEntry &E, CheckerContext &C) {
  if (!E.Acquirer || !E.Acquirer->Name.contains("create"))
    return false;
  const LocationContext *Top = C.getLocationContext();
  while (Top->getParent())
    Top = Top->getParent();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Top->getDecl());
  const auto *SA = FD ? FD->getAttr<SectionAttr>() : nullptr;
  return SA && SA->getName().starts_with(".init.");
}

void LifetimeModel::checkDeadSymbols(SymbolReaper &SR,
                                     CheckerContext &C) const {
  ProgramStateRef State = C.getState();
  ProgramStateRef New = removeDeadNullWithArg(
      removeDeadFieldCopies(
          removeDeadConverted(removeDeadStored(State, SR), SR), SR),
      SR);
  SmallVector<std::pair<RefKey, RefEntry>, 2> Leaks;
  for (const auto &KV : allRefs(State)) {
    const MemRegion *R = KV.first.first;
    if (SR.isLiveRegion(R))
      continue;
    const RefEntry &E = KV.second;
    if (E.K == RefEntry::Kind::Lost)
      continue;
    if (E.K != RefEntry::Kind::Owned) {
      New = removeRef(New, KV.first);
      continue;
    }
    // `adapter = i2c_verify_adapter(dev)`: the reference lives on as
    // `adapter` (reported when that dies, unless it is returned).
    if (hasLiveConversion(State, R->getBaseRegion(), SR))
      continue;
    if (knownNull(State, R, C)) {
      New = removeRef(New, KV.first);
      continue;
    }
    if (E.isNewReference() && !createdForever(E, C)) {
      Leaks.push_back(KV);
      New = removeRef(New, KV.first);
    } else {
      // A get on `dev->parent` whose field was reloaded after a call (and
      // maybe assumed NULL before the put): the path lost track of the put.
      const MemRegion *Base = R->getBaseRegion();
      if (const MemRegion *From = loadedFrom(Base))
        if (refRegion(State->getSVal(From)) != Base) {
          New = removeRef(New, KV.first);
          continue;
        }
      RefEntry L = E;
      L.K = RefEntry::Kind::Lost;
      New = setRef(New, KV.first, L);
    }
  }
  if (New == State)
    return;
  ExplodedNode *N = C.getPredecessor();
  if (!Leaks.empty() && Leak) {
    N = C.generateNonFatalErrorNode(State);
    if (N)
      for (const auto &KV : Leaks)
        Leak->reportLeak(C, N, KV.first, KV.second);
    else
      N = C.getPredecessor();
  }
  C.addTransition(New, N);
}

void LifetimeModel::checkEndFunction(const ReturnStmt *RS,
                                     CheckerContext &C) const {
  if (!C.inTopFrame())
    return;
  ProgramStateRef State = C.getState();
  bool Err = returnsError(State);
  SmallVector<std::pair<RefKey, RefEntry>, 2> Leaks;
  ProgramStateRef New = State;
  for (const auto &KV : allRefs(State)) {
    const RefEntry &E = KV.second;
    New = removeRef(New, KV.first);
    if (E.K != RefEntry::Kind::Owned && E.K != RefEntry::Kind::Lost)
      continue;
    if (knownNull(State, KV.first.first, C))
      continue;
    if ((!E.isNewReference() || createdForever(E, C)) && !Err)
      continue;
    Leaks.push_back(KV);
  }
  if (Leaks.empty() || !Leak)
    return;
  ExplodedNode *N = C.generateNonFatalErrorNode(State);
  if (!N)
    return;
  for (const auto &KV : Leaks)
    Leak->reportLeak(C, N, KV.first, KV.second);
}

void LifetimeModel::printState(raw_ostream &Out, ProgramStateRef State,
                               const char *NL, const char *Sep) const {
  printLifetimeFacts(Out, State, NL);
}

} // namespace

void krefcheck::attachLeakReporter(CheckerManager &Mgr, const LeakReporter *R) {
  Mgr.getChecker<LifetimeModel>()->Leak = R;
}

void registerLifetimeModel(CheckerManager &Mgr) {
  Mgr.registerChecker<LifetimeModel>();
}
