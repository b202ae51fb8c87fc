//===- CounterKey.cpp - Which memory is a reference counter --------------===//

#include "CounterKey.h"
#include "ModelFile.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace ento;

namespace {
/// Name of the first typedef in T's sugar chain that is a counter typedef,
/// or of its record. atomic_t is an anonymous struct behind a typedef, so the
/// typedef name is what identifies it.
bool typeHasName(QualType T, llvm::function_ref<bool(StringRef)> Names) {
  while (true) {
    if (const auto *TT = T->getAs<TypedefType>()) {
      if (Names(TT->getDecl()->getName()))
        return true;
      QualType Next = TT->getDecl()->getUnderlyingType();
      if (Next == T)
        break;
      T = Next;
      continue;
    }
    break;
  }
  if (const RecordDecl *RD = T->getAsRecordDecl()) {
    if (Names(RD->getName()))
      return true;
  }
  return false;
}
} // namespace

bool krefcheck::isLifetimeCounterType(QualType T) {
  const krefcheck::TypeNames &Types = krefcheck::activeModel().Types;
  return !T.isNull() && typeHasName(T, [&](StringRef N) {
    return Types.LifetimeCounters.contains(N);
  });
}

bool krefcheck::isCounterType(QualType T) {
  const krefcheck::TypeNames &Types = krefcheck::activeModel().Types;
  return !T.isNull() && typeHasName(T, [&](StringRef N) {
    return Types.LifetimeCounters.contains(N) ||
           Types.AtomicCounters.contains(N);
  });
}

static QualType regionType(const MemRegion *R) {
  if (const auto *FR = dyn_cast<FieldRegion>(R))
    return FR->getDecl()->getType(); // keeps the typedef sugar
  if (const auto *VR = dyn_cast<VarRegion>(R))
    return VR->getDecl()->getType();
  if (const auto *TR = dyn_cast<TypedValueRegion>(R))
    return TR->getValueType();
  return QualType();
}

/// The same memory can be reached as `Element{SymRegion{o},0}.ref` (through a
/// cast) and as `SymRegion{o}.ref`: rebuild field regions over cast-free
/// super-regions so one counter has one key.
static const MemRegion *canonicalRegion(const MemRegion *R) {
  R = R->StripCasts();
  const auto *FR = dyn_cast<FieldRegion>(R);
  if (!FR)
    return R;
  const MemRegion *Super = canonicalRegion(FR->getSuperRegion());
  if (Super == FR->getSuperRegion())
    return R;
  const auto *SubSuper = dyn_cast<SubRegion>(Super);
  if (!SubSuper)
    return R;
  return R->getMemRegionManager().getFieldRegion(FR->getDecl(), SubSuper);
}

const MemRegion *krefcheck::counterRegionFromArg(const MemRegion *R) {
  if (!R)
    return nullptr;
  R = canonicalRegion(R);
  // Walk up while the enclosing object is itself a counter: the outermost
  // counter is the one the user declared (`obj->ref`, not `ref.refcount`).
  while (const auto *SR = dyn_cast<SubRegion>(R)) {
    const MemRegion *Super = SR->getSuperRegion()->StripCasts();
    if (!isa<TypedValueRegion>(Super) || !isCounterType(regionType(Super)))
      break;
    R = Super;
  }
  return R;
}

const FieldDecl *krefcheck::counterField(const MemRegion *Counter) {
  if (const auto *FR = dyn_cast_or_null<FieldRegion>(Counter))
    return FR->getDecl();
  return nullptr;
}

const Expr *krefcheck::stripAddrOf(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  return E;
}

const FieldDecl *krefcheck::counterFieldFromExpr(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripAddrOf(E);
  // Collect the member chain; the counter is the outermost counter-typed
  // member, i.e. the one closest to the non-counter base object.
  const FieldDecl *Found = nullptr;
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      break;
    if (isCounterType(FD->getType()))
      Found = FD;
    E = ME->getBase()->IgnoreParenCasts();
  }
  return Found;
}

SymbolRef krefcheck::ownerSymbol(const MemRegion *Counter) {
  if (!Counter)
    return nullptr;
  if (const auto *SR =
          dyn_cast<SymbolicRegion>(Counter->getBaseRegion()->StripCasts()))
    return SR->getSymbol();
  return nullptr;
}

std::string krefcheck::describeField(const FieldDecl *FD) {
  if (!FD)
    return "the counter";
  const RecordDecl *RD = FD->getParent();
  std::string Rec = RD->getName().str();
  if (Rec.empty())
    Rec = "(anonymous)";
  return "struct " + Rec + "::" + FD->getName().str();
}

std::string krefcheck::describeRegion(const MemRegion *R) {
  if (!R)
    return "the counter";
  if (R->canPrintPretty()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    R->printPretty(OS);
    return OS.str();
  }
  if (const FieldDecl *FD = counterField(R))
    return describeField(FD);
  return "the counter";
}

std::string krefcheck::describeCounterArg(const Expr *E, const MemRegion *R,
                                          const SourceManager &SM,
                                          const LangOptions &LO) {
  if (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParens();
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
    if (Range.isValid()) {
      StringRef Text = Lexer::getSourceText(Range, SM, LO);
      if (!Text.empty() && Text.size() <= 80 && !Text.contains('\n'))
        return Text.str();
    }
  }
  if (const FieldDecl *FD = counterField(R))
    return describeField(FD);
  return "the counter";
}
