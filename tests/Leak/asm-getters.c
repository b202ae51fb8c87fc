// RUN: %analyze -analyzer-checker=refcount.Leak %inline -I %S/../../include -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../../include -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -I %S/../../include -verify=expected,plain,%vprefix %s -DNO_CONTRACT
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../../include -verify=expected,plain,%vprefix %s -DNO_CONTRACT

/* refcount.Leak: a same-result getter whose body is inline asm (the
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
