//===- Annotations.cpp - krefcheck_* annotations on declarations ----------===//

#include "Annotations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

using namespace clang;
using namespace krefcheck;

namespace {
/// Reports a malformed annotation once, as an error at the annotation.
void reportBad(const Decl *D, const AnnotateAttr *A, const llvm::Twine &Msg) {
  DiagnosticsEngine &Diags = D->getASTContext().getDiagnostics();
  Diags.Report(A->getLocation(),
               Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
      << ("krefcheck: " + Msg).str();
}

/// "krefcheck_<what>[:<arg>]" split into what and arg.
bool splitAnnotation(StringRef S, StringRef &What, StringRef &Arg) {
  if (!S.consume_front("krefcheck_"))
    return false;
  std::tie(What, Arg) = S.split(':');
  return true;
}
} // namespace

std::optional<LifetimeAPI> krefcheck::annotatedContract(const FunctionDecl *FD,
                                                        Family UserFamily) {
  std::optional<LifetimeAPI> Result;
  unsigned NParams = FD->getNumParams();
  for (const FunctionDecl *R : FD->redecls()) {
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      StringRef What, Arg;
      if (!splitAnnotation(A->getAnnotation(), What, Arg))
        continue;
      LifetimeAPI L{};
      L.Name = FD->getName();
      L.Fam = UserFamily;
      L.Src = ContractSource::Annotation;
      L.RefArg = RetVal;
      bool WantsArg = true;
      if (What == "acquires") {
        L.Op = LifeOp::Acquire;
      } else if (What == "try_acquires") {
        L.Op = LifeOp::Acquire;
        L.Fail = Failure::Zero;
      } else if (What == "releases") {
        L.Op = LifeOp::Release;
      } else if (What == "consumes") {
        L.Op = LifeOp::Consume;
      } else if (What == "borrows") {
        L.Op = LifeOp::Borrow;
      } else if (What == "stores") {
        L.Op = LifeOp::Store;
      } else if (What == "same_result") {
        continue; // A role, not a get or put: annotatedSameResult().
      } else if (What == "returns_ref" || What == "returns_ref_or_null" ||
                 What == "returns_ref_or_err_ptr") {
        L.Op = LifeOp::Acquire;
        L.Fail = What == "returns_ref"           ? Failure::Never
                 : What == "returns_ref_or_null" ? Failure::Null
                                                 : Failure::ErrPtr;
        WantsArg = false;
      } else {
        reportBad(FD, A, "unknown annotation '" + A->getAnnotation() + "'");
        continue;
      }
      if (WantsArg) {
        unsigned N;
        if (Arg.getAsInteger(10, N) || N < 1 || N > NParams) {
          reportBad(FD, A,
                    "'" + A->getAnnotation() + "' on '" + FD->getName() +
                        "': the argument number must be 1 to " +
                        llvm::Twine(NParams));
          continue;
        }
        L.RefArg = int(N) - 1;
      } else if (!FD->getReturnType()->isPointerType()) {
        reportBad(FD, A,
                  "'" + A->getAnnotation() + "' on '" + FD->getName() +
                      "', which does not return a pointer");
        continue;
      }
      if (!Result) {
        Result = L;
        continue;
      }
      // KREF_RELEASES(n) with KREF_RETURNS_REF*: an iterator step that puts
      // argument n and returns the next object.
      LifetimeAPI *Ret = Result->RefArg == RetVal ? &*Result : &L;
      LifetimeAPI *Rel = Result->RefArg == RetVal ? &L : &*Result;
      if (Ret->RefArg == RetVal && Ret->Op == LifeOp::Acquire &&
          Rel->Op == LifeOp::Release) {
        LifetimeAPI Next = *Ret;
        Next.Op = LifeOp::ConsumeAcquire;
        Next.ConsumedArg = Rel->RefArg;
        Result = Next;
        continue;
      }
      if (Result->Op == L.Op && Result->RefArg == L.RefArg &&
          Result->Fail == L.Fail)
        continue; // The same annotation on another declaration.
      reportBad(FD, A,
                "'" + FD->getName() +
                    "' has two krefcheck contracts; only KREF_RELEASES(n) "
                    "combines with KREF_RETURNS_REF*");
    }
  }
  return Result;
}

bool krefcheck::annotatedSameResult(const FunctionDecl *FD) {
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      StringRef What, Arg;
      if (!splitAnnotation(A->getAnnotation(), What, Arg) ||
          What != "same_result")
        continue;
      if (!Arg.empty() || FD->getReturnType()->isVoidType()) {
        reportBad(FD, A,
                  "'" + A->getAnnotation() + "' on '" + FD->getName() +
                      "': KREF_SAME_RESULT takes no argument and needs a "
                      "function that returns a value");
        return false;
      }
      return true;
    }
  return false;
}

std::optional<FieldAnnotation> krefcheck::annotatedField(const FieldDecl *FD) {
  std::optional<FieldAnnotation> Result;
  for (const auto *A : FD->specific_attrs<AnnotateAttr>()) {
    StringRef What, Arg;
    if (!splitAnnotation(A->getAnnotation(), What, Arg))
      continue;
    if (!Result)
      Result.emplace();
    if (What == "refcount") {
      Result->Refcount = true;
    } else if (What == "style_kref") {
      Result->Style = PutStyleKind::Kref;
    } else if (What == "style_plain") {
      Result->Style = PutStyleKind::Plain;
    } else if (What == "style_kcref" && !Arg.trim().empty()) {
      Result->Style = PutStyleKind::Kcref;
      Result->Lock = Arg.trim().str();
    } else {
      reportBad(FD, A, "unknown field annotation '" + A->getAnnotation() + "'");
    }
  }
  return Result;
}
