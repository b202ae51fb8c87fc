//===- Rules.cpp - The rule registry of the lifetime model ----------------===//

#include "Rules.h"
#include "llvm/ADT/SmallVector.h"
#include <array>

using namespace krefcheck;

namespace {
constexpr unsigned NumRules = unsigned(RuleId::NumRules);

const RuleInfo Infos[] = {
#define RULE(Id, Name, Rationale, Motivation) {Name, Rationale, Motivation},
#include "Rules.def"
};

/// Per thread: clangd analyzes several files at once.
struct RuleState {
  std::array<bool, NumRules> Disabled{};
  std::array<unsigned, NumRules> Fired{};
  bool Stats = false;
  /// Nodes of the exploded graphs of the TU's analyses, and their number:
  /// the cost of the states the analysis explored, whatever the machine.
  uint64_t Nodes = 0;
  unsigned Analyses = 0;
};
RuleState &state() {
  static thread_local RuleState S;
  return S;
}
} // namespace

const RuleInfo &krefcheck::ruleInfo(RuleId R) { return Infos[unsigned(R)]; }

bool krefcheck::ruleEnabled(RuleId R) { return !state().Disabled[unsigned(R)]; }

bool krefcheck::applyRule(RuleId R) {
  RuleState &S = state();
  if (S.Disabled[unsigned(R)])
    return false;
  ++S.Fired[unsigned(R)];
  return true;
}

namespace {
/// The rules Rules.def marks off by default (RULE_OFF_BY_DEFAULT).
bool offByDefault(unsigned I) {
  static const RuleId Off[] = {
#define RULE(Id, Name, Rationale, Motivation)
#define RULE_OFF_BY_DEFAULT(Id) RuleId::Id,
#include "Rules.def"
  };
  for (RuleId R : Off)
    if (unsigned(R) == I)
      return true;
  return false;
}

/// Splits a list of rule names (';' or spaces: -analyzer-config splits its
/// argument at commas) and calls F with each rule's index; an unknown name
/// sets Error and returns false.
template <typename Fn>
bool forEachNamedRule(llvm::StringRef List, llvm::StringRef Option,
                      std::string &Error, Fn F) {
  llvm::SmallVector<llvm::StringRef, 8> Names;
  List.split(Names, ';', -1, /*KeepEmpty=*/false);
  llvm::SmallVector<llvm::StringRef, 8> Words;
  for (llvm::StringRef N : Names)
    N.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef N : Words) {
    N = N.trim();
    if (N.empty())
      continue;
    unsigned I = 0;
    while (I < NumRules && N != Infos[I].Name)
      ++I;
    if (I == NumRules) {
      Error = "unknown rule '" + N.str() + "' in refcount:" + Option.str() +
              " (rules:";
      for (const RuleInfo &Info : Infos)
        Error += std::string(" ") + Info.Name;
      Error += ")";
      return false;
    }
    F(I);
  }
  return true;
}
} // namespace

bool krefcheck::ruleOffByDefault(RuleId R) { return offByDefault(unsigned(R)); }

bool krefcheck::configureRules(llvm::StringRef Disabled,
                               llvm::StringRef Enabled, bool Stats,
                               std::string &Error) {
  RuleState Next;
  Next.Stats = Stats;
  for (unsigned I = 0; I < NumRules; ++I)
    Next.Disabled[I] = offByDefault(I);
  if (!forEachNamedRule(Enabled, "EnableRules", Error,
                        [&](unsigned I) { Next.Disabled[I] = false; }) ||
      !forEachNamedRule(Disabled, "DisableRules", Error,
                        [&](unsigned I) { Next.Disabled[I] = true; }))
    return false;
  state() = Next;
  return true;
}

void krefcheck::countExplodedNodes(unsigned Nodes) {
  RuleState &S = state();
  S.Nodes += Nodes;
  ++S.Analyses;
}

void krefcheck::printRuleStats(llvm::raw_ostream &OS, llvm::StringRef File) {
  const RuleState &S = state();
  if (!S.Stats)
    return;
  OS << "krefcheck-cost: " << File << " exploded-nodes " << S.Nodes
     << " analyses " << S.Analyses << '\n';
  for (unsigned I = 0; I < NumRules; ++I)
    if (S.Fired[I])
      OS << "krefcheck-rule-stats: " << File << ' ' << Infos[I].Name << ' '
         << S.Fired[I] << '\n';
}
