//===- Rules.h - The rule registry of the lifetime model --------*- C++ -*-===//
//
// The named rules of Rules.def: each can be turned off
// (refcount:DisableRules=name;name) and counts how often it fired in the
// translation unit (printed with refcount:RuleStats=true). The model asks
// applyRule(Id) exactly where a rule's condition holds and acts only when it
// answers true.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_RULES_H
#define KREFCHECK_RULES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace krefcheck {

enum class RuleId : unsigned {
#define RULE(Id, Name, Rationale, Motivation) Id,
#include "Rules.def"
  NumRules
};

struct RuleInfo {
  const char *Name;
  const char *Rationale;
  const char *Motivation;
};

const RuleInfo &ruleInfo(RuleId R);

/// Whether the rule is on for this analysis; counts one firing when it is.
/// Call it only once the rule's condition holds.
bool applyRule(RuleId R);

/// Whether the rule is on, without counting (for conditions checked often).
bool ruleEnabled(RuleId R);

/// Reads refcount:DisableRules and refcount:RuleStats (the analyzer's
/// -analyzer-config map) for this thread's analyses and resets the counts.
/// An unknown rule name sets Error ("unknown rule 'x' in refcount:DisableRules
/// (rules: ...)") and returns false.
bool configureRules(llvm::StringRef Disabled, llvm::StringRef Enabled,
                    bool Stats, std::string &Error);
/// Whether Rules.def marks the rule off unless refcount:EnableRules names it.
bool ruleOffByDefault(RuleId R);

/// With refcount:RuleStats=true: one line per rule that fired, for the
/// translation unit File, to OS ("krefcheck-rule-stats: FILE NAME COUNT").
void printRuleStats(llvm::raw_ostream &OS, llvm::StringRef File);

/// Adds the size of one analysis's exploded graph to the TU's cost line
/// (printed by printRuleStats as "krefcheck-cost: FILE exploded-nodes N
/// analyses M").
void countExplodedNodes(unsigned Nodes);

} // namespace krefcheck

#endif
