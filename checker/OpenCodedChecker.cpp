//===- OpenCodedChecker.cpp - refcount.OpenCoded (opt-in) -----------------===//
//
// An atomic_t (or atomic_long_t, atomic64_t) whose decrement-and-test or
// decrement-and-lock guards the release of the object is an open-coded
// reference count. The kernel has types for that: refcount_t saturates
// instead of wrapping and warns on increment-from-zero and underflow, and
// struct kref adds a release callback and tells the reader at once which
// idiom is in use ("ah, it uses kref"). Reported at the decrement-and-test
// whose taken branch frees or releases the object (kfree, kmem_cache_free,
// call_rcu, anything named *free*, *release*, *destroy*, directly or one call
// deep), with a note at the release. The suggestion is about the field's
// type, so it is made once per counter field (at its first such put).
// Not reported: statistics counters (no decrement-and-test guarding a
// release), and the insides of refcount_t/kref (refcount.MixedStyle's job).
//
// Opt-in: the checker is named refcount.OpenCoded but is left out when the
// whole `refcount` package is enabled; it runs only when named explicitly
// (-analyzer-checker=refcount.OpenCoded) or with
// -analyzer-config refcount.OpenCoded:Enable=true. Converting a counter's
// type is a clean-up, not a bug fix, so it stays out of the default set.
//
//===----------------------------------------------------------------------===//

#include "CounterKey.h"
#include "CounterUses.h"
#include "PutStyle.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/AnalysisManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {

class OpenCodedChecker : public Checker<check::ASTDecl<TranslationUnitDecl>> {
public:
  const BugType Bug{this, "Open-coded reference count", RefcountCategory};

  void checkASTDecl(const TranslationUnitDecl *TU, AnalysisManager &Mgr,
                    BugReporter &BR) const;
};

bool isReleaseName(StringRef N) {
  return N.contains_insensitive("free") || N.contains_insensitive("release") ||
         N.contains_insensitive("destroy") || N == "call_rcu" ||
         N == "call_srcu";
}

StringRef calleeName(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName();
  // obj->ops->release(obj)
  if (const auto *ME =
          dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    if (ME->getMemberDecl()->getIdentifier())
      return ME->getMemberDecl()->getName();
  return "";
}

/// Finds a call that releases an object in S (or one call deep).
class ReleaseFinder : public RecursiveASTVisitor<ReleaseFinder> {
public:
  explicit ReleaseFinder(unsigned Depth) : Depth(Depth) {}
  const CallExpr *Found = nullptr;
  bool VisitCallExpr(CallExpr *CE) {
    if (Found)
      return false;
    StringRef N = calleeName(CE);
    if (!N.empty() && isReleaseName(N)) {
      Found = CE;
      return false;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    if (Depth > 0 && FD && FD->getIdentifier() &&
        !familyOfCallee(FD->getName()))
      if (const FunctionDecl *Def = FD->getDefinition()) {
        ReleaseFinder Inner(Depth - 1);
        Inner.TraverseStmt(Def->getBody());
        if (Inner.Found)
          Found = CE;
      }
    return Found == nullptr;
  }

private:
  unsigned Depth;
};

/// The statements after S in its enclosing block (as one range to search),
/// or null.
const Stmt *followingStatements(const IfStmt *S, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  const auto *Block = Parents[0].get<CompoundStmt>();
  if (!Block)
    return nullptr;
  const Stmt *Then = S->getThen();
  // Only when the if leaves the block on the non-zero side.
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Then))
    Then = C->body_empty() ? nullptr : C->body_back();
  if (!Then || !isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(Then))
    return nullptr;
  auto It = llvm::find(Block->body(), S);
  if (It == Block->body_end() || std::next(It) == Block->body_end())
    return nullptr;
  SmallVector<Stmt *, 8> Rest(std::next(It), Block->body_end());
  return CompoundStmt::Create(Ctx, Rest, FPOptionsOverride(), SourceLocation(),
                              SourceLocation());
}

/// The statement that runs when the put at CE hits zero: the then-branch of
/// the `if` whose condition holds CE (or the else-branch for `if (!...)`).
const Stmt *guardedBranch(const CallExpr *CE, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*CE);
  bool Negated = false;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    const DynTypedNode &P = Parents[0];
    if (const auto *If = P.get<IfStmt>()) {
      const Stmt *Cond = If->getCond();
      const Stmt *From = Node.get<Stmt>();
      if (!Cond || !From)
        return nullptr;
      if (From != Cond &&
          !Cond->getSourceRange().fullyContains(From->getSourceRange()))
        return nullptr;
      if (!Negated)
        return If->getThen();
      if (If->getElse())
        return If->getElse();
      // `if (!atomic_dec_and_test(&o->cnt)) return; release(o);`: what
      // follows the if in its block runs at zero.
      return followingStatements(If, Ctx);
    }
    if (const auto *UO = P.get<UnaryOperator>()) {
      if (UO->getOpcode() == UO_LNot)
        Negated = !Negated;
    } else if (const auto *BO = P.get<BinaryOperator>()) {
      if (!BO->isLogicalOp())
        return nullptr;
    } else if (!P.get<ImplicitCastExpr>() && !P.get<ParenExpr>() &&
               !P.get<CallExpr>() /* likely()/unlikely() */) {
      return nullptr;
    }
    Node = P;
  }
  return nullptr;
}
} // namespace

void OpenCodedChecker::checkASTDecl(const TranslationUnitDecl *TU,
                                    AnalysisManager &Mgr,
                                    BugReporter &BR) const {
  ASTContext &Ctx = Mgr.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const CounterUseDB &DB = CounterUseDB::get(Ctx);
  llvm::DenseSet<const FieldDecl *> Reported;
  for (const CounterUse &U : DB.Uses) {
    if (U.InTypeImpl)
      continue;
    if (U.Family != CounterFamily::Atomic || U.KrefInsides ||
        isLifetimeCounterType(U.Field->getType()))
      continue;
    if (!U.API || !isFinalPut(U.API->Op))
      continue;
    const Stmt *Branch = guardedBranch(U.Call, Ctx);
    if (!Branch)
      continue;
    ReleaseFinder F(1);
    F.TraverseStmt(const_cast<Stmt *>(Branch));
    if (!F.Found)
      continue;
    // The same evidence GetOnZero requires: a final put of this field frees
    // its owner (`kfree(c)`, `c->ops->release(c)`), not just anything named
    // *release* (io-wq's nr_running, block's bd_openers are usage counts).
    const PutStyleInfo *Style = PutStyleDB::get(Ctx).lookup(U.Field);
    if (!Style || Style->FreeOnZero.isInvalid())
      continue;
    // The suggestion is about the field's type: once per counter.
    if (!Reported.insert(U.Field).second)
      continue;
    SourceLocation FileLoc = SM.getFileLoc(U.Call->getExprLoc());
    std::string Ctr = describeUseCounter(U, SM, LO);
    std::string Msg =
        "'" + describeCounterField(U.Field) +
        "' is an open-coded reference count: " + spelledCallee(U, SM, LO) +
        "() on it guards the release of the object; make it a refcount_t "
        "(saturates and warns on underflow) or a struct kref";
    auto R = std::make_unique<BasicBugReport>(
        Bug, Msg, PathDiagnosticLocation(FileLoc, SM));
    R->setDeclWithIssue(U.InFunction);
    R->addRange(U.Call->getSourceRange());
    R->addNote(
        "'" + Ctr + "' hits zero and the object is released here",
        PathDiagnosticLocation(SM.getFileLoc(F.Found->getBeginLoc()), SM));
    emitReport(BR, std::move(R));
  }
}

void registerOpenCoded(CheckerManager &Mgr) {
  Mgr.registerChecker<OpenCodedChecker>();
}

/// Registered only when named on its own or enabled by its option: enabling
/// the `refcount` package leaves it out.
bool shouldRegisterOpenCoded(const CheckerManager &Mgr) {
  const AnalyzerOptions &Opts = Mgr.getAnalyzerOptions();
  std::optional<bool> Explicit;
  for (const auto &[Name, Enabled] : Opts.CheckersAndPackages)
    if (Name == "refcount.OpenCoded")
      Explicit = Enabled;
  if (Explicit)
    return *Explicit;
  auto It = Opts.Config.find("refcount.OpenCoded:Enable");
  return It != Opts.Config.end() && It->second == "true";
}
