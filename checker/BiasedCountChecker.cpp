//===- BiasedCountChecker.cpp - refcount.BiasedCount ----------------------===//
//
// A bias is a large value added to or subtracted from a reference count to
// store one bit of state in it ("this object is being deactivated"). The
// count then means two things at once: readers must know the bias to tell a
// live count from a dying one, every test against zero silently becomes a
// test against the bias, and a get or put that misses the bias corrupts both.
// One flag bit elsewhere in the object stores the same state plainly. This is
// the biased-reference anti-pattern.
//
// Reported, once per site, on a counter that is a reference count (struct
// kref, refcount_t, or an atomic_t/atomic_long_t the TU gets or puts as a
// lifetime count: test-for-zero get, decrement-and-test/-lock, dec_return):
//   - a counting API call that adds, subtracts or sets a bias
//     (atomic_add(BIAS, &c), atomic_set(&c, BIAS), refcount_set(..)),
//   - a plain assignment of a bias to the count (`c.counter = BIAS`),
//   - a comparison of the count (atomic_read(), *_return(), a local holding
//     one) with a bias.
// A bias is a constant of magnitude >= Threshold (default 2^16) after macro
// expansion and constant folding (INT_MIN and INT_MAX are such), or any
// macro, enumerator, variable or field whose name contains "bias".
// Not reported: small deltas, constants on counters that are not reference
// counts, overflow guards (`refcount_read(&r) > INT_MAX / 2`: an ordering
// against a large constant that is not named a bias), and biases named in
// the AllowList option (or counters whose field is named there).
//
//===----------------------------------------------------------------------===//

#include "CounterKey.h"
#include "CounterUses.h"
#include "InternalRefs.h"
#include "ModelFile.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugType.h"
#include "clang/StaticAnalyzer/Core/Checker.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/AnalysisManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {

class BiasedCountChecker : public Checker<check::ASTDecl<TranslationUnitDecl>> {
public:
  const BugType Bug{this, "Biased reference count", RefcountCategory};
  llvm::StringSet<> AllowList;
  uint64_t Threshold = 65536;

  void checkASTDecl(const TranslationUnitDecl *TU, AnalysisManager &Mgr,
                    BugReporter &BR) const;
};

enum class BiasUse { Set, Offset, Compare };

struct BiasInfo {
  std::string Name;  ///< The bias as written (macro/enumerator name or text).
  std::string Value; ///< Its folded value, when constant.
  bool Allowed = false;
  bool Named = false; ///< Found by a name containing "bias".
};

std::string intText(const llvm::APSInt &V) {
  SmallString<24> S;
  V.toString(S, 10);
  return std::string(S);
}

bool containsBias(StringRef Name) { return Name.contains_insensitive("bias"); }

class BiasVisitor : public RecursiveASTVisitor<BiasVisitor> {
public:
  BiasVisitor(const BiasedCountChecker &Chk, AnalysisManager &Mgr,
              BugReporter &BR)
      : Chk(Chk), BR(BR), Ctx(Mgr.getASTContext()), SM(Ctx.getSourceManager()),
        LO(Ctx.getLangOpts()), DB(CounterUseDB::get(Ctx)) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || isCountingImplementation(FD, SM))
      return true;
    Current = FD;
    LocalReads.clear();
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = nullptr;
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!Current)
      return true;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !familyOfCallee(Callee->getName()))
      return true;
    std::optional<unsigned> CtrArg = counterArgIndex(CE);
    if (!CtrArg)
      return true;
    const FieldDecl *FD = counterFieldFromExpr(CE->getArg(*CtrArg));
    if (!isCheckedCounter(FD))
      return true;
    StringRef Name = Callee->getName();
    for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
      if (I == *CtrArg)
        continue;
      const Expr *A = CE->getArg(I);
      if (!A->getType()->isIntegerType())
        continue;
      std::optional<BiasInfo> B = findBias(A);
      if (!B)
        continue;
      if (!B->Allowed) {
        BiasUse Use =
            Name.contains("set") ? BiasUse::Set
            : (Name.contains("cmpxchg") || (Name.contains("unless") && I == 2))
                ? BiasUse::Compare
                : BiasUse::Offset;
        report(CE->getExprLoc(), CE->getSourceRange(), CE->getArg(*CtrArg), FD,
               *B, Use);
      }
      break;
    }
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (Current && VD->hasLocalStorage() && VD->getInit())
      if (const FieldDecl *FD = counterValueField(VD->getInit()))
        LocalReads[VD] = FD;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!Current)
      return true;
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (BO->isAssignmentOp()) {
      const Expr *LHS = L->IgnoreParenImpCasts();
      // `v = atomic_dec_return(&x->cnt)`: v now holds the count.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->hasLocalStorage()) {
            if (const FieldDecl *FD = counterValueField(R))
              LocalReads[VD] = FD;
            else if (BO->getOpcode() == BO_Assign)
              LocalReads.erase(VD);
          }
        return true;
      }
      // `x->cnt.counter = BIAS` / `x->cnt.counter += BIAS`.
      if (isa<MemberExpr>(LHS) && LHS->getType()->isIntegerType()) {
        const FieldDecl *FD = counterFieldFromExpr(LHS);
        if (!isCheckedCounter(FD))
          return true;
        if (std::optional<BiasInfo> B = findBias(R))
          if (!B->Allowed)
            report(BO->getOperatorLoc(), BO->getSourceRange(), LHS, FD, *B,
                   BO->getOpcode() == BO_Assign ? BiasUse::Set
                                                : BiasUse::Offset);
      }
      return true;
    }
    if (!BO->isComparisonOp())
      return true;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *Ctr = Side == 0 ? L : R;
      const Expr *Other = Side == 0 ? R : L;
      const Expr *CtrExpr = nullptr;
      const FieldDecl *FD = counterValueField(Ctr, &CtrExpr);
      if (!isCheckedCounter(FD))
        continue;
      // `atomic_add_return(BIAS, &c) != BIAS`: the call is the site.
      if (const auto *CE = dyn_cast<CallExpr>(Ctr->IgnoreParenCasts()))
        if (callHasBias(CE))
          return true;
      // The bias as written, before the comparison's conversions.
      if (std::optional<BiasInfo> B = findBias(Other->IgnoreImpCasts())) {
        // `refcount_read(&r) > INT_MAX / 2` is an overflow guard (what
        // refcount_t saturation does), not a bias test: an ordering against
        // a large constant counts only when the constant is named a bias.
        if (BO->isRelationalOp() && !B->Named)
          return true;
        if (!B->Allowed)
          report(BO->getOperatorLoc(), BO->getSourceRange(), CtrExpr, FD, *B,
                 BiasUse::Compare);
        return true;
      }
    }
    return true;
  }

private:
  /// Does a counting call pass a bias (allowed or not) besides the counter?
  bool callHasBias(const CallExpr *CE) const {
    std::optional<unsigned> CtrArg = counterArgIndex(CE);
    for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I)
      if (I != CtrArg && CE->getArg(I)->getType()->isIntegerType() &&
          findBias(CE->getArg(I)))
        return true;
    return false;
  }

  bool isCheckedCounter(const FieldDecl *FD) const {
    return FD && DB.isRefcount(FD) && !Chk.AllowList.contains(FD->getName());
  }

  /// The counter whose value E is: a counting API call returning the count
  /// (atomic_read, *_return, atomic_fetch_*, kref_read), a local that holds
  /// one, or the `counter` member of the counter itself.
  const FieldDecl *counterValueField(const Expr *E,
                                     const Expr **CtrExpr = nullptr) const {
    E = E->IgnoreParenCasts();
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() ||
          !familyOfCallee(Callee->getName()) ||
          Callee->getReturnType()->isVoidType() ||
          !Callee->getReturnType()->isIntegerType())
        return nullptr;
      StringRef N = Callee->getName();
      // A boolean result (dec_and_test, inc_not_zero) is no count value.
      if (!(N.contains("read") || N.contains("return") || N.contains("fetch") ||
            N.contains("cmpxchg") || N.contains("xchg")))
        return nullptr;
      std::optional<unsigned> A = counterArgIndex(CE);
      if (!A)
        return nullptr;
      if (CtrExpr)
        *CtrExpr = CE->getArg(*A);
      return counterFieldFromExpr(CE->getArg(*A));
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      auto It = LocalReads.find(DRE->getDecl());
      if (It == LocalReads.end())
        return nullptr;
      if (CtrExpr)
        *CtrExpr = nullptr;
      return It->second;
    }
    if (isa<MemberExpr>(E) && E->getType()->isIntegerType()) {
      if (CtrExpr)
        *CtrExpr = E;
      return counterFieldFromExpr(E);
    }
    return nullptr;
  }

  static bool bigEnough(const llvm::APSInt &V, uint64_t Threshold) {
    llvm::APSInt W = V.extend(128);
    W.setIsSigned(true);
    if (V.isSigned() && V.isNegative())
      W = -W;
    return W.uge(Threshold);
  }

  void collectNames(const Stmt *S, SmallVectorImpl<StringRef> &Names) const {
    if (!S)
      return;
    for (StringRef M : macroChain(S->getBeginLoc(), SM, LO))
      Names.push_back(M);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const IdentifierInfo *II = DRE->getDecl()->getIdentifier())
        Names.push_back(II->getName());
    } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (const IdentifierInfo *II = ME->getMemberDecl()->getIdentifier())
        Names.push_back(II->getName());
    }
    for (const Stmt *Child : S->children())
      collectNames(Child, Names);
  }

  /// A constant (sub)expression of E that is at least the threshold.
  const Expr *bigConstant(const Expr *E, llvm::APSInt &Out) const {
    if (!E || E->isValueDependent())
      return nullptr;
    Expr::EvalResult R;
    if (E->getType()->isIntegerType() && E->EvaluateAsInt(R, Ctx)) {
      Out = R.Val.getInt();
      return bigEnough(Out, Chk.Threshold) ? E : nullptr;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(E)) // sizeof
      return nullptr;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *Found = bigConstant(CE, Out))
          return Found;
    return nullptr;
  }

  std::string sourceText(const Expr *E) const {
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
    if (Range.isInvalid())
      return "";
    StringRef Text = Lexer::getSourceText(Range, SM, LO).trim();
    if (Text.empty() || Text.size() > 48 || Text.contains('\n'))
      return "";
    return Text.str();
  }

  std::optional<BiasInfo> findBias(const Expr *E) const {
    SmallVector<StringRef, 16> Names;
    collectNames(E, Names);
    BiasInfo B;
    for (StringRef N : Names) {
      if (Chk.AllowList.contains(N)) {
        B.Allowed = true;
        B.Name = N.str();
        return B;
      }
    }
    for (StringRef N : Names)
      if (containsBias(N)) {
        B.Name = N.str();
        B.Named = true;
        break;
      }
    llvm::APSInt V;
    const Expr *Big = bigConstant(E, V);
    if (B.Name.empty() && !Big)
      return std::nullopt;
    if (Big) {
      // Print the value as the counter sees it: the argument's type.
      B.Value = intText(V);
      if (B.Name.empty())
        B.Name = sourceText(Big);
    } else {
      Expr::EvalResult R;
      if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
        B.Value = intText(R.Val.getInt());
    }
    if (B.Name == B.Value)
      B.Value.clear();
    return B;
  }

  void report(SourceLocation Loc, SourceRange Range, const Expr *CtrExpr,
              const FieldDecl *FD, const BiasInfo &B, BiasUse Use) {
    SourceLocation FileLoc = SM.getFileLoc(Loc);
    if (!Reported.insert(FileLoc.getRawEncoding()).second)
      return;
    std::string Ctr = CtrExpr ? describeCounterArg(CtrExpr, nullptr, SM, LO)
                              : describeCounterField(FD);
    if (Ctr.empty() || Ctr == "the counter")
      Ctr = describeCounterField(FD);
    std::string What = B.Name.empty()    ? B.Value
                       : B.Value.empty() ? B.Name
                                         : B.Name + " = " + B.Value;
    const char *Verb = Use == BiasUse::Set      ? "is set to"
                       : Use == BiasUse::Offset ? "is offset by"
                                                : "is compared with";
    std::string Msg = "Reference count '" + Ctr + "' " + Verb + " a bias (" +
                      What +
                      "): a bias stores one bit of state in the count; keep "
                      "that state in a flag bit instead";
    auto R = std::make_unique<BasicBugReport>(
        Chk.Bug, Msg, PathDiagnosticLocation(FileLoc, SM));
    R->setDeclWithIssue(Current);
    R->addRange(Range);
    if (!isLifetimeCounterType(FD->getType())) {
      auto It = DB.LifetimeUse.find(FD);
      if (It != DB.LifetimeUse.end())
        R->addNote("'" + describeCounterField(FD) +
                       "' is used as a reference count here",
                   PathDiagnosticLocation(SM.getFileLoc(It->second), SM));
    }
    emitReport(BR, std::move(R));
  }

  const BiasedCountChecker &Chk;
  BugReporter &BR;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const CounterUseDB &DB;
  const FunctionDecl *Current = nullptr;
  llvm::DenseMap<const Decl *, const FieldDecl *> LocalReads;
  llvm::DenseSet<unsigned> Reported;
};
} // namespace

void BiasedCountChecker::checkASTDecl(const TranslationUnitDecl *TU,
                                      AnalysisManager &Mgr,
                                      BugReporter &BR) const {
  BiasVisitor V(*this, Mgr, BR);
  V.TraverseDecl(const_cast<TranslationUnitDecl *>(TU));
}

void registerBiasedCount(CheckerManager &Mgr) {
  auto *Chk = Mgr.registerChecker<BiasedCountChecker>();
  const AnalyzerOptions &Opts = Mgr.getAnalyzerOptions();
  StringRef List =
      Opts.getCheckerStringOption("refcount.BiasedCount", "AllowList");
  // -analyzer-config splits its argument at commas: on a command line the
  // items are separated by ';' (or spaces); ',' works in the default.
  // Set, the option replaces the model's list (built-in and model file).
  SmallVector<StringRef, 8> Items;
  SplitString(List, Items, ",; \t");
  for (StringRef I : Items)
    if (!I.trim().empty())
      Chk->AllowList.insert(I.trim());
  if (Chk->AllowList.empty())
    for (const auto &E : activeModel().BiasAllowList)
      Chk->AllowList.insert(E.getKey());
  int T = Opts.getCheckerIntegerOption("refcount.BiasedCount", "Threshold");
  if (T > 0)
    Chk->Threshold = static_cast<uint64_t>(T);
}
