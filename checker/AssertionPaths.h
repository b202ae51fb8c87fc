//===- AssertionPaths.h - Reports on paths an assertion rules out -*- C++
//-*-===//
//
// Rule assertion-path (Rules.def): a lifetime report whose path takes the
// failing branch of a kernel assertion (WARN_ON(), WARN_ONCE(),
// dev_WARN_ONCE(), ...: the `macros: assertions` row of the model file) is
// dropped. The code states that such a path cannot happen, and the WARN
// reports it at run time when it does.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_ASSERTIONPATHS_H
#define KREFCHECK_ASSERTIONPATHS_H

#include "clang/StaticAnalyzer/Core/BugReporter/BugReporter.h"

namespace krefcheck {

/// Adds the visitor that drops R when its path took an assertion's failing
/// branch (nothing when the rule is off).
void dropOnAssertionPaths(clang::ento::PathSensitiveBugReport &R);

} // namespace krefcheck

#endif
