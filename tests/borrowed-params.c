// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Underflow -I %inputs -I %S/../include %inline -verify=expected %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Underflow -I %inputs -I %S/../include %proto -verify=expected %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Underflow -I %inputs -I %S/../include %inline -analyzer-config refcount:BorrowedParams=true -verify=expected,borrowed %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Underflow -I %inputs -I %S/../include %proto -analyzer-config refcount:BorrowedParams=true -verify=expected,borrowed %s
//
// refcount:BorrowedParams=true: a function borrows its pointer parameters
// unless its name or contract says it releases or consumes them, so a put
// of one it never got is reported. Off (the default), only parameters
// marked KREF_BORROWS(n) (or a model row of kind borrow) are.

#include <krefcheck/annotations.h>

int use(void *p);

void show_node(struct device_node *np) {
  use(np);
  of_node_put(np); // borrowed-warning{{The call to of_node_put() puts 'np', a reference this function only borrows: its caller still counts on it}}
}
void show_node_held(struct device_node *np) {
  of_node_get(np);
  use(np);
  of_node_put(np); // no-warning: its own reference
}
KREF_BORROWS(1) void show_node_marked(struct device_node *np) {
  of_node_put(np); // expected-warning{{The call to of_node_put() puts 'np', a reference this function only borrows: its caller still counts on it}}
}
void show_dev(struct device *dev) {
  put_device(dev); // borrowed-warning{{The call to put_device() puts 'dev', a reference this function only borrows}}
}
/* The name says it releases or takes over what it is given. */
void node_release(struct device_node *np) {
  of_node_put(np); // no-warning
}
void node_attach(struct device_node *np) {
  of_node_put(np); // no-warning
}
/* Its contract says it consumes or releases the parameter. */
KREF_CONSUMES(1) void node_finish(struct device_node *np) {
  of_node_put(np); // no-warning
}
KREF_RELEASES(1) void node_done(struct device_node *np) {
  of_node_put(np); // no-warning
}
/* A put of a pointer that is no parameter is not about borrowing. */
static struct device_node *global_np;
void put_global(void) {
  of_node_put(global_np); // no-warning
}
