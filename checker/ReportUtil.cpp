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

/// The text of the line holding Offset in Buf, without its newline.
static StringRef lineAt(StringRef Buf, size_t Offset) {
  size_t Begin = Buf.rfind('\n', Offset); // Searches before Offset.
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Buf.find('\n', Offset);
  return Buf.slice(Begin, End == StringRef::npos ? Buf.size() : End);
}

static bool lineSuppresses(StringRef Line, StringRef Checker) {
  size_t Comment = std::min(Line.find("//"), Line.find("/*"));
  if (Comment == StringRef::npos)
    return false;
  StringRef Rest = Line.substr(Comment);
  size_t At = Rest.find("krefcheck:");
  if (At == StringRef::npos)
    return false;
  Rest = Rest.substr(At + strlen("krefcheck:")).ltrim();
  if (!Rest.consume_front("ignore["))
    return false;
  StringRef List = Rest.take_until([](char C) { return C == ']'; });
  if (List.size() == Rest.size())
    return false; // No closing bracket.
  StringRef Short = Checker;
  Short.consume_front("refcount.");
  SmallVector<StringRef, 4> Names;
  List.split(Names, ',');
  for (StringRef N : Names) {
    N = N.trim();
    if (N == "*" || N == Short || N == Checker)
      return true;
  }
  return false;
}

bool krefcheck::suppressedByComment(StringRef Checker, SourceLocation Loc,
                                    const SourceManager &SM) {
  if (Loc.isInvalid())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset > Buf.size())
    return false;
  StringRef Line = lineAt(Buf, Offset);
  if (lineSuppresses(Line, Checker))
    return true;
  size_t LineBegin = Line.data() - Buf.data();
  return LineBegin > 0 && lineSuppresses(lineAt(Buf, LineBegin - 1), Checker);
}

void krefcheck::emitReport(CheckerContext &C,
                           std::unique_ptr<PathSensitiveBugReport> R) {
  if (suppressedByComment(R->getBugType().getCheckerName(),
                          R->getLocation().asLocation(), C.getSourceManager()))
    return;
  C.emitReport(std::move(R));
}

void krefcheck::emitReport(BugReporter &BR, std::unique_ptr<BugReport> R) {
  if (suppressedByComment(R->getBugType().getCheckerName(),
                          R->getLocation().asLocation(), BR.getSourceManager()))
    return;
  BR.emitReport(std::move(R));
}
