//===- Contracts.cpp - One call contract per callee -----------------------===//

#include "Contracts.h"
#include "Annotations.h"
#include "ModelFile.h"
#include "RefcountAPI.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CallEvent.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/CheckerContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {
/// Does a word of Name (split at '_') belong to Words?
bool hasNameWord(StringRef Name, const NameSet &Words) {
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '_', -1, /*KeepEmpty=*/false);
  return llvm::any_of(Parts, [&](StringRef P) { return Words.contains(P); });
}

CallContract build(const FunctionDecl *FD) {
  CallContract K;
  K.Callee = FD;
  if (!FD) {
    // Through a function pointer: it may keep what it is given.
    K.Source = ContractSource::Heuristic;
    return K;
  }
  const Model &M = activeModel();
  if (const IdentifierInfo *II = FD->getIdentifier())
    K.Name = II->getName();
  // Annotations, then the model files (user rows replaced built-in ones
  // when the files were merged).
  if (const LifetimeAPI *A = M.annotatedAPI(FD)) {
    K.API = A;
  } else if (!K.Name.empty()) {
    K.API = M.lifetimeAPI(K.Name);
    if (const RoleRow *R = M.role(K.Name)) {
      K.Role = R->Role;
      K.RoleArg = R->Arg;
      if (!K.API)
        K.Source = R->Src;
    }
  }
  if (K.API)
    K.Source = K.API->Src;
  if (annotatedSameResult(FD)) {
    K.Role = CallRole::SameResult;
    if (!K.API)
      K.Source = ContractSource::Annotation;
  }
  if (K.Name.empty())
    return K;
  // The naming rules: the words the callee's name has (argEffect() lets a
  // row win over them).
  // A counting API (an `apis` row of a counting kind: atomic_set(),
  // refcount_add()) changes a count and keeps nothing, whatever its name
  // says.
  bool Counting = lookupCountAPI(K.Name) != nullptr;
  K.NameGivesUp = !Counting && hasNameWord(K.Name, M.Words.Releases);
  K.NameKeeps = !Counting && hasNameWord(K.Name, M.Words.TakesOwnership);
  K.NameUndoesVotes = !K.API && hasNameWord(K.Name, M.Words.UndoesVotes);
  K.NameLooksUp = hasNameWord(K.Name, M.Words.LooksUp);
  if (K.Source == ContractSource::None &&
      (K.NameGivesUp || K.NameKeeps || K.NameUndoesVotes))
    K.Source = ContractSource::Heuristic;
  return K;
}

const char *sourceName(ContractSource S) {
  switch (S) {
  case ContractSource::Annotation:
    return "annotation";
  case ContractSource::UserModel:
    return "user model";
  case ContractSource::BuiltinModel:
    return "built-in model";
  case ContractSource::Heuristic:
    return "naming rules";
  case ContractSource::None:
    break;
  }
  return "none";
}

const char *roleName(CallRole R) {
  switch (R) {
  case CallRole::None:
    return "none";
  case CallRole::ErrTest:
    return "err-test";
  case CallRole::ErrOrNullTest:
    return "err-or-null-test";
  case CallRole::ErrValue:
    return "err-value";
  case CallRole::ValueOnly:
    return "value-only";
  case CallRole::MakesErrPtr:
    return "makes-err-ptr";
  case CallRole::AcpiNodeTest:
    return "acpi-node-test";
  case CallRole::DriverData:
    return "driver-data";
  case CallRole::ClaimBit:
    return "claim-bit";
  case CallRole::Logging:
    return "logging";
  case CallRole::Allocator:
    return "allocator";
  case CallRole::ManagedAllocator:
    return "managed-allocator";
  case CallRole::SameResult:
    return "same-result";
  case CallRole::IntegrityCheck:
    return "integrity-check";
  case CallRole::KeepsNothing:
    return "keeps-nothing";
  }
  return "none";
}

const char *effectName(ArgEffect E) {
  switch (E) {
  case ArgEffect::None:
    return "none";
  case ArgEffect::Acquire:
    return "acquire";
  case ArgEffect::Release:
    return "release";
  case ArgEffect::Consume:
    return "consume";
  case ArgEffect::Borrow:
    return "borrow";
  case ArgEffect::Keep:
    return "keep";
  case ArgEffect::GiveUp:
    return "give-up";
  case ArgEffect::Store:
    return "store";
  }
  return "none";
}

const char *failureName(Failure F) {
  switch (F) {
  case Failure::Never:
    return "never";
  case Failure::Null:
    return "null";
  case Failure::ErrPtr:
    return "err-ptr";
  case Failure::NullOrErrPtr:
    return "null-or-err-ptr";
  case Failure::NegErrno:
    return "negative";
  case Failure::Errno:
    return "errno";
  case Failure::NotPositive:
    return "not-positive";
  case Failure::Zero:
    return "zero";
  }
  return "never";
}

struct DumpState {
  bool On = false;
  llvm::DenseSet<const void *> Seen;
};
DumpState &dumpState() {
  static thread_local DumpState S;
  return S;
}
} // namespace

ArgEffect CallContract::argEffect(unsigned I) const {
  if (API && API->RefArg == int(I)) {
    switch (API->Op) {
    case LifeOp::Acquire:
      return ArgEffect::Acquire;
    case LifeOp::Release:
      return ArgEffect::Release;
    case LifeOp::Consume:
      return ArgEffect::Consume;
    case LifeOp::Borrow:
      return ArgEffect::Borrow;
    case LifeOp::Store:
      return ArgEffect::Store;
    case LifeOp::ConsumeAcquire:
      break;
    }
  }
  if (API && API->Op == LifeOp::ConsumeAcquire && API->ConsumedArg == int(I))
    return ArgEffect::Release;
  if (changesCount() || valueOnly())
    return ArgEffect::None;
  if (isIndirect())
    return ArgEffect::Keep;
  if (NameGivesUp)
    return ArgEffect::GiveUp;
  if (NameKeeps)
    return ArgEffect::Keep;
  return ArgEffect::None;
}

ReturnEffect CallContract::returnEffect(int &ReturnArg) const {
  ReturnArg = NoArg;
  if (API && changesCount()) {
    if (isNewReference(*API))
      return ReturnEffect::NewReference;
    if (API->ReturnsArg) {
      ReturnArg = API->RefArg;
      return ReturnEffect::SameAsArg;
    }
    return ReturnEffect::Unknown;
  }
  if (Role == CallRole::DriverData) {
    ReturnArg = RoleArg;
    return ReturnEffect::DriverDataOf;
  }
  if (Role == CallRole::SameResult)
    return ReturnEffect::SameResult;
  if (API || valueOnly() || NameLooksUp || isIndirect())
    return ReturnEffect::Unknown;
  // Only a struct pointer can be another view of an argument's object.
  QualType RT = Callee->getReturnType();
  if (!RT->isPointerType() || !RT->getPointeeType()->isRecordType())
    return ReturnEffect::Unknown;
  return ReturnEffect::MaybeViewOfArg;
}

void CallContract::print(llvm::raw_ostream &OS) const {
  OS << "contract of " << (Callee ? Name.str() + "()" : "an indirect call")
     << ": source " << sourceName(Source);
  if (API) {
    OS << "; family " << activeModel().familyName(API->Fam);
    if (API->Fail != Failure::Never)
      OS << "; fails: " << failureName(API->Fail);
    if (API->Observe)
      OS << "; evaluated by refcount.Model";
  }
  if (Role != CallRole::None)
    OS << "; role " << roleName(Role);
  unsigned N = Callee ? Callee->getNumParams() : 0;
  for (unsigned I = 0; I < N; ++I) {
    ArgEffect E = argEffect(I);
    if (E != ArgEffect::None)
      OS << "; arg " << I + 1 << ": " << effectName(E);
  }
  if (isIndirect())
    OS << "; every arg: keep";
  int RA;
  switch (returnEffect(RA)) {
  case ReturnEffect::NewReference:
    // A first-reference row of an argument (kref_init(), device_register())
    // is a new reference too, but not its result: said below.
    if (API->RefArg == RetVal)
      OS << "; returns a new reference, put with " << matchingPut(*API);
    break;
  case ReturnEffect::SameAsArg:
    OS << "; returns arg " << RA + 1;
    break;
  case ReturnEffect::DriverDataOf:
    OS << "; returns the driver data of arg " << RA + 1;
    break;
  case ReturnEffect::MaybeViewOfArg:
    OS << "; may return a view of an argument";
    break;
  case ReturnEffect::SameResult:
    OS << "; the same arguments give the same result on a path";
    break;
  case ReturnEffect::Unknown:
    break;
  }
  if (API && API->Op == LifeOp::Acquire && API->RefArg != RetVal)
    OS << (API->InitsFresh ? "; sets up the first reference of arg " +
                                 std::to_string(API->RefArg + 1) + ","
                           : std::string(";"))
       << " put with " << matchingPut(*API);
  if (API && API->KeptOnSuccess != Failure::Never)
    OS << "; kept when it succeeds, undone with "
       << (API->Undo.empty() ? matchingPut(*API) : API->Undo.str());
}

const CallContract &krefcheck::contractFor(const FunctionDecl *FD) {
  Model &M = activeModel();
  if (FD)
    FD = FD->getCanonicalDecl();
  auto &Slot = M.Contracts[FD];
  if (!Slot)
    Slot = std::make_unique<CallContract>(build(FD));
  return *Slot;
}

const CallContract &krefcheck::contractFor(const CallEvent &Call) {
  return contractFor(dyn_cast_or_null<FunctionDecl>(Call.getDecl()));
}

std::string krefcheck::matchingPut(const LifetimeAPI &A) {
  return A.Put.empty() ? releaseNameFor(A.Fam).str() : A.Put.str();
}

void krefcheck::configureContractDump(bool On) {
  dumpState().On = On;
  dumpState().Seen.clear();
}

void krefcheck::dumpContract(const CallEvent &Call, CheckerContext &C) {
  DumpState &S = dumpState();
  const Expr *E = dyn_cast_or_null<Expr>(Call.getOriginExpr());
  if (!S.On || !E || !S.Seen.insert(E).second)
    return;
  const SourceManager &SM = C.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(E->getBeginLoc()));
  llvm::errs() << (P.isValid() ? P.getFilename() : "<unknown>") << ':'
               << (P.isValid() ? P.getLine() : 0) << ':'
               << (P.isValid() ? P.getColumn() : 0) << ": ";
  contractFor(Call).print(llvm::errs());
  llvm::errs() << '\n';
}
