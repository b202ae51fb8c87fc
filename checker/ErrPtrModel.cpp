//===- ErrPtrModel.cpp - IS_ERR(), PTR_ERR() and other test roles --------===//
//
// Calls refcount.LifetimeModel evaluates by their role rows (err-test,
// err-or-null-test, err-value, acpi-node-test): what the path knows of a
// pointer's references decides their result. Integrity checks
// (integrity-check) pass.
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

/// Did this path take a count on the object R points into (kref_get(&p->kref),
/// get_device(p)), or create it (kref_init() on memory it allocated)? Then
/// the pointer is a real object, never an ERR_PTR():
/// `if (IS_ERR(p))` / `PTR_ERR(p) == -EAGAIN` after `return p` of a lookup
/// that took a count cannot hold (tty_lookup_driver, gss_setup_upcall).
/// So is a pointer the counted object was read out of (`vma` for a count on
/// `vma->obj`, i915_vma_get()): the path dereferenced it.
static bool countedObject(ProgramStateRef State, const MemRegion *R) {
  if (!ruleEnabled(RuleId::CountedNotErrPtr))
    return false;
  const MemRegion *Base = R->getBaseRegion();
  for (const auto &KV : allRefs(State)) {
    if (!KV.second.Acquirer ||
        (isNewReference(*KV.second.Acquirer) &&
         !KV.second.Acquirer->InitsFresh) ||
        KV.second.K == RefEntry::Kind::BorrowedPut)
      continue;
    const MemRegion *Held = KV.first.Region->getBaseRegion();
    for (unsigned Depth = 0; Held && Depth < 3; ++Depth) {
      if (Held == Base)
        return true;
      Held = loadedOutOf(Held);
      Held = Held ? Held->getBaseRegion() : nullptr;
    }
  }
  return false;
}

/// `if (!__list_add_valid_or_report(new, prev, next)) return;`: the check
/// fails only on a corrupted list, which it reports itself; the path that
/// skipped the insert is not one a program takes (a created object added to
/// a list there would read as leaked).
bool lifetime::evalIntegrityCheck(const CallEvent &Call, CheckerContext &C) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (!CE || !CE->getType()->isIntegerType())
    return false;
  SVal Pass = C.getSValBuilder().makeIntVal(1, CE->getType());
  C.addTransition(C.getState()->BindExpr(CE, C.getLocationContext(), Pass));
  return true;
}

/// The symbol of a pointer to the start of its object (`p`, not
/// `&p->field`), whose IS_ERR() outcome the path can remember.
static SymbolRef pointerSymbol(const MemRegion *R) {
  const auto *SR = dyn_cast_or_null<SymbolicRegion>(R);
  return SR ? SR->getSymbol() : nullptr;
}

/// Rule errptr-values: IS_ERR(p) (IS_ERR_OR_NULL(p)) of any pointer splits
/// the path into an ERR_PTR() (non-NULL), a real pointer and, for the
/// _OR_NULL form, NULL, and remembers the outcome for p: a second test
/// agrees with the first, and PTR_ERR(p) of an ERR_PTR() is a negative
/// errno (evalPtrErr()). Without it the analyzer runs the inline bodies,
/// whose casts lose the range: `if (IS_ERR(p)) return PTR_ERR(p);` could
/// return 0, and the caller would go on as if the call had succeeded.
static bool splitOnErrPtr(const MemRegion *R, DefinedOrUnknownSVal DV,
                          const CallExpr *CE, CheckerContext &C, bool OrNull) {
  SymbolRef Sym = pointerSymbol(R);
  if (!Sym || !ruleEnabled(RuleId::ErrPtrValues))
    return false;
  ProgramStateRef State = C.getState();
  SValBuilder &SVB = C.getSValBuilder();
  const LocationContext *LC = C.getLocationContext();
  QualType T = CE->getType();
  auto Bind = [&](ProgramStateRef S, int V) {
    return S->BindExpr(CE, LC, SVB.makeIntVal(V, T));
  };
  auto [NonNull, IsNull] = State->assume(DV);
  std::optional<bool> Known = errPtrFact(State, Sym);
  applyRule(RuleId::ErrPtrValues);
  // An ERR_PTR() is never NULL; IS_ERR_OR_NULL(NULL) is true.
  if (NonNull && Known.value_or(true))
    C.addTransition(Bind(noteErrPtr(NonNull, Sym, true), 1));
  if (OrNull && IsNull)
    C.addTransition(Bind(IsNull, 1));
  ProgramStateRef Real = OrNull ? NonNull : State;
  if (Real && !Known.value_or(false))
    C.addTransition(Bind(noteErrPtr(Real, Sym, false), 0));
  return true;
}

bool lifetime::evalPtrErr(const CallEvent &Call, CheckerContext &C) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call.getOriginExpr());
  if (Call.getNumArgs() != 1 || !CE || !CE->getType()->isIntegerType())
    return false;
  const MemRegion *R = refRegion(Call.getArgSVal(0));
  ProgramStateRef State = C.getState();
  // PTR_ERR() of what IS_ERR() found an ERR_PTR(): -MAX_ERRNO..-1.
  if (SymbolRef Sym = pointerSymbol(R))
    if (errPtrFact(State, Sym).value_or(false) &&
        ruleEnabled(RuleId::ErrPtrValues)) {
      SVal Ret = conjureCallResult(Call, C);
      BasicValueFactory &BVF = C.getSValBuilder().getBasicValueFactory();
      QualType T = CE->getType();
      if (auto DV = Ret.getAs<DefinedOrUnknownSVal>())
        if (ProgramStateRef Err = State->assumeInclusiveRange(
                *DV, BVF.getValue(-4095, T), BVF.getValue(-1, T), true)) {
          C.addTransition(Err->BindExpr(CE, C.getLocationContext(), Ret));
          return true;
        }
    }
  if (!R || !countedObject(State, R) || !applyRule(RuleId::CountedNotErrPtr))
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

bool lifetime::evalIsErr(const CallEvent &Call, CheckerContext &C,
                         bool OrNull) {
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
    if (KV.first.Region == R && KV.second.isOwned() && KV.second.Acquirer &&
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
  if (Keys.empty() && (Handle || countedObject(State, R)) &&
      applyRule(RuleId::CountedNotErrPtr)) {
    C.addTransition(
        State->BindExpr(CE, C.getLocationContext(), SVB.makeIntVal(0, T)));
    return true;
  }
  if (Keys.empty()) {
    // A result that is NULL on failure, or whose contract never fails
    // (dget_parent()), is never an ERR_PTR(): IS_ERR_OR_NULL() of it is a
    // NULL test.
    // So is a pointer into its object (`container_of(dev, struct
    // regulator_dev, dev)` of a found device).
    bool NullResult = false;
    for (const auto &KV : allRefs(State))
      if (KV.first.Region->getBaseRegion() == R->getBaseRegion() &&
          KV.second.isOwned() && KV.second.Acquirer &&
          (KV.second.Acquirer->Fail == Failure::Null ||
           KV.second.Acquirer->Fail == Failure::Never) &&
          isNewReference(*KV.second.Acquirer))
        NullResult = true;
    auto DV = Arg.getAs<DefinedOrUnknownSVal>();
    if (!DV)
      return false;
    if (!NullResult)
      return splitOnErrPtr(R, *DV, CE, C, OrNull);
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
bool lifetime::isAcpiFwnodeWalk(const LifetimeAPI &API, const CallEvent &Call,
                                CheckerContext &C) {
  if (!API.AcpiUncounted || !ruleEnabled(RuleId::AcpiUncounted))
    return false;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(C.getLocationContext()->getDecl());
  if (FD && FD->getIdentifier())
    for (const std::string &W : activeModel().UncountedFwnodeWalkers)
      if (globMatches(W, FD->getName()))
        return applyRule(RuleId::AcpiUncounted);
  ProgramStateRef State = C.getState();
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I)
    if (const MemRegion *R = refRegion(Call.getArgSVal(I)))
      if (testedAcpi(State, R->getBaseRegion()))
        return applyRule(RuleId::AcpiUncounted);
  return false;
}

/// `is_acpi_node(fwnode)` (an acpi-node-test role row): evaluated as true,
/// with the node remembered as an ACPI node, or false.
bool lifetime::evalAcpiTest(const CallEvent &Call, CheckerContext &C) {
  if (Call.getNumArgs() != 1 || !ruleEnabled(RuleId::AcpiUncounted))
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
    if (KV.first.Region->getBaseRegion() == R->getBaseRegion() &&
        keyFamily(KV.first) == Family::Node)
      Acpi = removeRef(Acpi, KV.first);
  C.addTransition(Acpi->BindExpr(CE, LC, SVB.makeIntVal(1, T)));
  C.addTransition(State->BindExpr(CE, LC, SVB.makeIntVal(0, T)));
  return true;
}
