//===- ReportUtil.cpp - Pieces shared by the refcount reports -------------===//

#include "ReportUtil.h"
#include "CounterKey.h"
#include "LockModel.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

void krefcheck::addStyleNote(PathSensitiveBugReport &R, const FieldDecl *FD,
                             const PutStyleInfo &Info,
                             const SourceManager &SM) {
  if (Info.ExampleFinalPut.isInvalid())
    return;
  std::string Msg;
  if (Info.Kind == PutStyleKind::Kref)
    Msg = "The final put of '" + describeField(FD) +
          "' is a bare decrement-and-test here: kref style";
  else if (Info.Kind == PutStyleKind::Kcref)
    Msg =
        "The final put of '" + describeField(FD) + "' takes " +
        describeLock(Info.PutLocks.empty() ? nullptr : Info.PutLocks.front()) +
        " as the count hits zero here: kcref style";
  else
    return;
  R.addNote(Msg, PathDiagnosticLocation(Info.ExampleFinalPut, SM));
}

const Decl *krefcheck::topLevelDecl(CheckerContext &C) {
  const LocationContext *LC = C.getLocationContext();
  while (LC->getParent())
    LC = LC->getParent();
  return LC->getDecl();
}
