//===- AssertionPaths.cpp - Reports on paths an assertion rules out -------===//
//
// `if (dev_WARN_ONCE(dev, dev->type != &foo_type, "not a foo")) return NULL;`
// in a converter like to_cxl_port() after a lookup whose match callback
// already checked the type: the analyzer cannot connect the callback to the
// result, takes the WARN branch, and reports the lookup's reference leaked
// on the `return NULL`. The kernel's assertions say which branches are bugs
// of their own; a report on such a path would ask for error handling of a
// state the code declares impossible.
//
// An assertion's failing branch is the true branch of a condition spelled
// inside the assertion macro's body: `if (unlikely(__ret_warn_on))` within
// WARN_ON(), the statement expression of `if (WARN_ON(x))` itself. A
// condition the caller wrote in the macro's argument (`WARN_ON(a && b)`:
// the branch on `a`) is the caller's, and does not count.
//
//===----------------------------------------------------------------------===//

#include "AssertionPaths.h"
#include "ModelFile.h"
#include "Rules.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/StaticAnalyzer/Core/BugReporter/BugReporterVisitors.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ExplodedGraph.h"

using namespace clang;
using namespace ento;
using namespace krefcheck;

namespace {

/// Whether the branch condition Cond is an assertion's own test: spelled in
/// the body of an assertion macro (not in an argument the caller wrote), so
/// that its true branch is the assertion failing.
bool isAssertionTest(const Stmt *Cond, const SourceManager &SM,
                     const LangOptions &LO) {
  if (!Cond)
    return false;
  const NameSet &Assertions = activeModel().Macros.Assertions;
  SourceLocation Loc = Cond->getBeginLoc();
  for (unsigned Depth = 0; Loc.isMacroID() && Depth < 32; ++Depth) {
    if (SM.isMacroArgExpansion(Loc)) {
      // Where the argument was written: in another macro's body (keep
      // walking), or in the file (the caller's own condition: stop).
      Loc = SM.getImmediateSpellingLoc(Loc);
      continue;
    }
    if (Assertions.contains(Lexer::getImmediateMacroName(Loc, SM, LO)))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

class AssertionPathFilter final : public BugReporterVisitor {
  bool Done = false;

public:
  void Profile(llvm::FoldingSetNodeID &ID) const override {
    static int Tag;
    ID.AddPointer(&Tag);
  }

  PathDiagnosticPieceRef VisitNode(const ExplodedNode *N,
                                   BugReporterContext &BRC,
                                   PathSensitiveBugReport &BR) override {
    if (Done)
      return nullptr;
    auto BE = N->getLocation().getAs<BlockEdge>();
    if (!BE)
      return nullptr;
    const CFGBlock *Src = BE->getSrc();
    if (Src->succ_size() != 2 ||
        static_cast<const CFGBlock *>(*Src->succ_begin()) != BE->getDst())
      return nullptr;
    if (!isAssertionTest(Src->getTerminatorCondition(), BRC.getSourceManager(),
                         BRC.getASTContext().getLangOpts()))
      return nullptr;
    Done = true;
    applyRule(RuleId::AssertionPath);
    BR.markInvalid(&Done, nullptr);
    return nullptr;
  }
};

} // namespace

void krefcheck::dropOnAssertionPaths(PathSensitiveBugReport &R) {
  if (ruleEnabled(RuleId::AssertionPath))
    R.addVisitor<AssertionPathFilter>();
}
