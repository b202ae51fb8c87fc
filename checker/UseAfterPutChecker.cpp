//===- UseAfterPutChecker.cpp - refcount.UseAfterPut ----------------------===//
//
// Once a path has put the last reference it held, the object may be freed
// at any moment: reading or writing through the pointer, or passing it to
// another function, may touch freed memory. Reported for references the path
// acquired itself as a new +1 reference (of_find_*, of_get_*, bus_find_device,
// an iterator's node, ...):
//
//   Owned(n) --puts--> Released --*p, p->f, f(p)--> report
//
// and, for a pointer the function was given (a parameter, or read out of
// one), after the put of that reference (rule given-reference-single-put):
//
//   (given) --put--> BorrowedPut --*p, p->f, f(p), dev_err(p)--> report
//
// and, whoever owned the count, after a kref_put() whose result the code
// tested returned true (rule release-ran): its release callback freed the
// object, so any use in that function is a use after free:
//
//   if (kref_put(&o->ref, rel)) --true--> Freed --*o, o->f, f(o)--> report
//
// Not reported: uses while the path still holds another reference (a get
// before the put, or another count on the same object), uses of values read
// before the put, pointer comparisons, a second put (refcount.Underflow's),
// a get and a put on a pointer the caller passed (the caller's reference
// keeps it alive), uses after a counting put whose caller runs the release
// (refcount_dec_and_test()) in the function that tested its result (rule
// put-helper-returned reports them once that function returned), and the
// runtime-PM usage count (it does not keep memory alive).
//
//===----------------------------------------------------------------------===//

#include "AssertionPaths.h"
#include "Contracts.h"
#include "CountState.h"
#include "LifetimeModel.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "Rules.h"
#include "clang/Lex/Lexer.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

// References (by region) this path already reported a use of.
REGISTER_SET_WITH_PROGRAMSTATE(ReportedUses, const MemRegion *)

namespace {
class UseAfterPutChecker : public Checker<check::Location, check::PreCall> {
  const BugType Bug{this, "Use after put", RefcountCategory};
  const BugType ReleaseBug{this, UseAfterReleaseBugName, RefcountCategory};

public:
  void checkLocation(SVal Loc, bool IsLoad, const Stmt *S,
                     CheckerContext &C) const;
  void checkPreCall(const CallEvent &Call, CheckerContext &C) const;

private:
  /// The released reference R points into, if no reference to the same object
  /// is still held.
  std::optional<std::pair<RefKey, RefEntry>>
  releasedRef(ProgramStateRef State, const MemRegion *R,
              const StackFrameContext *Here) const;
  void report(CheckerContext &C, const std::pair<RefKey, RefEntry> &Ref,
              const std::string &What, SourceRange Range) const;
  /// Reports a use of an object a tested kref_put()'s release freed (rule
  /// release-ran); false when R points into no such object of this frame.
  bool reportUseAfterRelease(CheckerContext &C, const MemRegion *R,
                             llvm::function_ref<std::string()> What,
                             SourceRange Range) const;
};
} // namespace

/// After a counting put with no release callback that dropped the count
/// (`if (!refcount_dec_and_test(&r->pending)) return;`), the code that
/// follows is the release: it uses the object on purpose. Only in the
/// function that tested the put's result and what it calls: once that
/// function returned (`conn_done(c)`, whose body is `if
/// (atomic_dec_and_test(&c->ref)) kfree(c);`), the release is over (rule
/// put-helper-returned).
static bool inReleaseCode(const RefEntry &E, const StackFrameContext *Here) {
  if (!E.Releaser || !E.Releaser->ReleaseInCaller)
    return false;
  if (!E.ReleaseFrame || !Here || E.ReleaseFrame == Here ||
      E.ReleaseFrame->isParentOf(Here))
    return true;
  return !applyRule(RuleId::PutHelperReturned);
}

/// A put of the reference the function was given, after which a use may
/// touch a freed object (rule given-reference-single-put): not a counting
/// put whose caller runs the release (`if (refcount_dec_and_test(&o->ref))
/// { list_del(&o->node); kfree(o); }`).
static bool isGivenUse(ProgramStateRef State,
                       const std::pair<RefKey, RefEntry> &KV) {
  const RefEntry &E = KV.second;
  return isGivenReferencePut(State, KV.first, E) && E.Releaser &&
         !E.Releaser->ReleaseInCaller &&
         ruleEnabled(RuleId::GivenReferenceSinglePut);
}

std::optional<std::pair<RefKey, RefEntry>>
UseAfterPutChecker::releasedRef(ProgramStateRef State, const MemRegion *R,
                                const StackFrameContext *Here) const {
  if (!R)
    return std::nullopt;
  const MemRegion *Base = R->getBaseRegion();
  for (const MemRegion *Done : State->get<ReportedUses>())
    if (Done->getBaseRegion() == Base)
      return std::nullopt;
  std::optional<std::pair<RefKey, RefEntry>> Found;
  for (const auto &KV : allRefs(State)) {
    if (KV.first.Region->getBaseRegion() != Base)
      continue;
    const RefEntry &E = KV.second;
    if (!isLifetimeFamily(keyFamily(KV.first)))
      continue;
    // `dev = driver_find_device(&my_driver.driver, ...); put_device(dev);
    // return dev_get_drvdata(dev);` (arm-smmu, virtio-iommu): the device is
    // bound to the caller's own driver, whose binding keeps it alive (a
    // bound-to-caller row; rule bound-to-caller).
    if (E.Acquirer && E.Acquirer->BoundToCaller &&
        applyRule(RuleId::BoundToCaller))
      continue;
    // The first reference a register call set up on memory the caller
    // owns (rule given-object-registered): its put runs the release, which
    // need not free that memory (add_mtd_device() reads mtd->dev.of_node
    // after put_device(&mtd->dev)). Refcount.Leak's and
    // refcount.Underflow's business only.
    if (E.K == RefEntry::Kind::Released &&
        isGivenRegistered(KV.first.Region, E))
      return std::nullopt;
    if (E.K == RefEntry::Kind::Released && E.isNewReference() &&
        !inReleaseCode(E, Here))
      Found = KV;
    else if (isGivenUse(State, KV))
      Found = KV;
    else if (E.K != RefEntry::Kind::Released)
      return std::nullopt; // Still held (or handed over) some other way.
  }
  return Found;
}

/// How the code names the released object at a use: the reference's name,
/// or, when the code uses another variable that is the same object on this
/// path (`root_port` after `root_port = pcie_find_root_port(pdev)` returned
/// its argument), that variable, saying which reference it is.
static std::string useName(const Expr *E,
                           const std::pair<RefKey, RefEntry> &Ref) {
  if (Ref.second.K == RefEntry::Kind::BorrowedPut && E) {
    // The pointer the function was given, as the use names it.
    RefEntry Named = Ref.second;
    Named.ArgExpr = E;
    return describeRef(Ref.first, Named);
  }
  std::string Name = describeRef(Ref.first, Ref.second);
  const auto *DRE =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // One name in caller and inlined callee (`it` in both) needs no gloss.
  if (!VD || !Ref.second.Var || VD == Ref.second.Var ||
      VD->getName() == Ref.second.Var->getName())
    return Name;
  return "'" + VD->getName().str() + "' (the same object as " + Name +
         " on this path)";
}

/// The pointer a field access or dereference goes through (`p` of `p->x`).
static const Expr *accessBase(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return ME->getBase();
      E = ME->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref)
        return nullptr;
      return UO->getSubExpr();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

void UseAfterPutChecker::report(CheckerContext &C,
                                const std::pair<RefKey, RefEntry> &Ref,
                                const std::string &What,
                                SourceRange Range) const {
  bool Given = Ref.second.K == RefEntry::Kind::BorrowedPut;
  if (Given && !applyRule(RuleId::GivenReferenceSinglePut))
    return;
  ExplodedNode *N = C.generateNonFatalErrorNode();
  if (!N)
    return;
  std::string Put =
      Ref.second.Releaser ? Ref.second.Releaser->Name.str() + "()" : "a put";
  std::string Msg = What + " after " + Put +
                    (Given ? " dropped the reference this function was given"
                           : " released the last reference this path held") +
                    "; the object may already be freed";
  auto R = std::make_unique<PathSensitiveBugReport>(Bug, Msg, N);
  dropOnAssertionPaths(*R);
  if (Range.isValid())
    R->addRange(Range);
  markRefInteresting(*R, Ref.first);
  emitReport(C, std::move(R));
  // One report per reference and path: the checker's own fact, the model's
  // state is the model's.
  C.addTransition(N->getState()->add<ReportedUses>(Ref.first.Region), N);
}

/// The code's spelling of the pointer a use goes through ('objs[i]' of
/// `objs[i]->val`), or "the object" when it comes out of a macro.
static std::string pointerName(const Expr *E, CheckerContext &C) {
  if (!E)
    return "the object";
  E = E->IgnoreParenImpCasts();
  CharSourceRange Range = CharSourceRange::getTokenRange(E->getSourceRange());
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return "the object";
  StringRef Text =
      Lexer::getSourceText(Range, C.getSourceManager(), C.getLangOpts());
  if (Text.empty() || Text.size() > 40 || Text.contains('\n'))
    return "the object";
  return "'" + Text.str() + "'";
}

bool UseAfterPutChecker::reportUseAfterRelease(
    CheckerContext &C, const MemRegion *R,
    llvm::function_ref<std::string()> What, SourceRange Range) const {
  ProgramStateRef State = C.getState();
  const ReleaseRan *Freed = releaseRanFor(State, R);
  // Only in the function that tested the result: a caller that goes on
  // using the object may hold another count.
  if (!Freed || Freed->Frame != C.getStackFrame())
    return false;
  const MemRegion *Base = R->getBaseRegion();
  for (const MemRegion *Done : State->get<ReportedUses>())
    if (Done->getBaseRegion() == Base)
      return true;
  if (!applyRule(RuleId::ReleaseRan))
    return false;
  ExplodedNode *N = C.generateNonFatalErrorNode();
  if (!N)
    return true;
  const IdentifierInfo *Put =
      Freed->Put->getDirectCallee()
          ? Freed->Put->getDirectCallee()->getIdentifier()
          : nullptr;
  std::string Callback = Freed->Release ? Freed->Release->getName().str() + "()"
                                        : std::string("its release callback");
  std::string Msg = What() + " after " +
                    (Put ? Put->getName().str() + "()" : std::string("a put")) +
                    " returned true: " + Callback + " ran and freed the object";
  auto Rep = std::make_unique<PathSensitiveBugReport>(ReleaseBug, Msg, N);
  dropOnAssertionPaths(*Rep);
  if (Range.isValid())
    Rep->addRange(Range);
  Rep->markInteresting(Freed->Counter);
  emitReport(C, std::move(Rep));
  C.addTransition(N->getState()->add<ReportedUses>(Base), N);
  return true;
}

void UseAfterPutChecker::checkLocation(SVal Loc, bool IsLoad, const Stmt *S,
                                       CheckerContext &C) const {
  const MemRegion *R = Loc.getAsRegion();
  if (!R)
    return;
  auto Ref = releasedRef(C.getState(), R, C.getStackFrame());
  if (!Ref) {
    // The message is spelled only when there is a report: this runs on
    // every load and store.
    reportUseAfterRelease(
        C, R,
        [&] {
          return std::string(IsLoad ? "Read through " : "Write through ") +
                 pointerName(accessBase(S), C);
        },
        S ? S->getSourceRange() : SourceRange());
    return;
  }
  std::string Name = useName(accessBase(S), *Ref);
  report(C, *Ref,
         std::string(IsLoad ? "Read through " : "Write through ") + Name,
         S ? S->getSourceRange() : SourceRange());
}

void UseAfterPutChecker::checkPreCall(const CallEvent &Call,
                                      CheckerContext &C) const {
  const CallContract &K = contractFor(Call);
  if (const LifetimeAPI *API = K.API)
    if (changesCount(*API) &&
        (API->Op != LifeOp::Acquire || API->RefArg == RetVal))
      return; // Puts are refcount.Underflow's business.
  // A call that reads only the pointer's value, or gives the object up
  // (kfree(p) after the put is the put's own business), is no use.
  if (K.valueOnly() || K.NameGivesUp)
    return;
  const IdentifierInfo *II = Call.getCalleeIdentifier();
  StringRef Name = II ? II->getName() : "";
  for (unsigned I = 0, N = Call.getNumArgs(); I < N; ++I) {
    const MemRegion *ArgR = refRegion(Call.getArgSVal(I));
    auto Ref = releasedRef(C.getState(), ArgR, C.getStackFrame());
    if (!Ref) {
      // A get or put on the freed count is refcount.GetOnZero's and
      // refcount.Underflow's to report; a pointer handed to a variadic
      // parameter is printed (printk's %p), not followed.
      if (!releaseRanFor(C.getState(), ArgR))
        continue;
      const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getDecl());
      bool Printed = FD && FD->isVariadic() && I >= FD->getNumParams();
      if (!Printed && !decodeCountCall(Call) &&
          reportUseAfterRelease(
              C, ArgR,
              [&] {
                return pointerName(Call.getArgExpr(I), C) + " is passed to " +
                       (II ? Name.str() + "()" : std::string("a function"));
              },
              Call.getArgSourceRange(I)))
        return;
      continue;
    }
    // A get after the put of the caller's reference gives it back (rule
    // power-cycle); refcount.GetOnZero reports one on a count that hit zero.
    if (Ref->second.K == RefEntry::Kind::BorrowedPut && K.API &&
        K.API->Op == LifeOp::Acquire)
      continue;
    std::string What = useName(Call.getArgExpr(I), *Ref) + " is passed to " +
                       (II ? Name.str() + "()" : std::string("a function"));
    report(C, *Ref, What, Call.getArgSourceRange(I));
    return;
  }
}

void registerUseAfterPut(CheckerManager &Mgr) {
  Mgr.registerChecker<UseAfterPutChecker>();
}
