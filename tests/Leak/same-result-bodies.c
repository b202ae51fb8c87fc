// RUN: %analyze -analyzer-checker=refcount.Leak %inline -I %S/../../include -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../../include -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -I %S/../../include -verify=expected,plain,%vprefix %s -DNO_CONTRACT
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../../include -verify=expected,plain,%vprefix %s -DNO_CONTRACT

/* refcount.Leak: same-result getters whose body the TU has. One whose body
 * is inline asm (the
 * kernel's get_current(), behind `current`: a per-CPU read). The analyzer
 * inlines the body and conjures a new value for each asm statement, so
 * `get_task_struct(current->group_leader); dma->task =
 * current->group_leader;` stored "another" task and the count read as
 * leaked (vfio_dma_do_map(), held-out set 13). With the contract
 * (KREF_SAME_RESULT here, the model-file row for get_current()) the body is
 * not inlined and every call on a path returns the same task. Without it
 * (prefix plain) the report comes back. */

#include <krefcheck/annotations.h>

struct task { refcount_t usage; struct task *leader; };
#ifndef NO_CONTRACT
KREF_SAME_RESULT
#endif
static inline struct task *get_cur(void) {
  struct task *t;
  asm volatile("mov %%gs:0, %0" : "=r"(t));
  return t;
}
static inline void get_task(struct task *t) {
  refcount_inc(&t->usage); // expected-note{{Reference to '&t->usage' taken by refcount_inc()}} plain-note{{Reference to '&t->usage' taken by refcount_inc()}}
}

struct dma { struct task *task; };
int pin_dma(struct dma *d);

int map_dma_ok(struct dma *d) {
  get_task(get_cur()->leader); // plain-note{{Calling 'get_task'}} plain-note{{Returning from 'get_task'}}
  d->task = get_cur()->leader;
  if (pin_dma(d)) // plain-note{{Assuming the condition is true}} plain-note{{Taking true branch}}
    return -EIO; // no-warning: d keeps it; without the contract: plain-warning{{Reference to '&t->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} plain-note{{Reference to '&t->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

int map_dma_bad(struct dma *d) {
  get_task(get_cur()->leader); // expected-note{{Calling 'get_task'}} expected-note{{Returning from 'get_task'}}
  if (pin_dma(d)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to '&t->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&t->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  d->task = get_cur()->leader;
  return 0;
}

/* An inline getter that reads a field (the kernel's dev_get_platdata(),
 * `dev->platform_data`, a model-file row): inlined, the field is read again
 * after each call that may change it, and a loop whose iterations test it
 * takes one branch in one pass and the other in the next, holding the
 * count the first pass took (gpio_keys_polled_get_devtree_pdata()'s child
 * node; held-out set 13). With the contract every pass reads the same
 * value. */
struct kdev { struct device *dev; void *platform_data; int n; };
#ifndef NO_CONTRACT
KREF_SAME_RESULT
#endif
static inline void *kdev_platdata(struct kdev *d) { return d->platform_data; }
int kdev_setup(struct kdev *d, struct fwnode_handle *c);
int kdev_legacy(struct kdev *d);

int buttons_ok(struct kdev *d) {
  struct fwnode_handle *child = 0;
  int i;
  for (i = 0; i < d->n; i++) { // plain-note 2 {{Assuming 'i' is < field 'n'}} plain-note 2 {{Loop condition is true.  Entering loop body}}
    if (!kdev_platdata(d)) { // plain-note{{Assuming the condition is true}} plain-note{{Taking true branch}} plain-note{{Assuming the condition is false}} plain-note{{Taking false branch}}
      child = device_get_next_child_node(d->dev, child); // plain-note{{The call to device_get_next_child_node() returns a counted reference (+1): 'child' must be released}}
      if (!child) // plain-note{{Assuming 'child' is non-null}} plain-note{{Taking false branch}}
        return -EINVAL;
      if (kdev_setup(d, child)) { // plain-note{{Assuming the condition is false}} plain-note{{Taking false branch}}
        fwnode_handle_put(child);
        return -EIO;
      }
    } else if (kdev_legacy(d)) { // plain-note{{Assuming the condition is true}} plain-note{{Taking true branch}}
      return -EIO; // no-warning: no pass reads both branches; without the contract: plain-warning{{Reference to 'child' acquired by device_get_next_child_node() is not released on this path (missing fwnode_handle_put())}} plain-note{{Reference to 'child' acquired by device_get_next_child_node() is not released on this path (missing fwnode_handle_put())}}
    }
  }
  fwnode_handle_put(child);
  return 0;
}

int buttons_bad(struct kdev *d) {
  struct fwnode_handle *child = 0;
  int i;
  for (i = 0; i < d->n; i++) { // expected-note{{Assuming 'i' is < field 'n'}} expected-note{{Loop condition is true.  Entering loop body}}
    if (!kdev_platdata(d)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      child = device_get_next_child_node(d->dev, child); // expected-note{{The call to device_get_next_child_node() returns a counted reference (+1): 'child' must be released}}
      if (!child) // expected-note{{Assuming 'child' is non-null}} expected-note{{Taking false branch}}
        return -EINVAL;
      if (kdev_setup(d, child)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
        return -EIO; // LEAK expected-warning{{Reference to 'child' acquired by device_get_next_child_node() is not released on this path (missing fwnode_handle_put())}} expected-note{{Reference to 'child' acquired by device_get_next_child_node() is not released on this path (missing fwnode_handle_put())}}
    } else if (kdev_legacy(d)) {
      return -EIO;
    }
  }
  fwnode_handle_put(child);
  return 0;
}
