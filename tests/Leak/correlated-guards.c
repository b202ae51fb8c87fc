// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=correlated-guard
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=correlated-guard

/* refcount.Leak, rule correlated-guard: a get guarded by `if (C)` where C
 * reads memory (a field, a dereference), and a later test of the same C
 * that skips the put: the analyzer forgot C's value when a call
 * invalidated the memory, and the path on which C changed in between is
 * not one the code takes (`on` drops it). The guard may enclose the call of
 * a helper that takes the count (fs/char_dev.c cdev_device_add():
 * `if (dev->devt) cdev_add(...)`, the get inside cdev_add()), and the
 * later test may end in C after `&&` (`if (rc && dev->devt)
 * cdev_del(...)`). Positives in both modes: a different condition, and a
 * local variable the path assigned again (its value is known, not
 * forgotten: the put is really skipped). */

struct chardev {
  struct device *parent;
  unsigned int devt;
  unsigned int flags;
};
int chardev_map(struct chardev *c);
int chardev_register(struct chardev *c);
void chardev_unmap(struct chardev *c);
int chardev_flag(void);

static int chardev_add(struct chardev *c) {
  int err = chardev_map(c);
  if (err) // expected-note {{Assuming 'err' is 0}} expected-note {{Taking false branch}} off-note {{Assuming 'err' is 0}} off-note {{Taking false branch}}
    return err;
  get_device(c->parent); // expected-note {{Reference to 'c->parent' taken by get_device()}} off-note {{Reference to 'c->parent' taken by get_device()}}
  return 0;
}

static void chardev_del(struct chardev *c) {
  chardev_unmap(c);
  put_device(c->parent);
}

/* The guard encloses the helper that takes the count. */
int chardev_device_add(struct chardev *c) {
  int rc;

  if (c->devt) { // off-note {{Assuming field 'devt' is not equal to 0}} off-note {{Taking true branch}}
    rc = chardev_add(c); // off-note {{Calling 'chardev_add'}} off-note {{Returning from 'chardev_add'}}
    if (rc) // off-note {{'rc' is 0}} off-note {{Taking false branch}}
      return rc;
  }
  rc = chardev_register(c);
  if (rc && c->devt) // off-note {{Assuming 'rc' is not equal to 0}} off-note {{Left side of '&&' is true}} off-note {{Assuming field 'devt' is 0}} off-note {{Taking false branch}}
    chardev_del(c);
  return rc; // off-note{{Returning the nonzero status of chardev_register(): a failure, by the kernel's 0-or-errno convention}} off-warning{{Reference to 'c->parent' taken by get_device() is not released on this error path (missing put_device())}} off-note{{Reference to 'c->parent' taken by get_device() is not released on this error path (missing put_device())}} (on: no-warning)
}

/* The same get, undone under another condition: reported in both modes. */
int chardev_device_add_other(struct chardev *c) {
  int rc;

  if (c->devt) { // expected-note {{Assuming field 'devt' is not equal to 0}} expected-note {{Taking true branch}}
    rc = chardev_add(c); // expected-note {{Calling 'chardev_add'}} expected-note {{Returning from 'chardev_add'}}
    if (rc) // expected-note {{'rc' is 0}} expected-note {{Taking false branch}}
      return rc;
  }
  rc = chardev_register(c);
  if (rc && (c->flags & 4)) // expected-note {{Assuming 'rc' is not equal to 0}} expected-note {{Left side of '&&' is true}} expected-note {{Assuming the condition is false}} expected-note {{Taking false branch}}
    chardev_del(c);
  return rc; // expected-note{{Returning the nonzero status of chardev_register(): a failure, by the kernel's 0-or-errno convention}} expected-warning{{Reference to 'c->parent' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'c->parent' taken by get_device() is not released on this error path (missing put_device())}}
}

/* The guard in the same function, tested again whole. */
int flagged_get(struct chardev *c, struct device *adap) {
  int rc;

  if (c->flags & 1) // off-note {{Assuming the condition is true}} off-note {{Taking true branch}}
    get_device(adap); // off-note {{Reference to 'adap' taken by get_device()}}
  rc = chardev_register(c);
  if (rc < 0) { // off-note {{Assuming 'rc' is < 0}} off-note {{Taking true branch}}
    if (c->flags & 1) // off-note {{Assuming the condition is false}} off-note {{Taking false branch}}
      put_device(adap);
    return rc; // off-warning{{Reference to 'adap' taken by get_device() is not released on this error path (missing put_device())}} off-note{{Reference to 'adap' taken by get_device() is not released on this error path (missing put_device())}} (on: no-warning)
  }
  return 0;
}

/* A local the path assigned again: the put is really skipped. */
int local_guard(struct chardev *c, struct device *adap) {
  int on = chardev_flag();
  int rc;

  if (on) // expected-note {{Assuming 'on' is not equal to 0}} expected-note {{Taking true branch}}
    get_device(adap); // expected-note {{Reference to 'adap' taken by get_device()}}
  on = chardev_flag();
  rc = chardev_register(c);
  if (rc < 0) { // expected-note {{Assuming 'rc' is < 0}} expected-note {{Taking true branch}}
    if (on) // expected-note {{Assuming 'on' is 0}} expected-note {{Taking false branch}}
      put_device(adap);
    return rc; // expected-warning{{Reference to 'adap' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'adap' taken by get_device() is not released on this error path (missing put_device())}}
  }
  return 0;
}
