// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=created-atomic-count
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=created-atomic-count

/* refcount.Underflow, rule created-atomic-count (issue 16, class 1, the
 * atomic_t form): the first count of an object the function allocated and
 * whose lifetime count atomic_set() set to one is the path's; a second put
 * without a get in between is a double put (`on`). Positives: two
 * atomic_dec_and_test() in a row, an error branch that puts and jumps to a
 * label that puts again, a put in both the helper and its caller,
 * atomic_long_t, atomic_dec_and_lock() after atomic_dec(), three puts after
 * one get. Twins: a get between the puts, the error branch returning, a
 * count set to two, a counter the TU never decrements-and-tests, an object
 * the function was given, the helper called once. With the rule disabled
 * (`off`) nothing is reported. */

// off-no-diagnostics

struct conn {
  int id;
  atomic_t refcnt;
  atomic_t users;
  atomic_long_t lrefs;
};
int conn_setup(struct conn *c);
struct conn *current_conn;
static DEFINE_SPINLOCK(conn_lock);

/* Named without a release word (a callee named `*_put` gives the object
 * up by rule name-gives-up before its inlined body is seen). */
static void conn_done(struct conn *c) {
  if (atomic_dec_and_test(&c->refcnt)) // on-note{{Reference to 'c' released by atomic_dec_and_test(): this path holds no more references to it}} on-note{{Taking false branch}}
    kfree(c);
}

void twice_in_a_row(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_dec_and_test(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec_and_test(): this path holds no more references to it}}
  atomic_dec_and_test(&c->refcnt); // on-warning{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}} on-note{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}}
}

int error_branch_then_label(void) {
  int ret;
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  ret = conn_setup(c);
  if (ret) { // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    atomic_dec(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec(): this path holds no more references to it}}
    goto err; // on-note{{Control jumps to line 60}}
  }
  current_conn = c;
  return 0;
err:
  if (atomic_dec_and_test(&c->refcnt)) // on-warning{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}} on-note{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}}
    kfree(c);
  return ret;
}

void helper_and_caller(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  conn_done(c); // on-note{{Calling 'conn_done'}} on-note{{Returning from 'conn_done'}}
  if (atomic_dec_and_test(&c->refcnt)) // on-warning{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}} on-note{{The call to atomic_dec_and_test() puts 'c' again: this path already released every reference it took}}
    kfree(c);
}

void long_twice(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_long_set(&c->lrefs, 1); // on-note{{The call to atomic_long_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_long_dec_and_test(&c->lrefs); // on-note{{Reference to 'c' released by atomic_long_dec_and_test(): this path holds no more references to it}}
  atomic_long_dec(&c->lrefs); // on-warning{{The call to atomic_long_dec() puts 'c' again: this path already released every reference it took}} on-note{{The call to atomic_long_dec() puts 'c' again: this path already released every reference it took}}
}

void lock_after_put(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_dec(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec(): this path holds no more references to it}}
  if (atomic_dec_and_lock(&c->refcnt, &conn_lock)) { // on-warning{{The call to _atomic_dec_and_lock() puts 'c' again: this path already released every reference it took}} on-note{{The call to _atomic_dec_and_lock() puts 'c' again: this path already released every reference it took}}
    spin_unlock(&conn_lock);
    kfree(c);
  }
}

void three_puts_one_get(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_inc(&c->refcnt); // on-note{{Reference to 'c' taken by atomic_inc()}}
  atomic_dec(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec()}}
  atomic_dec(&c->refcnt); // on-note{{Reference to 'c' released by atomic_dec(): this path holds no more references to it}}
  atomic_dec(&c->refcnt); // on-warning{{The call to atomic_dec() puts 'c' again: this path already released every reference it took}} on-note{{The call to atomic_dec() puts 'c' again: this path already released every reference it took}}
}

/* Twins. */
void twin_get_between(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->refcnt, 1);
  atomic_inc(&c->refcnt);
  atomic_dec(&c->refcnt);
  if (atomic_dec_and_test(&c->refcnt)) // no-warning
    kfree(c);
}

int twin_error_branch_returns(void) {
  int ret;
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  ret = conn_setup(c);
  if (ret) {
    conn_done(c);
    return ret;
  }
  current_conn = c;
  return 0; // no-warning
}

void twin_count_of_two(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->refcnt, 2);
  atomic_dec(&c->refcnt);
  conn_done(c); // no-warning
}

void twin_plain_counter(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->users, 1);
  atomic_dec(&c->users);
  atomic_dec(&c->users); // no-warning
  kfree(c);
}

void twin_given_object(struct conn *c) {
  atomic_dec(&c->refcnt);
  conn_done(c); // no-warning
}

void twin_helper_once(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return;
  atomic_set(&c->refcnt, 1);
  conn_done(c); // no-warning
}
