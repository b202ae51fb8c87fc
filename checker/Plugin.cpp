//===- Plugin.cpp - The analyzer plugin's entry points --------------------===//
//
// Loaded with `clang --analyze -Xclang -load -Xclang krefcheck.so`: the
// analyzer looks these two symbols up by name. The checkers themselves are
// registered by krefcheck::registerCheckers (Registration.cpp), shared with
// the clang-tidy module.
//
//=== ---------------------------------------------------------------------===//

#include "Registration.h"
#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"

using namespace clang;
using namespace ento;

extern "C" __attribute__((visibility("default"))) void
clang_registerCheckers(CheckerRegistry &Registry) {
  krefcheck::registerCheckers(Registry);
}

extern "C" __attribute__((visibility("default")))
const char clang_analyzerAPIVersionString[] = CLANG_ANALYZER_API_VERSION_STRING;
