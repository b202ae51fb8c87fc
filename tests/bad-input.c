// Bad input gets a clear error naming the problem, never a crash.
// RUN: not %clang_cc1 -analyze -load %t.missing/krefcheck.so -analyzer-checker=refcount %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: error: unable to load plugin '{{.*}}krefcheck.so'
// RUN: not %clang_cc1 -analyze -load %plugin -analyzer-checker=refcount.NoSuchChecker %s 2>&1 | FileCheck %s --check-prefix=NOCHECKER
// NOCHECKER: error: no analyzer checkers or packages are associated with 'refcount.NoSuchChecker'
// RUN: not %clang_cc1 -analyze -load %plugin -analyzer-checker=refcount -analyzer-config refcount.GetOnZero:NoSuchOption=1 %s 2>&1 | FileCheck %s --check-prefix=NOOPTION
// NOOPTION: error: checker 'refcount.GetOnZero' has no option called 'NoSuchOption'
// The whole package enables without complaint on a file with no kernel code.
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=refcount -verify %s
// expected-no-diagnostics
int main(void) { return 0; }
