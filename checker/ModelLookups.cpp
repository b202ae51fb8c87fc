//===- ModelLookups.cpp - What the loaded model answers -------------------===//
//
// The Model's queries once its files are read (ModelFile.h): the role row of
// a name (exact, then glob), the families and their puts, the contract of a
// function's annotations, what the `counters:` entries and a field's
// annotations say about a counter field, and the name sets of the model's
// lists. Kept apart from the parser (ModelFile.cpp and its sections): this
// changes when a checker needs a new question answered, not when the format
// changes.
//
//===----------------------------------------------------------------------===//

#include "Annotations.h"
#include "Contracts.h"
#include "ModelFile.h"
#include "ModelParser.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLExtras.h"

using namespace krefcheck;
using llvm::dyn_cast;
using llvm::StringRef;

bool krefcheck::globMatches(StringRef Pattern, StringRef Name) {
  size_t Star = Pattern.find('*');
  if (Star == StringRef::npos)
    return Pattern == Name;
  StringRef Head = Pattern.take_front(Star);
  if (!Name.consume_front(Head))
    return false;
  Pattern = Pattern.drop_front(Star + 1);
  // Try every split point for the rest (patterns are short).
  for (size_t I = 0; I <= Name.size(); ++I)
    if (globMatches(Pattern, Name.drop_front(I)))
      return true;
  return false;
}

void NameSet::insert(StringRef Name) {
  GlobMemo.clear();
  if (!Name.contains('*'))
    Exact.insert(Name);
  else if (!llvm::is_contained(Globs, Name))
    Globs.push_back(Name.str());
}

bool NameSet::contains(StringRef Name) const {
  if (Exact.contains(Name))
    return true;
  if (Globs.empty())
    return false;
  auto [It, New] = GlobMemo.try_emplace(Name, false);
  if (New)
    It->second = llvm::any_of(
        Globs, [&](const std::string &G) { return globMatches(G, Name); });
  return It->second;
}

const RoleRow *Model::role(StringRef Name) const {
  auto It = Roles.find(Name);
  if (It != Roles.end())
    return &It->second;
  for (const auto &[Pattern, Row] : RoleGlobs)
    if (globMatches(Pattern, Name))
      return &Row;
  return nullptr;
}

bool krefcheck::fieldMatches(StringRef Spec, const clang::FieldDecl *FD) {
  Spec = Spec.trim();
  Spec.consume_front("struct ");
  Spec.consume_front("union ");
  auto [Rec, Field] = Spec.rsplit("::");
  if (Field.empty())
    return FD->getName() == Rec;
  if (FD->getName() != Field)
    return false;
  // The field may sit in an anonymous struct or union of the named one.
  for (const clang::RecordDecl *RD = FD->getParent(); RD;
       RD = dyn_cast<clang::RecordDecl>(RD->getDeclContext())) {
    if (RD->getName() == Rec)
      return true;
    if (!RD->isAnonymousStructOrUnion())
      return false;
  }
  return false;
}

Model::Model() = default;
Model::~Model() = default;

Family Model::family(StringRef Name) {
  for (unsigned I = 0; I < std::size(BuiltinFamilies); ++I)
    if (Name == BuiltinFamilies[I])
      return static_cast<Family>(I);
  for (unsigned I = 0; I < UserFamilies.size(); ++I)
    if (UserFamilies[I] == Name)
      return static_cast<Family>(unsigned(Family::FirstUser) + I);
  UserFamilies.push_back(Name.str());
  return static_cast<Family>(unsigned(Family::FirstUser) + UserFamilies.size() -
                             1);
}

std::string Model::familyName(Family F) const {
  unsigned I = unsigned(F);
  if (I < std::size(BuiltinFamilies))
    return BuiltinFamilies[I];
  I -= unsigned(Family::FirstUser);
  return I < UserFamilies.size() ? UserFamilies[I] : "user";
}

std::string Model::releaseName(Family F) const {
  std::string Best;
  for (const auto &KV : Lifetime)
    if (KV.second.Fam == F && KV.second.Op == LifeOp::Release &&
        (Best.empty() || KV.first() < Best))
      Best = KV.first().str();
  if (Best.empty() && Ctx) {
    // An annotated family: the first function of the TU annotated as its put.
    for (const clang::Decl *D : Ctx->getTranslationUnitDecl()->decls()) {
      const auto *FD = dyn_cast<clang::FunctionDecl>(D);
      const LifetimeAPI *A = FD ? annotatedAPI(FD) : nullptr;
      if (A && A->Fam == F && A->Op == LifeOp::Release)
        return FD->getName().str() + "()";
    }
  }
  return Best.empty() ? "the matching put" : Best + "()";
}

const LifetimeAPI *Model::annotatedAPI(const clang::FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  auto It = Annotated.find(FD);
  if (It != Annotated.end())
    return It->second.get();
  std::optional<LifetimeAPI> A =
      annotatedContract(FD, const_cast<Model &>(*this).family("user"));
  auto &Slot = Annotated[FD];
  if (A)
    Slot = std::make_unique<LifetimeAPI>(*A);
  return Slot.get();
}

const CounterConfig *Model::counterConfig(const clang::FieldDecl *FD) const {
  auto It = FieldConfigs.find(FD);
  if (It != FieldConfigs.end())
    return It->second.get();
  std::optional<CounterConfig> Result;
  for (const CounterConfig &C : Counters) {
    if (!fieldMatches(C.Field, FD))
      continue;
    if (!Result)
      Result = C;
    if (C.Style) {
      Result->Style = C.Style;
      Result->Lock = C.Lock;
    }
    Result->Refcount |= C.Refcount;
  }
  if (std::optional<FieldAnnotation> A = annotatedField(FD)) {
    if (!Result) {
      Result.emplace();
      Result->Field = FD->getName().str();
    }
    if (A->Style) {
      Result->Style = A->Style;
      Result->Lock = A->Lock;
    }
    Result->Refcount |= A->Refcount;
  }
  auto &Slot = FieldConfigs[FD];
  if (Result)
    Slot = std::make_unique<CounterConfig>(*Result);
  return Slot.get();
}
