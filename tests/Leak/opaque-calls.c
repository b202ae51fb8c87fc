// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,failed %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,failed %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s -analyzer-config refcount:DisableRules=keeper-failed
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s -analyzer-config refcount:DisableRules=keeper-failed
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep

/* refcount.Leak, rule opaque-call-may-keep: a function the analyzer cannot
 * see into, with no model row, annotation or naming rule, that is given an
 * object the path created may keep it (a command started, whose completion
 * puts it: qla2x00_start_sp()). The object then leaks only on a path that
 * returns an error, a value the path knows is negative (`on`), or the
 * call's own nonzero status (`ret = start(c); if (ret) return ret;`: rule
 * keeper-failed, `failed`; with that rule off, missed).
 * Positives: an error return after the call, the call failing (`ret < 0`),
 * the atomic_t form, a logging call (keeps nothing), a call with a body in
 * the file, the call's nonzero status returned. Twins: the success return
 * after the call, for kref and atomic_t counts, the object freed when the
 * call fails, another call's status returned. With the rule off (`nokeep`) the success paths are reported too. */

struct cmd {
  int id;
  struct kref ref;
  atomic_t users;
};
int cmd_start(struct cmd *c);
static void cmd_release(struct kref *k) {
  kfree(container_of(k, struct cmd, ref));
}
void cmd_done(struct cmd *c) {
  if (atomic_dec_and_test(&c->users))
    kfree(c);
}
static int cmd_check(struct cmd *c) { return c->id > 3; }

int twin_started(void) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  cmd_start(c);
  return 0; // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int twin_started_atomic(void) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->users, 1); // nokeep-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  cmd_start(c);
  return 0; // nokeep-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} nokeep-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
}

int leak_started_then_error(int n) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // on-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  cmd_start(c);
  if (n > 4) // on-note{{Assuming 'n' is > 4}} on-note{{Taking true branch}} // nokeep-note{{Assuming 'n' is <= 4}} nokeep-note{{Taking false branch}}
    return -EINVAL; // on-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  return 0; // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int leak_start_fails(void) {
  int ret;
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->users, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  ret = cmd_start(c); // nokeep-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} nokeep-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  if (ret < 0) // on-note{{Assuming 'ret' is < 0}} on-note{{Taking true branch}}
    return ret; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  return 0;
}

int leak_after_logging(void) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // on-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  printk("cmd %p\n", c);
  return 0; // on-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int leak_after_local_check(void) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // on-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (cmd_check(c)) // on-note{{Taking false branch}} // nokeep-note{{Taking false branch}}
    kref_put(&c->ref, cmd_release);
  return 0; // on-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

/* -EIOCBQUEUED says the I/O was queued, not that it failed (rule
 * in-progress-not-error): __blkdev_direct_IO()'s asynchronous return. */
#define EIOCBQUEUED 529
int twin_queued(void) {
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->users, 1); // nokeep-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  cmd_start(c);
  return -EIOCBQUEUED; // nokeep-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} nokeep-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
}

/* Rule keeper-failed: returning the nonzero status of the call that may
 * have kept the object says that call failed, and a failing callee keeps
 * nothing. */
int cmd_wait(int n);
int leak_start_status_returned(void) {
  int ret;
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // failed-note{{Assuming 'c' is non-null}} failed-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // failed-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  ret = cmd_start(c); // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  if (ret) // failed-note{{Assuming 'ret' is not equal to 0}} failed-note{{Taking true branch}}
    return ret; // failed-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} failed-note{{Returning the nonzero status of cmd_start(): it failed and kept nothing, so 'c' is still this path's to put}} failed-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  return 0;
}

int twin_start_status_freed(void) {
  int ret;
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&c->ref); // nokeep-note{{The call to kref_init() sets the count of the new object 'c' to one: this path holds its first reference}}
  ret = cmd_start(c);
  if (ret) // nokeep-note{{Assuming 'ret' is 0}} nokeep-note{{Taking false branch}}
    kfree(c);
  return ret; // nokeep-warning{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 'c', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int twin_other_status_returned(int n) {
  int ret;
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->users, 1); // nokeep-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  cmd_start(c);
  ret = cmd_wait(n); // nokeep-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} nokeep-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  if (ret)
    return ret; // no-warning
  return 0;
}

static int cmd_create_and_start(void) {
  int ret;
  struct cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // failed-note{{Assuming 'c' is non-null}} failed-note{{Taking false branch}} // nokeep-note{{Assuming 'c' is non-null}} nokeep-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->users, 1); // failed-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}} // nokeep-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  ret = cmd_start(c); // nokeep-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} nokeep-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  if (ret) // failed-note{{Assuming 'ret' is not equal to 0}} failed-note{{Taking true branch}}
    return ret; // failed-note{{Returning the nonzero status of cmd_start(): it failed and kept nothing, so 'c' is still this path's to put}}
  return 0;
} // failed-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} failed-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
int leak_inlined_start_status(void) {
  return cmd_create_and_start(); // failed-note{{Calling 'cmd_create_and_start'}} // nokeep-note{{Calling 'cmd_create_and_start'}}
}
