// RUN: %clang_cc1 -analyze -load %plugin -I %inputs -analyzer-checker=core,refcount.Leak,debug.ExprInspection %inline -verify %s
// RUN: %clang_cc1 -analyze -load %plugin -I %inputs -analyzer-checker=core,refcount.Leak,debug.ExprInspection %proto -verify %s
//
// A get or put that refcount.LifetimeModel evaluates is a call the analyzer
// does not see into: what its arguments point to and the globals may change
// there, as across any call it does not inline. Other memory keeps its
// values. (Not forgetting them also kept apart paths that `core` alone lets
// meet: half again as many states in lookup-heavy kernel functions.)
void clang_analyzer_eval(int);
int global_flag;

void get_forgets_object(struct device *dev, void **slot, void *data) {
  dev->driver_data = data;
  *slot = data;
  global_flag = 1;
  get_device(dev);
  // Both outcomes: the analyzer no longer knows.
  clang_analyzer_eval(dev->driver_data == data); // expected-warning{{TRUE}} expected-warning{{FALSE}}
  clang_analyzer_eval(global_flag == 1);         // expected-warning{{TRUE}} expected-warning{{FALSE}}
  clang_analyzer_eval(*slot == data);            // expected-warning{{TRUE}}
  put_device(dev);
}

void lookup_forgets_start(struct device_node *from, void **slot, void *data) {
  struct device_node *np;
  *slot = data;
  np = of_find_node_by_name(from, "leds");
  clang_analyzer_eval(*slot == data); // expected-warning{{TRUE}}
  of_node_put(np);
}

/* The argument itself is not changed: the reference is still tracked. */
void get_still_tracked(struct device *dev) {
  get_device(dev);
  dev->driver_data = 0;
} // no-warning: a get on a borrowed pointer is reported only on failure

int get_then_fail(struct device *dev) {
  get_device(dev);
  dev->driver_data = 0;
  return -22; // expected-warning{{Reference to 'dev' taken by get_device() is not released on this error path}}
}
