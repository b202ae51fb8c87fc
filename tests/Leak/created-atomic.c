// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config "refcount:DisableRules=created-atomic-count;opaque-call-may-keep"
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config "refcount:DisableRules=created-atomic-count;opaque-call-may-keep"
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,nolast %s -analyzer-config "refcount:DisableRules=created-last-put;opaque-call-may-keep"
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,nolast %s -analyzer-config "refcount:DisableRules=created-last-put;opaque-call-may-keep"

/* refcount.Leak, rule created-atomic-count (issue 16, class 1, the atomic_t
 * form): atomic_set(&o->f, 1) on an object the function allocated creates
 * its first reference when the translation unit uses o->f as a lifetime
 * count (here conn_put()'s atomic_dec_and_test()): a path that neither puts
 * it, frees it nor hands it over leaks it (`on`). Positives: an error
 * return, a goto ladder, atomic_long_t, an extra atomic_inc() with one put,
 * a creator of this TU inlined into its caller, a loop that creates one per
 * iteration, a put in one arm only, an out-parameter set only on success.
 * Twins: kfree() or the put on the error path, a counter the TU never
 * decrements-and-tests (a plain usage count), a count set to two, a get or
 * a re-init on an object the function was given, the creator's result
 * handed out, a list insert per iteration, the put under its lock
 * (atomic_dec_and_lock()). With the rule disabled (`off`) nothing is
 * reported. Rule created-last-put: the last put of a count the path created
 * and never published returns true, so no leak on its other outcome (twins:
 * the put on the exit path, a pending count whose zero completes the
 * request; positive: an extra pending count taken); with the rule off
 * (`nolast`) the pending count's twin is reported. With rule
 * created-atomic-count off (`off`), only the kref leaks of the pending-count
 * cases are reported: their atomic puts are not followed. An object whose
 * two created counts both leak is reported once, by its kref. */



struct conn {
  int id;
  atomic_t refcnt;
  atomic_t users;
  atomic_long_t lrefs;
  struct list_head node;
};
int conn_setup(struct conn *c);
struct conn *current_conn;
static DEFINE_SPINLOCK(conn_lock);
static LIST_HEAD(conn_list);

/* The TU puts refcnt and lrefs with a dec-and-test: they are lifetime
 * counts. users is only ever incremented and read: a plain counter. */
void conn_put(struct conn *c) {
  if (atomic_dec_and_test(&c->refcnt))
    kfree(c);
}
void conn_lput(struct conn *c) {
  if (atomic_long_dec_and_test(&c->lrefs))
    kfree(c);
}
int conn_users(struct conn *c) { return atomic_read(&c->users); }

int leak_error_return(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (conn_setup(c)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  current_conn = c;
  return 0;
}

int leak_goto_ladder(int n) {
  int ret;
  char *buf;
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  buf = kmalloc(n, GFP_KERNEL);
  if (!buf) { // on-note{{Assuming 'buf' is null}} on-note{{Taking true branch}}
    ret = -ENOMEM; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
    goto err_conn;
  }
  ret = conn_setup(c);
  if (ret)
    goto err_buf;
  current_conn = c;
  return 0;
err_buf:
  kfree(buf);
err_conn:
  return ret;
}

int leak_long_counter(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_long_set(&c->lrefs, 1); // on-note{{The call to atomic_long_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (conn_setup(c)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'c', whose count atomic_long_set() set to one, is neither put nor freed on this path (missing atomic_long_dec_and_test())}} on-note{{The new object 'c', whose count atomic_long_set() set to one, is neither put nor freed on this path (missing atomic_long_dec_and_test())}}
  current_conn = c;
  return 0;
}

int leak_extra_get(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  atomic_inc(&c->refcnt); // on-note{{Reference to 'c' taken by atomic_inc()}}
  if (conn_setup(c)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    if (atomic_dec_and_test(&c->refcnt)) // on-note{{Reference to 'c' released by atomic_dec_and_test()}} on-note{{Taking false branch}}
      kfree(c);
    return -EINVAL; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  }
  current_conn = c;
  return 0;
}

static struct conn *conn_create(void) {
  struct conn *c = kmalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return NULL;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  return c;
}

int leak_created_by_helper(void) {
  struct conn *c = conn_create(); // on-note{{Calling 'conn_create'}} on-note{{Returning from 'conn_create'}}
  if (!c) // on-note{{'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  if (conn_setup(c)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EIO; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  list_add(&c->node, &conn_list);
  return 0;
}

void leak_per_iteration(int n) {
  for (int i = 0; i < n; i++) { // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{Assuming 'i' is < 'n'}} on-note{{Loop condition is true.  Entering loop body}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
    struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
    if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
      return;
    atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
    c->id = i;
  }
}

int leak_put_in_one_arm(int flags) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (flags & 1) { // on-note{{Assuming the condition is false}} on-note{{Taking false branch}}
    conn_put(c);
    return -EINVAL;
  }
  if (flags & 2) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EAGAIN; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  current_conn = c;
  return 0;
}

int leak_out_param(struct conn **out) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c) // on-note{{Assuming 'c' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  atomic_set(&c->refcnt, 1); // on-note{{The call to atomic_set() sets the count of the new object 'c' to one: this path holds its first reference}}
  if (conn_setup(c)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EIO; // on-warning{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'c', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
  *out = c;
  return 0;
}

/* Twins. */
int twin_kfree_on_error(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  if (conn_setup(c)) {
    kfree(c);
    return -EINVAL;
  }
  current_conn = c;
  return 0; // no-warning
}

int twin_put_on_error(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  if (conn_setup(c)) {
    conn_put(c);
    return -EINVAL;
  }
  list_add(&c->node, &conn_list);
  return 0; // no-warning
}

int twin_plain_counter(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->users, 1);
  atomic_inc(&c->users);
  if (conn_setup(c))
    return -EINVAL; // no-warning
  current_conn = c;
  return 0;
}

int twin_count_of_two(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 2);
  if (conn_setup(c))
    return -EINVAL; // no-warning
  current_conn = c;
  return 0;
}

void twin_given_object(struct conn *c) {
  atomic_inc(&c->refcnt);
  if (conn_setup(c))
    return; // no-warning
  current_conn = c;
}

void twin_reinit_given(struct conn *c) {
  atomic_set(&c->refcnt, 1);
  if (conn_setup(c))
    return; // no-warning
}

int twin_returned(struct conn **out) {
  struct conn *c = conn_create();
  if (!c)
    return -ENOMEM;
  *out = c;
  return 0; // no-warning
}

void twin_per_iteration_stored(int n) {
  for (int i = 0; i < n; i++) {
    struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
    if (!c)
      return;
    atomic_set(&c->refcnt, 1);
    list_add(&c->node, &conn_list);
  }
}

int twin_put_under_lock(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  if (conn_setup(c)) {
    if (atomic_dec_and_lock(&c->refcnt, &conn_lock)) {
      list_del(&c->node);
      spin_unlock(&conn_lock);
      kfree(c);
    }
    return -EINVAL;
  }
  current_conn = c;
  return 0; // no-warning
}

/* Rule created-last-put: the put-and-test of the one count the path holds
 * on an object it created and never published returns true; a leak on its
 * "not zero" outcome is not reported (`nolast` reports them). */
struct req {
  struct kref ref;
  atomic_t pending;
};
int req_start(struct req *r);
static void req_release(struct kref *k) {
  kfree(container_of(k, struct req, ref));
}
static void req_complete(struct req *r) { kref_put(&r->ref, req_release); }

int twin_last_put_on_exit(int n) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return -ENOMEM;
  atomic_set(&c->refcnt, 1);
  if (conn_setup(c))
    goto out;
  c->id = n;
out:
  if (atomic_dec_and_test(&c->refcnt))
    kfree(c);
  return 0; // no-warning
}

int twin_pending_completes(void) {
  struct req *r = kzalloc(sizeof(*r), GFP_KERNEL);
  if (!r) // nolast-note{{Assuming 'r' is non-null}} nolast-note{{Taking false branch}} // off-note{{Assuming 'r' is non-null}} off-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&r->ref); // nolast-note{{The call to kref_init() sets the count of the new object 'r' to one: this path holds its first reference}} // off-note{{The call to kref_init() sets the count of the new object 'r' to one: this path holds its first reference}}
  atomic_set(&r->pending, 1); // nolast-note{{The call to atomic_set() sets the count of the new object 'r' to one: this path holds its first reference}}
  if (req_start(r)) // nolast-note{{Assuming the condition is false}} nolast-note{{Taking false branch}} // off-note{{Assuming the condition is false}} off-note{{Taking false branch}}
    goto out;
out:
  if (atomic_dec_and_test(&r->pending)) // nolast-note{{Reference to 'r' released by atomic_dec_and_test(): this path holds no more references to it}} nolast-note{{Taking false branch}} // off-note{{Taking false branch}}
    req_complete(r);
  return 0; // nolast-warning{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nolast-note{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // off-warning{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} off-note{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int leak_pending_count_taken(void) {
  struct req *r = kzalloc(sizeof(*r), GFP_KERNEL);
  if (!r) // on-note{{Assuming 'r' is non-null}} on-note{{Taking false branch}} // off-note{{Assuming 'r' is non-null}} off-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&r->ref); // on-note{{The call to kref_init() sets the count of the new object 'r' to one: this path holds its first reference}} // off-note{{The call to kref_init() sets the count of the new object 'r' to one: this path holds its first reference}}
  atomic_set(&r->pending, 1); // on-note{{The call to atomic_set() sets the count of the new object 'r' to one: this path holds its first reference}}
  atomic_inc(&r->pending); // on-note{{Reference to 'r' taken by atomic_inc()}}
  if (atomic_dec_and_test(&r->pending)) // on-note{{Reference to 'r' released by atomic_dec_and_test()}} on-note{{Taking false branch}} // off-note{{Taking false branch}}
    req_complete(r);
  return 0; // on-warning{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // off-warning{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} off-note{{The new object 'r', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}
