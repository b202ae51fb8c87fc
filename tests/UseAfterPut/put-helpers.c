// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,nohelper %s -analyzer-config refcount:DisableRules=put-helper-returned
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,nohelper %s -analyzer-config refcount:DisableRules=put-helper-returned
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,noatomic %s -analyzer-config refcount:DisableRules=created-atomic-count
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,noatomic %s -analyzer-config refcount:DisableRules=created-atomic-count

/* refcount.UseAfterPut, rule put-helper-returned (issue 16, class 1): a
 * counting put with no release callback (atomic_dec_and_test(),
 * refcount_dec_and_test()) leaves the release to the code that tests it;
 * once the put helper that tested it has returned, the release is over, and
 * a use in the caller after the helper dropped the last reference the path
 * held (on an object the path created: rules created-atomic-count and
 * fresh-object-init) is a use after put (`on`). Positives: a write, a call,
 * a read on an error path, atomic_long_t, an extra get given back before
 * the helper, a use through an alias, a helper over atomic_dec_and_lock(),
 * a helper over refcount_dec_and_test(). Twins: uses before the helper, an
 * extra get held across it, a count set to two, a plain counter, the
 * release code in the function that tested the result, in a callee of it,
 * a helper that returns the result for the caller to test, a put whose
 * result is ignored. With the rule disabled (`nohelper`) nothing is
 * reported; with rule created-atomic-count disabled (`noatomic`) only the
 * refcount_t helper is. */

// nohelper-no-diagnostics

struct conn {
  int id;
  atomic_t refcnt;
  atomic_t users;
  atomic_long_t lrefs;
  refcount_t usage;
  struct list_head node;
};
int conn_setup(struct conn *c);
void use(struct conn *c);
struct conn *current_conn;
static DEFINE_SPINLOCK(conn_lock);

/* Put helpers named without a release word (a callee named `*_put` gives
 * the object up by rule name-gives-up before its inlined body is seen). */
static void conn_done(struct conn *c) {
  if (atomic_dec_and_test(&c->refcnt)) // on-note 4{{Reference to 'c' released by atomic_dec_and_test(): this path holds no more references to it}} on-note 4{{Taking false branch}}
    kfree(c);
}
static void conn_ldone(struct conn *c) {
  if (atomic_long_dec_and_test(&c->lrefs)) // on-note{{Reference to 'c' released by atomic_long_dec_and_test(): this path holds no more references to it}} on-note{{Taking false branch}}
    kfree(c);
}
static void conn_done_locked(struct conn *c) {
  if (atomic_dec_and_lock(&c->refcnt, &conn_lock)) { // on-note{{Reference to 'c' released by _atomic_dec_and_lock(): this path holds no more references to it}} on-note{{Taking false branch}}
    list_del(&c->node);
    spin_unlock(&conn_lock);
    kfree(c);
  }
}
static void conn_usage_done(struct conn *c) {
  if (refcount_dec_and_test(&c->usage)) // on-note{{Reference to 'c' released by refcount_dec_and_test(): this path holds no more references to it}} on-note{{Taking false branch}} // noatomic-note{{Reference to 'c' released by refcount_dec_and_test(): this path holds no more references to it}} noatomic-note{{Taking false branch}}
    kfree(c);
}
static bool conn_last(struct conn *c) {
  return atomic_dec_and_test(&c->refcnt);
}
static void conn_teardown(struct conn *c) {
  list_del(&c->node);
  c->id = -1;
  kfree(c);
}

void write_after_helper(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  conn_done(c); // on-note{{Calling 'conn_done'}} on-note{{Returning from 'conn_done'}}
  c->id = 0; // on-warning{{Write through 'c' after atomic_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{Write through 'c' after atomic_dec_and_test() released the last reference this path held; the object may already be freed}}
}

int passed_after_error_put(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (conn_setup(c)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    conn_done(c); // on-note{{Calling 'conn_done'}} on-note{{Returning from 'conn_done'}}
    use(c); // on-warning{{'c' is passed to use() after atomic_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{'c' is passed to use() after atomic_dec_and_test() released the last reference this path held; the object may already be freed}}
    return -EINVAL;
  }
  current_conn = c;
  return 0;
}

int long_helper_then_read(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_long_set(&c->lrefs, 1); // on-note{{The call to atomic_long_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  conn_ldone(c); // on-note{{Calling 'conn_ldone'}} on-note{{Returning from 'conn_ldone'}}
  return c->id; // on-warning{{Read through 'c' after atomic_long_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{Read through 'c' after atomic_long_dec_and_test() released the last reference this path held; the object may already be freed}}
}

int extra_get_dropped(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_inc(&c->refcnt); // on-note{{Reference to 'c' taken by atomic_inc()}}
  atomic_dec(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec()}}
  conn_done(c); // on-note{{Calling 'conn_done'}} on-note{{Returning from 'conn_done'}}
  return c->id; // on-warning{{Read through 'c' after atomic_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{Read through 'c' after atomic_dec_and_test() released the last reference this path held; the object may already be freed}}
}

int use_through_alias(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  struct conn *alias;
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  alias = c;
  conn_done(c); // on-note{{Calling 'conn_done'}} on-note{{Returning from 'conn_done'}}
  return alias->id; // on-warning{{Read through 'alias' (the same object as 'c' on this path) after atomic_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{Read through 'alias' (the same object as 'c' on this path) after atomic_dec_and_test() released the last reference this path held; the object may already be freed}}
}

void locked_helper_then_write(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  conn_done_locked(c); // on-note{{Calling 'conn_done_locked'}} on-note{{Returning from 'conn_done_locked'}}
  c->id = 0; // on-warning{{Write through 'c' after _atomic_dec_and_lock() released the last reference this path held; the object may already be freed}} on-note{{Write through 'c' after _atomic_dec_and_lock() released the last reference this path held; the object may already be freed}}
}

int refcount_helper_then_read(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}} // noatomic-note{{Assuming 'c' is non-null}} noatomic-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&c->usage, 1); // on-note{{The call to refcount_set() sets the count of the new object 'c' to one: this path holds its first reference}} // noatomic-note{{The call to refcount_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (conn_setup(c)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}} // noatomic-note{{Assuming the condition is true}} noatomic-note{{Taking true branch}}
    conn_usage_done(c); // on-note{{Calling 'conn_usage_done'}} on-note{{Returning from 'conn_usage_done'}} // noatomic-note{{Calling 'conn_usage_done'}} noatomic-note{{Returning from 'conn_usage_done'}}
    printk("conn %d: setup failed\n", c->id); // on-warning{{Read through 'c' after refcount_dec_and_test() released the last reference this path held; the object may already be freed}} on-note{{Read through 'c' after refcount_dec_and_test() released the last reference this path held; the object may already be freed}} // noatomic-warning{{Read through 'c' after refcount_dec_and_test() released the last reference this path held; the object may already be freed}} noatomic-note{{Read through 'c' after refcount_dec_and_test() released the last reference this path held; the object may already be freed}}
    return -EIO;
  }
  current_conn = c;
  return 0;
}

/* Twins. */
int twin_use_before_helper(void) {
  int id;
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  id = c->id;
  use(c);
  conn_done(c);
  return id; // no-warning
}

int twin_extra_get_held(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  atomic_inc(&c->refcnt);
  conn_done(c);
  current_conn = c;
  return c->id; // no-warning
}

int twin_count_of_two(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 2);
  conn_done(c);
  current_conn = c;
  return c->id; // no-warning
}

int twin_plain_counter(void) {
  int id;
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->users, 1);
  atomic_dec(&c->users);
  id = c->id; // no-warning
  kfree(c);
  return id;
}

void twin_release_code_here(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_long_set(&c->lrefs, 1);
  if (atomic_long_dec_and_test(&c->lrefs))
    printk("conn %d gone\n", c->id); // no-warning
}

void twin_release_code_in_callee(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->refcnt, 1);
  if (atomic_dec_and_test(&c->refcnt))
    conn_teardown(c); // no-warning
}

void twin_result_returned(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->refcnt, 1);
  if (conn_last(c)) {
    list_del(&c->node);
    c->id = -1; // no-warning
    kfree(c);
  }
}

int twin_result_ignored(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  atomic_dec(&c->refcnt);
  return c->id; // no-warning
}
