//===- MixedStyleChecker.cpp - refcount.MixedStyle ------------------------===//
//
// A counter has one put style (kref: bare decrement-and-test; kcref: the
// final put takes a lock; plain: plain decrements, the lifetime is owned
// elsewhere), and every rule about promoting internal references depends on
// it. A counter released through two styles breaks the rules of both.
// Reported, with a note at a use of the other style:
//   - an atomic_*/refcount_* operation on the insides of a struct kref
//     (`&x->ref.refcount`, `&x->ref.refcount.refs`), bypassing the kref API
//     (the article's svcauth exercise: atomic_dec_and_lock on a kref); reads
//     are not reported;
//   - a plain decrement (atomic_dec, atomic_sub; refcount_dec with the
//     RefcountDec option) of a counter whose final puts elsewhere in the TU
//     are decrement-and-test or decrement-and-lock: if the plain decrement
//     drops the last reference, nothing releases the object. A decrement
//     that undoes the same function's earlier get of the same counter
//     (error paths) is not reported;
//   - a bare decrement-and-test (kref_put, *_dec_and_test with no lock held)
//     of a counter that is also released with a decrement-and-lock
//     (kref_put_lock, kref_put_mutex, *_dec_and_lock): a plain get under the
//     lock is no longer a safe promotion. Reported once per counter.
// Not reported: the counting API's own implementation (kref_*, refcount_*,
// atomic_* bodies, kref.h, refcount.h), counters used in one style, counters
// that only see plain inc/dec (buffer heads), and counters listed in the
// PlainCounters option.
//
//===----------------------------------------------------------------------===//

#include "CounterKey.h"
#include "CounterUses.h"
#include "ModelFile.h"
#include "PutStyle.h"
#include "RefcountModel.h"
#include "ReportUtil.h"
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

class MixedStyleChecker : public Checker<check::ASTDecl<TranslationUnitDecl>> {
public:
  const BugType Bug{this, "Counter released in two styles", RefcountCategory};
  llvm::StringSet<> PlainCounters;
  /// Report refcount_dec() too. Off by default: refcount_dec() is the
  /// kernel's checked "not the last reference" put (it warns, as
  /// REFCOUNT_DEC_LEAK, when it hits zero).
  bool ReportRefcountDec = false;

  void checkASTDecl(const TranslationUnitDecl *TU, AnalysisManager &Mgr,
                    BugReporter &BR) const;

private:
  bool isConfiguredPlain(const FieldDecl *FD) const {
    if (PlainCounters.contains(FD->getName()))
      return true;
    if (const CounterConfig *C = activeModel().counterConfig(FD))
      if (C->Style == PutStyleKind::Plain)
        return true;
    StringRef Rec = FD->getParent()->getName();
    return !Rec.empty() &&
           PlainCounters.contains((Rec + "::" + FD->getName()).str());
  }
};

/// The kref API call that does what an operation on the kref's insides does.
StringRef krefReplacement(const CounterUse &U) {
  StringRef N = U.Callee;
  if (N.contains("dec_and_lock") || N.contains("dec_and_mutex_lock"))
    return "kref_put_lock() or kref_put_mutex()";
  if (N.contains("inc_not_zero") || N.contains("add_unless") ||
      N.contains("add_not_zero") || N.contains("inc_unless"))
    return "kref_get_unless_zero()";
  if (N.contains("set"))
    return "kref_init()";
  if (N.contains("dec") || N.contains("sub"))
    return "kref_put()";
  if (N.contains("inc") || N.contains("add"))
    return "kref_get()";
  return "the kref_* API";
}

bool isReadOnly(const CounterUse &U) {
  if (U.API && U.API->Op == CountOp::Read)
    return true;
  return U.Callee.contains("read");
}

/// A decrement that never tests for zero.
bool isPlainDecrement(const CounterUse &U) {
  if (U.Callee == "refcount_dec_not_one") // never drops the last reference
    return false;
  if (U.API)
    return U.API->Op == CountOp::Put;
  return U.Callee == "atomic_sub" || U.Callee == "atomic_long_sub" ||
         U.Callee == "atomic64_sub";
}

/// An increment (get) of the counter.
bool isIncrement(const CounterUse &U) {
  if (U.API)
    return U.API->Op == CountOp::Get || U.API->Op == CountOp::TryGet;
  StringRef N = U.Callee;
  return (N.contains("inc") || N.contains("add")) && !N.contains("read");
}

StringRef testingPutFor(CounterFamily F, bool Locked) {
  switch (F) {
  case CounterFamily::Kref:
    return Locked ? "kref_put_lock()" : "kref_put()";
  case CounterFamily::Refcount:
    return Locked ? "refcount_dec_and_lock()" : "refcount_dec_and_test()";
  case CounterFamily::Atomic:
    return Locked ? "atomic_dec_and_lock()" : "atomic_dec_and_test()";
  }
  return "";
}
} // namespace

void MixedStyleChecker::checkASTDecl(const TranslationUnitDecl *TU,
                                     AnalysisManager &Mgr,
                                     BugReporter &BR) const {
  ASTContext &Ctx = Mgr.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const CounterUseDB &DB = CounterUseDB::get(Ctx);
  const PutStyleDB &Styles = PutStyleDB::get(Ctx);
  llvm::DenseSet<unsigned> Reported;

  auto Emit = [&](const CounterUse &U, SourceLocation At, std::string Msg,
                  std::string Note, SourceLocation NoteAt,
                  const Decl *NoteDecl = nullptr) {
    SourceLocation FileLoc = SM.getFileLoc(At);
    if (!Reported.insert(FileLoc.getRawEncoding()).second)
      return;
    auto R = std::make_unique<BasicBugReport>(
        Bug, Msg, PathDiagnosticLocation(FileLoc, SM));
    R->setDeclWithIssue(U.InFunction);
    R->addRange(U.Call->getSourceRange());
    if (NoteAt.isValid())
      R->addNote(Note, PathDiagnosticLocation(SM.getFileLoc(NoteAt), SM));
    else if (NoteDecl)
      R->addNote(Note, PathDiagnosticLocation::create(NoteDecl, SM));
    emitReport(BR, std::move(R));
  };

  // Explicit decrement-and-lock puts per counter (for the kref/kcref mix).
  // Keyed by field and host: nfs_open_context embeds the nfs_lock_context
  // that its list holds separately allocated ones of; the embedded count is
  // another counter than the listed ones' count.
  llvm::DenseMap<std::pair<const FieldDecl *, const FieldDecl *>,
                 const CounterUse *>
      LockedPutUse;
  for (const CounterUse &U : DB.Uses)
    if (!U.KrefInsides && U.API && U.API->Op == CountOp::PutLock)
      LockedPutUse.try_emplace({U.Field, U.Host}, &U);

  auto Spelled = [&](const CounterUse &U) { return spelledCallee(U, SM, LO); };

  llvm::DenseSet<const FieldDecl *> MixReported;
  for (const CounterUse &U : DB.Uses) {
    if (U.InTypeImpl)
      continue;
    std::string Ctr = describeUseCounter(U, SM, LO);
    std::string Field = describeCounterField(U.Field);

    // 1. The insides of a kref, worked on directly.
    if (U.KrefInsides) {
      if (isReadOnly(U))
        continue;
      std::string Msg = "The call to " + Spelled(U) +
                        "() works on the insides of struct kref '" + Field +
                        "', bypassing the kref API: the counter is released "
                        "in two styles; use " +
                        krefReplacement(U).str();
      auto It = DB.KrefAPIUse.find(U.Field);
      if (It != DB.KrefAPIUse.end())
        Emit(U, U.Call->getExprLoc(), Msg,
             "'" + Field + "' is used through the kref API here", It->second);
      else
        Emit(U, U.Call->getExprLoc(), Msg,
             "'" + Field + "' is declared as a struct kref here",
             SourceLocation(), U.Field);
      continue;
    }

    const PutStyleInfo *Info = Styles.lookup(U.Field);
    if (!Info || isConfiguredPlain(U.Field))
      continue;

    // 2. A plain decrement of a counter whose other puts test for zero.
    // Undoing this function's own earlier get of the same counter
    // (`atomic_inc(&c); if (failed) atomic_dec(&c);`) restores the count the
    // function found: it drops no one else's reference.
    auto UndoesOwnGet = [&](const CounterUse &Dec) {
      for (const CounterUse &G : DB.Uses)
        if (G.InFunction == Dec.InFunction && G.Field == Dec.Field &&
            isIncrement(G) &&
            SM.isBeforeInTranslationUnit(G.Call->getBeginLoc(),
                                         Dec.Call->getBeginLoc()) &&
            sameCounterExpr(G.Call->getArg(G.CounterArg),
                            Dec.Call->getArg(Dec.CounterArg)))
          return true;
      return false;
    };
    // An atomic_t is a lifetime count only when a final put frees its owner
    // (io_uring's nr_running is tested with atomic_dec_and_test, but counts
    // running workers: its plain decrements lose nothing).
    bool Lifetime =
        U.Family != CounterFamily::Atomic || Info->FreeOnZero.isValid();
    if (isPlainDecrement(U) && Info->hasFinalPut() && Lifetime &&
        (ReportRefcountDec || U.Family != CounterFamily::Refcount) &&
        !UndoesOwnGet(U)) {
      bool Locked = Info->BarePut.isInvalid();
      SourceLocation Other = Locked ? Info->LockedPut : Info->BarePut;
      std::string Msg =
          "The call to " + Spelled(U) + "() is a plain decrement of '" + Ctr +
          "', whose other puts " +
          (Locked ? "take a lock as the count hits zero (kcref style)"
                  : "are decrement-and-test (kref style)") +
          ": if it drops the last reference nothing releases the object; "
          "use " +
          testingPutFor(U.Family, Locked).str() + " and release on zero";
      Emit(U, U.Call->getExprLoc(), Msg,
           "The final put of '" + Field + "' tests for zero here", Other);
      continue;
    }

    // 3. Bare decrement-and-test and decrement-and-lock on one counter.
    if (U.API && U.API->Op == CountOp::PutTest && Info->BarePut.isValid() &&
        SM.getFileLoc(Info->BarePut) == SM.getFileLoc(U.Call->getBeginLoc())) {
      auto It = LockedPutUse.find({U.Field, U.Host});
      if (It == LockedPutUse.end() || !MixReported.insert(U.Field).second)
        continue;
      const CounterUse &L = *It->second;
      std::string Msg =
          "The call to " + Spelled(U) + "() drops '" + Ctr +
          "' without the lock that its other final put, " + Spelled(L) +
          "(), takes as the count hits zero: the counter mixes kref and "
          "kcref style, so a plain get under that lock is no longer a safe "
          "promotion; release it with " +
          testingPutFor(L.Family, /*Locked=*/true).str() + " everywhere";
      Emit(U, U.Call->getExprLoc(), Msg,
           "'" + Field + "' is released with " + Spelled(L) +
               "() here (kcref style)",
           L.Call->getBeginLoc());
    }
  }
}

void registerMixedStyle(CheckerManager &Mgr) {
  auto *Chk = Mgr.registerChecker<MixedStyleChecker>();
  StringRef List = Mgr.getAnalyzerOptions().getCheckerStringOption(
      "refcount.MixedStyle", "PlainCounters");
  // -analyzer-config splits its argument at commas: on a command line the
  // items are separated by ';' (or spaces); ',' works in the default.
  SmallVector<StringRef, 8> Items;
  SplitString(List, Items, ",; \t");
  for (StringRef I : Items) {
    I = I.trim();
    I.consume_front("struct ");
    if (!I.empty())
      Chk->PlainCounters.insert(I);
  }
  Chk->ReportRefcountDec = Mgr.getAnalyzerOptions().getCheckerBooleanOption(
      "refcount.MixedStyle", "RefcountDec");
}
