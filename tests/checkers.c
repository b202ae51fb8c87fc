// The plugin registers the package `refcount` with one line of help each.
// RUN: %clang_cc1 -load %plugin -analyzer-checker-help 2>&1 | FileCheck %s
// RUN: %clang_cc1 -load %plugin -analyzer-checker-help-developer 2>&1 | FileCheck %s --check-prefix=DEV
// CHECK: refcount.GetOnZero{{ +}}Finds gets (increments) of a reference count that is or may be zero
// CHECK: refcount.UnsafePromotion{{ +}}Finds internal (lookup) references promoted with a plain get
// The modeling checker is hidden from users.
// CHECK-NOT: refcount.Model
// DEV: refcount.Model{{ +}}Models reference counts
