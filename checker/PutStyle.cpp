//===- PutStyle.cpp - The put style of each counter in a TU ---------------===//
//
// The put-style database (PutStyle.h): the puts recorded by the walk of the
// TU (PutStyleCollector.cpp) turned into a style per counter field, then the
// styles the model file's `counters:` entries and annotations give, which
// win. Cached per TU (TUCache.h).
//
//===----------------------------------------------------------------------===//

#include "PutStyle.h"
#include "ModelFile.h"
#include "PutStyleImpl.h"
#include "TUCache.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;
using namespace krefcheck;

namespace {

/// Calls F on every field and global variable declared outside function
/// bodies (cheap: no statement is visited).
template <typename Fn> void forEachDecl(const DeclContext *DC, Fn &&F) {
  for (const Decl *D : DC->decls()) {
    if (const auto *FD = dyn_cast<FieldDecl>(D))
      F(FD);
    else if (const auto *VD = dyn_cast<VarDecl>(D))
      F(VD);
    if (const auto *RD = dyn_cast<RecordDecl>(D))
      forEachDecl(RD, F);
    else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D))
      forEachDecl(LS, F);
  }
}

/// Styles the model file or annotations give counter fields override the
/// inferred ones; a kcref style's lock is a global or a field named so.
void applyConfiguredStyles(PutStyleDB &DB, ASTContext &Ctx) {
  const Model &M = activeModel();
  SmallVector<std::pair<const FieldDecl *, const CounterConfig *>, 4> Fields;
  SmallVector<const ValueDecl *, 64> Candidates;
  forEachDecl(Ctx.getTranslationUnitDecl(), [&](const ValueDecl *D) {
    if (const auto *FD = dyn_cast<FieldDecl>(D))
      if (const CounterConfig *C = M.counterConfig(FD))
        Fields.emplace_back(FD, C);
    Candidates.push_back(D);
  });
  for (auto [FD, C] : Fields) {
    PutStyleInfo &Info = DB.Styles[FD];
    Info.DeclaredRefcount |= C->Refcount;
    if (!C->Style)
      continue;
    Info.Kind = *C->Style;
    Info.Configured = true;
    // The example put may show another style: no note from it.
    Info.ExampleFinalPut = SourceLocation();
    Info.PutLocks.clear();
    if (Info.Kind != PutStyleKind::Kcref)
      continue;
    for (const ValueDecl *D : Candidates) {
      const auto *LockField = dyn_cast<FieldDecl>(D);
      const auto *LockVar = dyn_cast<VarDecl>(D);
      bool Match = LockField ? StringRef(C->Lock).contains("::") &&
                                   fieldMatches(C->Lock, LockField)
                             : LockVar && LockVar->hasGlobalStorage() &&
                                   LockVar->getName() == C->Lock;
      if (Match && !llvm::is_contained(Info.PutLocks, D))
        Info.PutLocks.push_back(D);
    }
  }
}

void finalize(PutStyleInfo &Info) {
  if (Info.BarePut.isValid()) {
    Info.Kind = PutStyleKind::Kref;
    Info.ExampleFinalPut = Info.BarePut;
  } else if (Info.LockedPut.isValid()) {
    Info.Kind = PutStyleKind::Kcref;
    Info.ExampleFinalPut = Info.LockedPut;
  } else if (Info.PlainDec.isValid()) {
    Info.Kind = PutStyleKind::Plain;
  }
}
} // namespace

void PutStyleDB::resetCache() { TUCache<PutStyleDB>::reset(); }

const PutStyleDB &PutStyleDB::get(ASTContext &Ctx) {
  return TUCache<PutStyleDB>::get(Ctx, [&Ctx](PutStyleDB &DB) {
    putstyle::collectPuts(DB, Ctx);
    for (auto &KV : DB.Styles)
      finalize(KV.second);
    applyConfiguredStyles(DB, Ctx);
  });
}

StringRef krefcheck::styleName(PutStyleKind K) {
  switch (K) {
  case PutStyleKind::Unknown:
    return "unknown";
  case PutStyleKind::Plain:
    return "plain";
  case PutStyleKind::Kref:
    return "kref";
  case PutStyleKind::Kcref:
    return "kcref";
  }
  return "unknown";
}
