// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep

/* refcount.Leak, rule opaque-call-may-keep: a function the analyzer cannot
 * see into, with no model row, annotation or naming rule, that is given an
 * object the path created may keep it (a command started, whose completion
 * puts it: qla2x00_start_sp()). The object then leaks only on a path that
 * returns an error, a value the path knows is negative (`on`; `if (ret)
 * return ret;` after the call is not known to be negative, and is missed).
 * Positives: an error return after the call, the call failing (`ret < 0`),
 * the atomic_t form, a logging call (keeps nothing), a call with a body in
 * the file. Twins: the success return after the call, for kref and atomic_t
 * counts. With the rule off (`nokeep`) the success paths are reported too. */

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
