//===- CounterUses.cpp - Every counting-API call on a counter field -------===//

#include "CounterUses.h"
#include "CounterKey.h"
#include "ModelFile.h"
#include "TUCache.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace krefcheck;

std::optional<CounterFamily> krefcheck::familyOfCallee(StringRef Name) {
  if (Name.starts_with("kref_"))
    return CounterFamily::Kref;
  if (Name.starts_with("refcount_"))
    return CounterFamily::Refcount;
  if (Name.starts_with("atomic_") || Name.starts_with("atomic64_") ||
      Name.starts_with("_atomic_"))
    return CounterFamily::Atomic;
  return std::nullopt;
}

bool krefcheck::isLifetimeOpName(StringRef Name) {
  if (const CountAPI *API = lookupCountAPI(Name))
    if (API->Op == CountOp::TryGet || isFinalPut(API->Op))
      return true;
  return activeModel().Calls.LifetimeOps.contains(Name);
}

static bool hasCounterParam(const FunctionDecl *FD) {
  return llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isPointerType() && isCounterType(T->getPointeeType());
  });
}

static StringRef definingFile(const FunctionDecl *FD, const SourceManager &SM) {
  SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
  if (Loc.isInvalid())
    return "";
  return llvm::sys::path::filename(SM.getFilename(Loc));
}

bool krefcheck::isCountingImplementation(const FunctionDecl *FD,
                                         const SourceManager &SM) {
  if (!FD)
    return false;
  if (const IdentifierInfo *II = FD->getIdentifier()) {
    StringRef N = II->getName();
    // atomic_open() is no atomic op: the name counts only with a counter
    // parameter.
    if (hasCounterParam(FD) &&
        (lookupCountAPI(N) || familyOfCallee(N) ||
         activeModel().Calls.CountingImplementations.contains(N)))
      return true;
  }
  StringRef File = definingFile(FD, SM);
  return File == "kref.h" || File == "kref.c" || File == "refcount.h" ||
         File == "refcount.c" ||
         (File.starts_with("atomic") && File.ends_with(".h"));
}

bool krefcheck::isCounterTypeImplementation(const FunctionDecl *FD,
                                            const SourceManager &SM) {
  if (!FD)
    return false;
  if (const IdentifierInfo *II = FD->getIdentifier()) {
    if (activeModel().Calls.CounterTypeImplementations.contains(II->getName()))
      return true;
  }
  StringRef File = definingFile(FD, SM);
  return File == "page_ref.h" || File.contains("percpu-refcount");
}

std::string krefcheck::describeCounterField(const FieldDecl *FD) {
  if (!FD)
    return "the counter";
  const RecordDecl *RD = FD->getParent();
  while (RD && RD->getName().empty() &&
         isa_and_nonnull<RecordDecl>(RD->getDeclContext()))
    RD = cast<RecordDecl>(RD->getDeclContext());
  if (!RD || RD->getName().empty())
    return describeField(FD);
  return (RD->isUnion() ? "union " : "struct ") + RD->getName().str() +
         "::" + FD->getName().str();
}

std::string krefcheck::describeUseCounter(const CounterUse &U,
                                          const SourceManager &SM,
                                          const LangOptions &LO) {
  std::string S =
      describeCounterArg(U.Call->getArg(U.CounterArg), nullptr, SM, LO);
  if (S.empty() || S == "the counter")
    return describeCounterField(U.Field);
  return S;
}

std::string krefcheck::spelledCallee(const CounterUse &U,
                                     const SourceManager &SM,
                                     const LangOptions &LO) {
  SourceLocation Loc = U.Call->getBeginLoc();
  for (unsigned I = 0; Loc.isMacroID() && I < 16; ++I) {
    StringRef N = Lexer::getImmediateMacroName(Loc, SM, LO);
    if (N == U.Callee.ltrim('_'))
      return N.str();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return U.Callee.str();
}

bool krefcheck::sameCounterExpr(const Expr *A, const Expr *B) {
  while (true) {
    A = A->IgnoreParenCasts();
    B = B->IgnoreParenCasts();
    if (const auto *UA = dyn_cast<UnaryOperator>(A)) {
      const auto *UB = dyn_cast<UnaryOperator>(B);
      if (!UB || UA->getOpcode() != UB->getOpcode())
        return false;
      A = UA->getSubExpr();
      B = UB->getSubExpr();
      continue;
    }
    if (const auto *MA = dyn_cast<MemberExpr>(A)) {
      const auto *MB = dyn_cast<MemberExpr>(B);
      if (!MB || MA->getMemberDecl() != MB->getMemberDecl() ||
          MA->isArrow() != MB->isArrow())
        return false;
      A = MA->getBase();
      B = MB->getBase();
      continue;
    }
    if (const auto *DA = dyn_cast<DeclRefExpr>(A)) {
      const auto *DB = dyn_cast<DeclRefExpr>(B);
      return DB && DA->getDecl() == DB->getDecl();
    }
    return false;
  }
}

std::optional<unsigned> krefcheck::counterArgIndex(const CallExpr *CE) {
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    QualType T = CE->getArg(I)->IgnoreParenImpCasts()->getType();
    if (T->isPointerType() && isCounterType(T->getPointeeType()))
      return I;
  }
  return std::nullopt;
}

namespace {
/// See CounterUse::Host.
const FieldDecl *hostOf(const Expr *E, const FieldDecl *Field) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->getMemberDecl() == Field) {
      if (ME->isArrow())
        return nullptr;
      if (const auto *Base =
              dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return dyn_cast<FieldDecl>(Base->getMemberDecl());
      return nullptr;
    }
    E = ME->getBase()->IgnoreParenCasts();
  }
  return nullptr;
}

bool isKrefType(QualType T) {
  if (const RecordDecl *RD = T->getAsRecordDecl())
    return RD->getName() == "kref";
  return false;
}

class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  UseCollector(CounterUseDB &DB, const SourceManager &SM) : DB(DB), SM(SM) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || isCountingImplementation(FD, SM))
      return true;
    const FunctionDecl *Saved = Current;
    bool SavedImpl = InTypeImpl;
    Current = FD;
    InTypeImpl = isCounterTypeImplementation(FD, SM);
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    InTypeImpl = SavedImpl;
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!Current)
      return true;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return true;
    StringRef Name = Callee->getName();
    std::optional<CounterFamily> Fam = familyOfCallee(Name);
    if (!Fam)
      return true;
    std::optional<unsigned> Arg = counterArgIndex(CE);
    if (!Arg)
      return true;
    const Expr *ArgE = CE->getArg(*Arg);
    const FieldDecl *Field = counterFieldFromExpr(ArgE);
    if (!Field)
      return true;
    CounterUse U;
    U.Call = CE;
    U.InFunction = Current;
    U.Field = Field;
    U.Callee = Name;
    U.Family = *Fam;
    U.API = lookupCountAPI(Name);
    U.CounterArg = *Arg;
    QualType Pointee = ArgE->IgnoreParenImpCasts()->getType()->getPointeeType();
    U.KrefInsides = isKrefType(Field->getType()) && !isKrefType(Pointee);
    U.Host = hostOf(ArgE, Field);
    U.InTypeImpl = InTypeImpl;
    DB.Uses.push_back(U);
    if (isLifetimeOpName(Name))
      DB.LifetimeUse.try_emplace(Field, CE->getBeginLoc());
    if (*Fam == CounterFamily::Kref)
      DB.KrefAPIUse.try_emplace(Field, CE->getBeginLoc());
    return true;
  }

private:
  CounterUseDB &DB;
  const SourceManager &SM;
  const FunctionDecl *Current = nullptr;
  bool InTypeImpl = false;
};
} // namespace

bool CounterUseDB::isRefcount(const FieldDecl *FD) const {
  if (!FD)
    return false;
  if (isLifetimeCounterType(FD->getType()))
    return true;
  if (const CounterConfig *C = activeModel().counterConfig(FD))
    if (C->Refcount || C->Style)
      return true;
  return LifetimeUse.count(FD) != 0;
}

bool CounterUseDB::isPlainStyle(const FieldDecl *FD) const {
  if (!FD || LifetimeUse.count(FD) || KrefAPIUse.count(FD))
    return false;
  auto Is = [FD](const CounterUse &U, std::initializer_list<CountOp> Ops) {
    return U.Field == FD && U.API && llvm::is_contained(Ops, U.API->Op);
  };
  for (const CounterUse &Put : Uses) {
    if (!Is(Put, {CountOp::Put}))
      continue;
    // `refcount_inc(&m->count); if (err) refcount_dec(&m->count);` undoes
    // its own get: the counter's final put may be in another file.
    bool Undo = llvm::any_of(Uses, [&](const CounterUse &Get) {
      return Get.InFunction == Put.InFunction &&
             Is(Get, {CountOp::Get, CountOp::TryGet});
    });
    if (!Undo)
      return true;
  }
  return false;
}

void CounterUseDB::resetCache() { TUCache<CounterUseDB>::reset(); }

const CounterUseDB &CounterUseDB::get(ASTContext &Ctx) {
  return TUCache<CounterUseDB>::get(Ctx, [&Ctx](CounterUseDB &DB) {
    UseCollector Collector(DB, Ctx.getSourceManager());
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  });
}
