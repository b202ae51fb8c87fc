// RUN: %analyze -analyzer-checker=refcount.Leak,refcount.UseAfterPut,refcount.Underflow %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak,refcount.UseAfterPut,refcount.Underflow %proto -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak,refcount.UseAfterPut,refcount.Underflow %inline -verify=expected,noassert,%vprefix %s -analyzer-config refcount:DisableRules=assertion-path
// RUN: %analyze -analyzer-checker=refcount.Leak,refcount.UseAfterPut,refcount.Underflow %proto -verify=expected,noassert,%vprefix %s -analyzer-config refcount:DisableRules=assertion-path

/* Rule assertion-path: a lifetime report whose path takes an assertion's
 * failing branch (a test in the body of WARN_ON(), WARN_ONCE(),
 * dev_WARN_ONCE(): the model file's `macros: assertions`) is dropped; the
 * code declares the state impossible. Reports on paths where the assertion
 * held, and tests the caller wrote inside the macro's argument, are kept.
 * The `noassert` lines are the reports with the rule turned off. */

/* include/asm-generic/bug.h: the condition is kept in an int, then tested */
#undef WARN_ON
#define WARN_ON(condition)                                                     \
  ({                                                                           \
    int __ret_warn_on = !!(condition);                                         \
    if (unlikely(__ret_warn_on))                                               \
      printk("WARNING");                                                       \
    unlikely(__ret_warn_on);                                                   \
  })
#define dev_WARN_ONCE(dev, condition, fmt...) WARN_ONCE(condition, fmt)

int setup(void);
int match_foo(struct device *dev, void *data);
int match_any(struct device *dev, const void *data);
bool is_foo(struct device *dev);
struct foo { int id; struct device dev; };

/* cxl's to_cxl_port(): a type check that the lookup's match callback has
 * already made, so its WARN branch never runs after the lookup */
static struct foo *to_foo(struct device *dev) {
  if (dev_WARN_ONCE(dev, !is_foo(dev), "not a foo")) // noassert-note 2 {{Taking true branch}} noassert-note{{Assuming the condition is true}} noassert-note{{'__ret_do_once' is true}} noassert-note{{Left side of '&&' is true}}
    return NULL;
  return container_of(dev, struct foo, dev);
}

struct foo *find_foo(struct device *parent) {
  struct device *dev = device_find_child(parent, NULL, match_foo); // noassert-note{{The call to device_find_child() returns a counted reference (+1): 'dev' must be released}}
  if (!dev) // noassert-note{{Assuming 'dev' is non-null}} noassert-note{{Taking false branch}}
    return NULL;
  return to_foo(dev); // no-warning (rule on); noassert-note{{Calling 'to_foo'}} noassert-note{{Returning from 'to_foo'}} noassert-note{{Reference to 'dev' acquired by device_find_child() is not released on this path (missing put_device())}} noassert-warning{{Reference to 'dev' acquired by device_find_child() is not released on this path (missing put_device())}}
}

/* the same converter without an assertion: its NULL return leaks */
static struct foo *to_foo_checked(struct device *dev) {
  if (!is_foo(dev)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return NULL;
  return container_of(dev, struct foo, dev);
}

struct foo *find_foo_checked(struct device *parent) {
  struct device *dev = device_find_child(parent, NULL, match_foo); // expected-note{{The call to device_find_child() returns a counted reference (+1): 'dev' must be released}}
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  return to_foo_checked(dev); // expected-note{{Calling 'to_foo_checked'}} expected-note{{Returning from 'to_foo_checked'}} expected-note{{Reference to 'dev' acquired by device_find_child() is not released on this path (missing put_device())}} expected-warning{{Reference to 'dev' acquired by device_find_child() is not released on this path (missing put_device())}}
}

int probe_child_warn(struct device_node *np) {
  struct device_node *child = of_get_child_by_name(np, "x"); // noassert-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'child' must be released}}
  if (!child) // noassert-note{{Assuming 'child' is non-null}} noassert-note{{Taking false branch}}
    return -ENODEV;
  if (WARN_ON(setup())) // noassert-note{{Assuming the condition is false}} noassert-note 2{{Taking true branch}}
    return -EINVAL; // no-warning (rule on); noassert-note{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} noassert-warning{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  of_node_put(child);
  return 0;
}

int probe_child_fails(struct device_node *np) {
  struct device_node *child = of_get_child_by_name(np, "x"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'child' must be released}}
  if (!child) // expected-note{{Assuming 'child' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // expected-note{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} expected-warning{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  of_node_put(child);
  return 0;
}

/* A WARN_ON() that held: the path goes on, and its leak is reported. */
int warn_held_then_fails(struct device_node *np, int state) {
  struct device_node *child = of_get_child_by_name(np, "x"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'child' must be released}}
  if (!child) // expected-note{{Assuming 'child' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  WARN_ON(state > 3); // expected-note{{Assuming 'state' is <= 3}} expected-note{{Taking false branch}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // expected-note{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} expected-warning{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  of_node_put(child);
  return 0;
}

/* The caller's own test inside the argument: setup() true with state <= 3
 * does not fire the WARN, so that path's leak is reported. */
int argument_test(struct device_node *np, int state) {
  struct device_node *child = of_get_child_by_name(np, "x"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'child' must be released}}
  int busy = 0;
  if (!child) // expected-note{{Assuming 'child' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  WARN_ON((busy = setup()) && state > 3); // expected-note{{Assuming 'busy' is not equal to 0}} expected-note{{Assuming 'state' is <= 3}} expected-note{{Left side of '&&' is true}} expected-note{{Taking false branch}}
  if (busy) // expected-note{{'busy' is not equal to 0}} expected-note{{Taking true branch}}
    return -EBUSY; // expected-note{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} expected-warning{{Reference to 'child' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  of_node_put(child);
  return 0;
}

int use_after_put_warn(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, match_any); // noassert-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // noassert-note{{Assuming 'd' is non-null}} noassert-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // noassert-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  if (WARN_ON(setup())) // noassert-note{{Assuming the condition is false}} noassert-note 2{{Taking true branch}}
    dev_err(d, "late"); // no-warning (rule on); noassert-note{{'d' is passed to dev_err() after put_device() released the last reference this path held; the object may already be freed}} noassert-warning{{'d' is passed to dev_err() after put_device() released the last reference this path held; the object may already be freed}}
  return 0;
}

int use_after_put(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, match_any); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    dev_err(d, "late"); // expected-note{{'d' is passed to dev_err() after put_device() released the last reference this path held; the object may already be freed}} expected-warning{{'d' is passed to dev_err() after put_device() released the last reference this path held; the object may already be freed}}
  return 0;
}

void double_put_warn(struct device_node *np) {
  struct device_node *c = of_get_child_by_name(np, "x"); // noassert-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'c' must be released}}
  if (!c) // noassert-note{{Assuming 'c' is non-null}} noassert-note{{Taking false branch}}
    return;
  of_node_put(c); // noassert-note{{Reference to 'c' released by of_node_put(): this path holds no more references to it}}
  if (WARN_ON(setup())) // noassert-note{{Assuming the condition is false}} noassert-note 2{{Taking true branch}}
    of_node_put(c); // no-warning (rule on); noassert-note{{The call to of_node_put() puts 'c' again: this path already released every reference it took}} noassert-warning{{The call to of_node_put() puts 'c' again: this path already released every reference it took}}
}

void double_put(struct device_node *np) {
  struct device_node *c = of_get_child_by_name(np, "x"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'c' must be released}}
  if (!c) // expected-note{{Assuming 'c' is non-null}} expected-note{{Taking false branch}}
    return;
  of_node_put(c); // expected-note{{Reference to 'c' released by of_node_put(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    of_node_put(c); // expected-note{{The call to of_node_put() puts 'c' again: this path already released every reference it took}} expected-warning{{The call to of_node_put() puts 'c' again: this path already released every reference it took}}
}

/* WARN_ONCE() keeps its NULL test in a bool (validation-lifetime #3): the
 * acquire failed on that branch, with or without the rule. */
struct device_node *warn_ok(struct device_node *prev) {
  struct device_node *port = of_get_parent(prev);
  if (WARN_ONCE(!port, "no parent"))
    return NULL; // no-warning
  of_node_put(port);
  return NULL;
}
struct device_node *warn_bad(struct device_node *prev) {
  struct device_node *port = of_get_parent(prev); // noassert-note{{The call to of_get_parent() returns a counted reference (+1): 'port' must be released}}
  if (!port) // noassert-note{{Assuming 'port' is non-null}} noassert-note{{Taking false branch}}
    return NULL;
  if (WARN_ONCE(setup(), "setup")) // noassert-note{{'__ret_do_once' is true}} noassert-note{{Assuming the condition is false}} noassert-note{{Left side of '&&' is true}} noassert-note 2{{Taking true branch}}
    return NULL; // no-warning (rule on); noassert-note{{Reference to 'port' acquired by of_get_parent() is not released on this path (missing of_node_put())}} noassert-warning{{Reference to 'port' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  of_node_put(port);
  return NULL;
}

