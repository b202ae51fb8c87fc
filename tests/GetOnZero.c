// RUN: %analyze -analyzer-checker=refcount.GetOnZero %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %proto -verify %s
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %inline -verify=expected,single %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %proto -verify=expected,single %s -analyzer-config refcount:DisableRules=caller-count-survives
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %inline -verify=expected,lockoff %s -analyzer-config refcount:DisableRules=release-aborted-under-lock
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %proto -verify=expected,lockoff %s -analyzer-config refcount:DisableRules=release-aborted-under-lock
//
// refcount.GetOnZero: a get (increment) of a count that is, or may be, zero.

struct obj {
  struct kref ref;
  refcount_t users;
  atomic_t count; /* a lifetime count: obj_put() frees on zero */
  atomic_t stats; /* a statistics counter: only ever inc/dec */
  atomic_t opens; /* plain style: inc/dec only */
  spinlock_t lock;
  int id;
};

static DEFINE_SPINLOCK(obj_lock);
void obj_init_elsewhere(struct obj *o);

static void obj_release(struct kref *ref) {
  kfree(container_of(ref, struct obj, ref));
}
void obj_put(struct obj *o) {
  if (atomic_dec_and_test(&o->count))
    kfree(o);
}
void obj_put_users(struct obj *o) {
  if (refcount_dec_and_test(&o->users))
    kfree(o);
}
void obj_put_ref(struct obj *o) { kref_put(&o->ref, obj_release); }
void obj_stats(struct obj *o) {
  atomic_inc(&o->stats);
  atomic_dec(&o->opens);
}

/* ---- zero-filled allocation, count never initialized ---- */

struct obj *zalloc_kref_get(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc(): its counts are zero until initialized}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' of a zero-filled object whose count was never initialized}} expected-note{{Call to kref_get() on 'o->ref' of a zero-filled object whose count was never initialized}}
  return o;
}

struct obj *zalloc_kref_init_get(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  kref_init(&o->ref);
  kref_get(&o->ref); // no-warning
  return o;
}

/* Linux 6.10+ spells kzalloc() as a macro over kzalloc_noprof(). */
void *kzalloc_noprof(size_t size, gfp_t flags);
#define kzalloc_612(...) kzalloc_noprof(__VA_ARGS__)
struct obj *zalloc_noprof_kref_get(void) {
  struct obj *o = kzalloc_612(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc_noprof(): its counts are zero until initialized}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' of a zero-filled object whose count was never initialized}} expected-note{{Call to kref_get() on 'o->ref' of a zero-filled object whose count was never initialized}}
  return o;
}

struct obj *zalloc_noprof_init_get(void) {
  struct obj *o = kzalloc_612(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  kref_init(&o->ref);
  kref_get(&o->ref); // no-warning
  return o;
}

struct obj *zalloc_refcount_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc()}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' of a zero-filled object}} expected-note{{Call to refcount_inc() on 'o->users' of a zero-filled object}}
  return o;
}

struct obj *zalloc_refcount_set_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  refcount_set(&o->users, 1);
  refcount_inc(&o->users); // no-warning
  return o;
}

struct obj *zalloc_atomic_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc()}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' of a zero-filled object}} expected-note{{Call to atomic_inc() on 'o->count' of a zero-filled object}}
  return o;
}

struct obj *zalloc_atomic_set_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  atomic_set(&o->count, 1);
  atomic_inc(&o->count); // no-warning
  return o;
}

struct obj *zalloc_stats_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  atomic_inc(&o->stats); // no-warning: a statistics counter, never a final put
  return o;
}

struct obj *cache_zalloc_kref_get(void *cache) {
  struct obj *o = kmem_cache_zalloc(cache, GFP_KERNEL); // expected-note{{Object allocated zero-filled by kmem_cache_zalloc()}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' of a zero-filled object}} expected-note{{Call to kref_get() on 'o->ref' of a zero-filled object}}
  return o;
}

struct obj *zalloc_init_elsewhere_get(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  obj_init_elsewhere(o); /* may initialize the count: we cannot see it */
  kref_get(&o->ref); // no-warning
  return o;
}

struct obj *zalloc_store_then_get(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  o->count.counter = 1;
  atomic_inc(&o->count); // no-warning
  return o;
}

/* ---- the path saw the count reach zero ---- */

void get_after_dec_and_test(struct obj *o) {
  if (atomic_dec_and_test(&o->count)) // expected-note{{The count of 'o->count' drops to zero in atomic_dec_and_test()}} expected-note{{Taking true branch}}
    atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' after its count dropped to zero on this path}} expected-note{{Call to atomic_inc() on 'o->count' after its count dropped to zero on this path}}
}

void get_after_dec_and_test_false(struct obj *o) {
  if (!atomic_dec_and_test(&o->count))
    atomic_inc(&o->count); // no-warning: count unknown, not seen at zero
}

void get_after_refcount_dec_and_test(struct obj *o) {
  if (refcount_dec_and_test(&o->users)) { // expected-note{{The count of 'o->users' drops to zero in refcount_dec_and_test()}} expected-note{{Taking true branch}}
    printk("last user\n");
    refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' after its count dropped to zero}} expected-note{{Call to refcount_inc() on 'o->users' after its count dropped to zero}}
  }
}

void get_before_refcount_dec_and_test(struct obj *o) {
  refcount_inc(&o->users); // no-warning
  if (refcount_dec_and_test(&o->users))
    kfree(o);
}

void get_after_kref_put(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}

/* A release that sets the count again (`calls: non-freeing-releases`:
 * habanalabs' hl_sob_reset() re-inits it through asic_funcs->reset_sob()):
 * the count after the put is unknown. */
void hl_sob_reset(struct kref *ref);
void get_after_rearming_put(struct obj *o) {
  if (kref_put(&o->ref, hl_sob_reset))
    kref_get(&o->ref); // no-warning: the release set the count again
}

void get_after_kref_put_not_last(struct obj *o) {
  kref_get(&o->ref);
  if (!kref_put(&o->ref, obj_release))
    kref_get(&o->ref); // no-warning
}

void get_after_dec_and_lock(struct obj *o) {
  if (atomic_dec_and_lock(&o->count, &obj_lock)) { // expected-note{{The count of 'o->count' drops to zero in _atomic_dec_and_lock()}} expected-note{{Taking true branch}}
    atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' after its count dropped to zero}} expected-note{{Call to atomic_inc() on 'o->count' after its count dropped to zero}}
    spin_unlock(&obj_lock);
  }
}

void get_after_sub_and_test(struct obj *o) {
  if (refcount_sub_and_test(2, &o->users)) // expected-note{{The count of 'o->users' drops to zero in refcount_sub_and_test()}} expected-note{{Taking true branch}}
    refcount_add(2, &o->users); // expected-warning{{Call to refcount_add() on 'o->users' after its count dropped to zero}} expected-note{{Call to refcount_add() on 'o->users' after its count dropped to zero}}
}

/* ---- a test-for-zero get failed ---- */

void get_after_failed_kref_get_unless_zero(struct obj *o) {
  if (!kref_get_unless_zero(&o->ref)) { // expected-note{{The call to kref_get_unless_zero() failed: the count of 'o->ref' is zero}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' after a test-for-zero get on it failed: the count is zero}} expected-note{{Call to kref_get() on 'o->ref' after a test-for-zero get on it failed}}
  }
}

void get_after_ok_kref_get_unless_zero(struct obj *o) {
  if (kref_get_unless_zero(&o->ref))
    kref_get(&o->ref); // no-warning
}

void get_after_failed_refcount_inc_not_zero(struct obj *o) {
  bool ok = refcount_inc_not_zero(&o->users); // expected-note{{The call to refcount_inc_not_zero() failed: the count of 'o->users' is zero}}
  if (!ok) // expected-note{{'ok' is false}} expected-note{{Taking true branch}}
    refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' after a test-for-zero get on it failed}} expected-note{{Call to refcount_inc() on 'o->users' after a test-for-zero get on it failed}}
}

void get_after_ok_refcount_inc_not_zero(struct obj *o) {
  bool ok = refcount_inc_not_zero(&o->users);
  if (ok)
    refcount_inc(&o->users); // no-warning
}

void get_after_failed_atomic_inc_not_zero(struct obj *o) {
  if (atomic_inc_not_zero(&o->count)) // expected-note{{The call to atomic_inc_not_zero() failed: the count of 'o->count' is zero}} expected-note{{Taking false branch}}
    return;
  atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' after a test-for-zero get on it failed}} expected-note{{Call to atomic_inc() on 'o->count' after a test-for-zero get on it failed}}
}

void get_after_failed_add_unless(struct obj *o) {
  if (!atomic_add_unless(&o->count, 1, 0)) // expected-note{{The call to atomic_add_unless() failed: the count of 'o->count' is zero}} expected-note{{Taking true branch}}
    atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' after a test-for-zero get on it failed}} expected-note{{Call to atomic_inc() on 'o->count' after a test-for-zero get on it failed}}
}

void get_after_add_unless_other_args(struct obj *o) {
  if (!atomic_add_unless(&o->count, 1, 5)) /* not a test-for-zero get */
    atomic_inc(&o->count); // no-warning
}

/* ---- count set to zero ---- */

void get_after_refcount_set_zero(struct obj *o) {
  refcount_set(&o->users, 0); // expected-note{{The count of 'o->users' is set to zero}}
  refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' whose count was set to zero}} expected-note{{Call to refcount_inc() on 'o->users' whose count was set to zero}}
}

void get_after_refcount_set_one(struct obj *o) {
  refcount_set(&o->users, 0);
  refcount_set(&o->users, 1);
  refcount_inc(&o->users); // no-warning
}

void get_after_atomic_set_zero(struct obj *o) {
  atomic_set(&o->count, 0); // expected-note{{The count of 'o->count' is set to zero}}
  atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' whose count was set to zero}} expected-note{{Call to atomic_inc() on 'o->count' whose count was set to zero}}
}

/* sound/core/seq/seq_ports.c: `subs->ref_count` counts the lists a fresh
 * subscription is on; it is zeroed while the object is still private, and
 * each list_add takes one. An atomic_t idiom, not a get on a dying object. */
struct obj *zalloc_atomic_set_zero_then_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);
  if (!o)
    return NULL;
  atomic_set(&o->count, 0);
  atomic_inc(&o->count); // no-warning
  return o;
}

/* The same with refcount_t is a bug: refcount_inc() from zero warns and
 * saturates (use-after-free protection). */
struct obj *zalloc_refcount_set_zero_then_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc(): its counts are zero until initialized}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  refcount_set(&o->users, 0); // expected-note{{The count of 'o->users' is set to zero}}
  refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' whose count was set to zero}} expected-note{{Call to refcount_inc() on 'o->users' whose count was set to zero}}
  return o;
}

/* Not private any more once published: zeroing a shared object's count and
 * taking a get from it is still reported. */
struct obj *zalloc_publish_set_zero_inc(void) {
  struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL); // expected-note{{Object allocated zero-filled by kzalloc(): its counts are zero until initialized}}
  if (!o) // expected-note{{Assuming 'o' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  atomic_set(&o->count, 1);
  atomic_set(&o->count, 0); // expected-note{{The count of 'o->count' is set to zero}}
  atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' whose count was set to zero}} expected-note{{Call to atomic_inc() on 'o->count' whose count was set to zero}}
  return o;
}

void plain_counter_set_zero(struct obj *o) {
  atomic_set(&o->opens, 0);
  atomic_inc(&o->opens); // no-warning: plain style, no lifetime
}

/* ---- check-then-get races ---- */

void check_then_get_atomic(struct obj *o) {
  if (atomic_read(&o->count)) // expected-note{{The count of 'o->count' is read here without holding a reference of this path}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    atomic_inc(&o->count); // expected-warning{{Check-then-get race: the count of 'o->count' was tested non-zero without holding a reference, and may drop to zero before atomic_inc(); use atomic_inc_not_zero() and check its result}} expected-note{{Check-then-get race}}
}

void check_then_get_kref(struct obj *o) {
  if (kref_read(&o->ref) > 0) // expected-note{{The count of 'o->ref' is read here}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // expected-warning{{Check-then-get race: the count of 'o->ref' was tested non-zero without holding a reference, and may drop to zero before kref_get(); use kref_get_unless_zero()}} expected-note{{Check-then-get race}}
}

void check_then_get_refcount(struct obj *o) {
  if (refcount_read(&o->users) == 0) // expected-note{{The count of 'o->users' is read here}} expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return;
  refcount_inc(&o->users); // expected-warning{{Check-then-get race: the count of 'o->users'}} expected-note{{Check-then-get race}}
}

void get_after_reading_zero(struct obj *o) {
  if (atomic_read(&o->count) == 0) // expected-note{{The count of 'o->count' is read here}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    atomic_inc(&o->count); // expected-warning{{Call to atomic_inc() on 'o->count' after reading its count as zero}} expected-note{{Call to atomic_inc() on 'o->count' after reading its count as zero}}
}

/* skb_shared() tests `users != 1`: a sharing test, not a zero test. */
void sharing_test_then_get(struct obj *o) {
  if (refcount_read(&o->users) != 1)
    return;
  refcount_inc(&o->users); // no-warning
}
void more_than_one_then_get(struct obj *o) {
  if (atomic_read(&o->count) > 1)
    atomic_inc(&o->count); // no-warning
}

/* af_netlink.c's netlink_insert(): get, fail, put back: the put returns the
   path's own extra reference and cannot reach zero. */
void get_put_back_get(struct obj *o) {
  refcount_inc(&o->users);
  if (refcount_dec_and_test(&o->users))
    kfree(o);
  refcount_inc(&o->users); // no-warning
}
void init_get_put_put_get(struct obj *o) {
  kref_init(&o->ref);
  kref_get(&o->ref);
  kref_put(&o->ref, obj_release); /* returns the extra one */
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}

void read_not_compared_then_get(struct obj *o) {
  printk("count %d\n", atomic_read(&o->count));
  atomic_inc(&o->count); // no-warning: the read decided nothing
}

void read_while_holding_then_get(struct obj *o) {
  kref_get(&o->ref);
  if (kref_read(&o->ref) > 1)
    kref_get(&o->ref); // no-warning: this path holds a reference
  kref_put(&o->ref, obj_release);
}

void check_then_get_stats(struct obj *o) {
  if (atomic_read(&o->stats))
    atomic_inc(&o->stats); // no-warning: not a lifetime count
}

/* A kcref (put under obj_lock) tested under its lock cannot drop to zero in
   between: iget()'s pattern. */
struct kc {
  atomic_t count;
  struct hlist_node hash;
};
void kc_put(struct kc *k) {
  if (atomic_dec_and_lock(&k->count, &obj_lock)) {
    hlist_del(&k->hash);
    spin_unlock(&obj_lock);
    kfree(k);
  }
}
void kc_check_then_get_locked(struct kc *k) {
  spin_lock(&obj_lock);
  if (atomic_read(&k->count))
    atomic_inc(&k->count); // no-warning
  spin_unlock(&obj_lock);
}
void kc_check_then_get_unlocked(struct kc *k) {
  if (atomic_read(&k->count)) // expected-note{{The count of 'k->count' is read here}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    atomic_inc(&k->count); // expected-warning{{Check-then-get race: the count of 'k->count'}} expected-note{{Check-then-get race}} expected-note@-14{{The final put of 'struct kc::count' takes 'obj_lock' as the count hits zero here: kcref style}}
}

/* ---- through a wrapper, as kernel code does ---- */
static void obj_get(struct obj *o) { kref_get(&o->ref); } // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
void wrapper_get_after_put(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    obj_get(o); // expected-note{{Calling 'obj_get'}}
}
void wrapper_get(struct obj *o) {
  obj_get(o); // no-warning
}

/* io_uring's nr_running: tested with atomic_dec_and_test, but nothing is
   freed at zero: a usage counter, not a lifetime count. */
struct wq_acct {
  atomic_t nr_running;
};
struct wq_worker {
  struct wq_acct *acct;
};
void wq_worker_release(struct wq_worker *w);
void wq_worker_sleeping(struct wq_worker *w, struct wq_acct *acct) {
  if (!atomic_dec_and_test(&acct->nr_running))
    return;
  wq_worker_release(w); /* releases something else, not acct */
  atomic_inc(&acct->nr_running); // no-warning
}
/* The `if (!dec_and_test) return; free` form is a lifetime count. */
struct conn {
  atomic_t refcnt;
};
void conn_put(struct conn *c) {
  if (!atomic_dec_and_test(&c->refcnt))
    return;
  kfree(c);
}
void conn_get_after_last_put(struct conn *c) {
  if (atomic_dec_and_test(&c->refcnt)) // expected-note{{The count of 'c->refcnt' drops to zero in atomic_dec_and_test()}} expected-note{{Taking true branch}}
    atomic_inc(&c->refcnt); // expected-warning{{Call to atomic_inc() on 'c->refcnt' after its count dropped to zero}} expected-note{{Call to atomic_inc() on 'c->refcnt' after its count dropped to zero}}
}

/* kernfs_get(): the textbook get, with an assertion that the count is not
   zero. Not a check-then-get. */
void get_with_assertion(struct obj *o) {
  WARN_ON(!atomic_read(&o->count));
  atomic_inc(&o->count); // no-warning
}
void get_with_bug_on(struct obj *o) {
  BUG_ON(!refcount_read(&o->users));
  refcount_inc(&o->users); // no-warning
}
/* A file system's own assertion macro (XFS, btrfs: ASSERT(), the model
   file's macros: assertions): xfs_buf_item_pin(). */
void assfail(const char *expr, const char *file, int line);
#define ASSERT(expr) ((expr) ? (void)0 : assfail(#expr, __FILE__, __LINE__))
void get_with_fs_assert(struct obj *o) {
  ASSERT(atomic_read(&o->count) > 0);
  atomic_inc(&o->count); // no-warning
}

/* ---- borrowed references ---- */
void get_on_borrowed(struct obj *o) {
  kref_get(&o->ref);       // no-warning
  refcount_inc(&o->users); // no-warning
  atomic_inc(&o->count);   // no-warning
}

/* ---- a callee's put the caller outlives (net/core/neighbour.c) ---- */
/* neigh_del_timer() drops the timer's reference once del_timer() succeeded;
   __neigh_event_send() holds its own: it goes on writing the neighbour and
   re-arms the timer with neigh_hold(). A put its caller outlives is not the
   final one. */
struct nb {
  refcount_t refcnt;
  int nud_state;
  int in_timer;
};
void nb_destroy(struct nb *n);
static void nb_release(struct nb *n) {
  if (refcount_dec_and_test(&n->refcnt)) // single-note{{The count of 'n->refcnt' drops to zero in refcount_dec_and_test()}} single-note{{Taking true branch}}
    nb_destroy(n);
}
static int nb_del_timer(struct nb *n) {
  if (n->in_timer) { // single-note{{Assuming field 'in_timer' is not equal to 0}} single-note{{Taking true branch}}
    nb_release(n);    // single-note{{Calling 'nb_release'}} single-note{{Returning from 'nb_release'}}
    return 1;
  }
  return 0;
}
void nb_event_send(struct nb *n) {
  nb_del_timer(n);
  n->nud_state = 1;
  refcount_inc(&n->refcnt); // no-warning
}
/* Nothing shows the caller still holds the neighbour, but it was given the
   neighbour and never took a count: its caller's survives (rule
   caller-count-survives). Reported when the function owns only the one it
   was given (prefix single). */
void nb_event_send_unused(struct nb *n) {
  nb_del_timer(n); // single-note{{Calling 'nb_del_timer'}} single-note{{Returning from 'nb_del_timer'}}
  refcount_inc(&n->refcnt); // no-warning by default // single-warning{{Call to refcount_inc() on 'n->refcnt' after its count dropped to zero on this path}} single-note{{Call to refcount_inc() on 'n->refcnt' after its count dropped to zero on this path}}
}
/* The put's own frame touching the object is its release, not a use. */
void nb_release_then_get(struct nb *n) {
  if (refcount_dec_and_test(&n->refcnt)) { // expected-note{{The count of 'n->refcnt' drops to zero in refcount_dec_and_test()}} expected-note{{Taking true branch}}
    n->nud_state = 0;
    refcount_inc(&n->refcnt); // expected-warning{{Call to refcount_inc() on 'n->refcnt' after its count dropped to zero on this path}} expected-note{{Call to refcount_inc() on 'n->refcnt' after its count dropped to zero on this path}}
  }
}

/* ---- flow control on a count (net/core/sock.c) ---- */
/* sock_alloc_send_pskb(): `sk_wmem_alloc_get(sk) < sk->sk_sndbuf` asks
   whether the send buffer has room; sk_wmem_alloc keeps a bias of one until
   sk_free(). A read compared with a bound that is not a constant is not a
   zero test. */
struct sk {
  refcount_t wmem_alloc;
  int sndbuf;
  unsigned char in_flight_low : 1;
};
void sk_destroy(struct sk *s);
void sk_wfree(struct sk *s) {
  if (refcount_dec_and_test(&s->wmem_alloc))
    sk_destroy(s);
}
static int sk_wmem_get(const struct sk *s) {
  return refcount_read(&s->wmem_alloc) - 1;
}
void sk_alloc_send(struct sk *s, int size) {
  if (sk_wmem_get(s) < s->sndbuf)
    refcount_add(size, &s->wmem_alloc); // no-warning
}
/* __tcp_transmit_skb(): `skb->ooo_okay = sk_wmem_alloc_get(sk) <
   SKB_TRUESIZE(1)`, a constant far from zero, asks whether data is in
   flight, not whether the socket is alive. */
#define SK_TRUESIZE_1 768
void sk_transmit(struct sk *s, int size) {
  s->in_flight_low = sk_wmem_get(s) < SK_TRUESIZE_1;
  refcount_add(size, &s->wmem_alloc); // no-warning
}
void sk_transmit_branch(struct sk *s, int size) {
  if (sk_wmem_get(s) >= SK_TRUESIZE_1)
    refcount_add(size, &s->wmem_alloc); // no-warning
}
/* Tested against zero with a constant bound beside it: still reported. */
void sk_transmit_tested(struct sk *s, int size) {
  unsigned int n = refcount_read(&s->wmem_alloc); // expected-note{{The count of 's->wmem_alloc' is read here without holding a reference of this path}}
  if (n != 0 && n < SK_TRUESIZE_1) // expected-note{{Assuming 'n' is not equal to 0}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming 'n' is < SK_TRUESIZE_1}} expected-note{{Taking true branch}}
    refcount_add(size, &s->wmem_alloc); // expected-warning{{Check-then-get race: the count of 's->wmem_alloc' was tested non-zero without holding a reference, and may drop to zero before refcount_add()}} expected-note{{Check-then-get race}}
}
/* Tested non-zero first, then bounded: still a check-then-get. */
void sk_alloc_send_tested(struct sk *s, int size) {
  unsigned int n = refcount_read(&s->wmem_alloc); // expected-note{{The count of 's->wmem_alloc' is read here without holding a reference of this path}}
  if (n && n - 1 < s->sndbuf) // expected-note{{Assuming 'n' is not equal to 0}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    refcount_add(size, &s->wmem_alloc); // expected-warning{{Check-then-get race: the count of 's->wmem_alloc' was tested non-zero without holding a reference, and may drop to zero before refcount_add()}} expected-note{{Check-then-get race}}
}

/* ---- found again by a later walk (net/sunrpc/cache.c) ---- */
/* sunrpc_cache_lookup_rcu(): cache_get_rcu() fails on an entry the RCU walk
   found dying; the entry is then looked up again under the hash lock, where
   an entry still on the list holds the list's count. The failed try-get
   says nothing about what the second walk finds. */
struct centry {
  struct kref ref;
  int key;
  struct hlist_node node;
};
struct ctable {
  struct hlist_head *heads;
  spinlock_t lock;
  int (*match)(struct centry *e, int key);
};
static struct centry *centry_get_rcu(struct centry *e) {
  if (kref_get_unless_zero(&e->ref))
    return e;
  return NULL;
}
static struct centry *centry_find_rcu(struct ctable *t, int key) {
  struct hlist_head *head = &t->heads[key & 7];
  struct centry *e;
  rcu_read_lock();
  hlist_for_each_entry(e, head, node) {
    if (!t->match(e, key))
      continue;
    e = centry_get_rcu(e);
    rcu_read_unlock();
    return e;
  }
  rcu_read_unlock();
  return NULL;
}
static struct centry *centry_add(struct ctable *t, int key) {
  struct hlist_head *head = &t->heads[key & 7];
  struct centry *e;
  spin_lock(&t->lock);
  hlist_for_each_entry(e, head, node) {
    if (!t->match(e, key))
      continue;
    kref_get(&e->ref); // no-warning: found again, under the lock
    spin_unlock(&t->lock);
    return e;
  }
  spin_unlock(&t->lock);
  return NULL;
}
struct centry *centry_lookup(struct ctable *t, int key) {
  struct centry *e = centry_find_rcu(t, key);
  if (e)
    return e;
  return centry_add(t, key);
}
/* The same entry used after the failed try-get, without a new walk. */
struct centry *centry_retry(struct ctable *t, int key) {
  struct centry *e;
  hlist_for_each_entry(e, &t->heads[key & 7], node) { // expected-note{{Assuming '____ptr' is non-null}} expected-note{{Entering loop body}} expected-note{{'?' condition is true}} expected-note{{Internal reference obtained from a hash-list walk: it holds no count}}
    if (e->key != key) // expected-note{{Assuming 'key' is equal to field 'key'}} expected-note{{Taking false branch}}
      continue;
    if (kref_get_unless_zero(&e->ref)) // expected-note{{The call to kref_get_unless_zero() failed: the count of 'e->ref' is zero}} expected-note{{Taking false branch}}
      return e;
    kref_get(&e->ref); // expected-warning{{Call to kref_get() on 'e->ref' after a test-for-zero get on it failed: the count is zero}} expected-note{{Call to kref_get() on 'e->ref' after a test-for-zero get on it failed}}
    return e;
  }
  return NULL;
}

/* An atomic_t named for something else than references (a count of power
 * users, drivers/remoteproc/remoteproc_core.c rproc_shutdown()): a get after
 * the path's own put hit zero, with nothing released in between, rolls the
 * put back. */
struct rproc_like { atomic_t power; int state; };
int rproc_like_stop(struct rproc_like *r);
void rproc_like_cleanup(struct rproc_like *r);
static void rproc_like_free(struct rproc_like *r) {
  if (atomic_dec_and_test(&r->power))
    kfree(r);
}

int rproc_like_shutdown_ok(struct rproc_like *r) {
  int ret;
  if (!atomic_dec_and_test(&r->power))
    return 0;
  ret = rproc_like_stop(r);
  if (ret) {
    atomic_inc(&r->power); // no-warning: rolled back, nothing was released
    return ret;
  }
  rproc_like_cleanup(r);
  return 0;
}

int rproc_like_shutdown_bad(struct rproc_like *r) {
  if (!atomic_dec_and_test(&r->power)) // expected-note{{The count of 'r->power' drops to zero in atomic_dec_and_test()}} expected-note{{Taking false branch}}
    return 0;
  rproc_like_cleanup(r);
  atomic_inc(&r->power); // expected-warning{{Call to atomic_inc() on 'r->power' after its count dropped to zero on this path}} expected-note{{Call to atomic_inc() on 'r->power' after its count dropped to zero on this path}}
  return 0;
}

/* A function that sets the count itself when it reads zero re-arms an idle
 * count; its caller serializes the test and the get
 * (drivers/net/ethernet/mediatek/mtk_eth_soc.c mtk_open(), dma_refcnt). */
void ring_bring_up(struct obj *o);

void ring_open_ok(struct obj *o) {
  if (!refcount_read(&o->users)) {
    ring_bring_up(o);
    refcount_set(&o->users, 1);
  } else {
    refcount_inc(&o->users); // no-warning: zero is the idle state it re-arms
  }
}

void ring_open_bad(struct obj *o) {
  if (!refcount_read(&o->users)) { // expected-note{{The count of 'o->users' is read here without holding a reference of this path}} expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    ring_bring_up(o);
    return;
  }
  refcount_inc(&o->users); // expected-warning{{Check-then-get race: the count of 'o->users' was tested non-zero without holding a reference, and may drop to zero before refcount_inc(); use refcount_inc_not_zero() and check its result}} expected-note{{Check-then-get race}}
}

/* The same for a global counter (kernel/trace/trace_events_hist.c
 * alloc_hist_pad(): `static refcount_t hist_pad_ref`, set to one when it
 * reads zero). */
static refcount_t pad_ref;
void *pad_alloc(void);

int pad_get_ok(void) {
  if (refcount_read(&pad_ref)) {
    refcount_inc(&pad_ref); // no-warning: zero is the idle state it re-arms
    return 0;
  }
  if (!pad_alloc())
    return -ENOMEM;
  refcount_set(&pad_ref, 1);
  return 0;
}

int pad_get_bad(void) {
  if (refcount_read(&pad_ref)) { // expected-note{{The count of 'pad_ref' is read here without holding a reference of this path}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    refcount_inc(&pad_ref); // expected-warning{{Check-then-get race: the count of 'pad_ref' was tested non-zero without holding a reference, and may drop to zero before refcount_inc(); use refcount_inc_not_zero() and check its result}} expected-note{{Check-then-get race}}
    return 0;
  }
  return pad_alloc() ? 0 : -ENOMEM;
}

/* ---- rule caller-count-survives ---- */
/* del_timer() succeeded: a put helper drops the timer's count, and the get
 * for the re-armed timer takes it again (net/can/j1939/transport.c
 * j1939_tp_set_rxtimeout() after j1939_session_rxtimer_cancel(),
 * net/xfrm xdst_queue_output()). The path never took a count on the
 * object it was given, and the helper keeps the zero outcome to itself: the
 * caller's count survives. With given-reference-single-put on, or the rule
 * off (prefix single), the function owns only the one count it was given. */
int obj_timer_cancel(struct obj *o);
void obj_timer_start(struct obj *o);
static void obj_users_put(struct obj *o) {
  if (refcount_dec_and_test(&o->users)) // single-note{{The count of 'o->users' drops to zero in refcount_dec_and_test()}} single-note{{Taking true branch}}
    kfree(o);
}
static void obj_users_get(struct obj *o) {
  refcount_inc(&o->users); // single-warning{{Call to refcount_inc() on 'o->users' after its count dropped to zero}} single-note{{Call to refcount_inc() on 'o->users' after its count dropped to zero}}
}
void obj_timer_rearm(struct obj *o) {
  if (obj_timer_cancel(o)) // single-note{{Assuming the condition is true}} single-note{{Taking true branch}}
    obj_users_put(o); // single-note{{Calling 'obj_users_put'}} single-note{{Returning from 'obj_users_put'}}
  obj_users_get(o); // no-warning: the caller's count survives // single-note{{Calling 'obj_users_get'}}
  obj_timer_start(o);
}
/* The same on an object found by a lookup the analyzer does not follow
 * (j1939_xtp_rx_rts(): j1939_session_get_by_addr()). */
struct obj *obj_lookup(int id);
void obj_lookup_rearm(int id) {
  struct obj *o = obj_lookup(id);
  if (!o)
    return;
  if (obj_timer_cancel(o))
    obj_users_put(o);
  obj_users_get(o); // no-warning: another holder's count survives (with prefix single, the same report as above)
  obj_timer_start(o);
}
/* The function tests the zero outcome itself: the object is being freed. */
void obj_timer_rearm_tested(struct obj *o) {
  if (obj_timer_cancel(o) && refcount_dec_and_test(&o->users)) // expected-note{{Assuming the condition is true}} expected-note{{Left side of '&&' is true}} expected-note{{The count of 'o->users' drops to zero in refcount_dec_and_test()}} expected-note{{Taking true branch}}
    kfree(o);
  refcount_inc(&o->users); // expected-warning{{Call to refcount_inc() on 'o->users' after its count dropped to zero}} expected-note{{Call to refcount_inc() on 'o->users' after its count dropped to zero}}
  obj_timer_start(o);
}

/* ---- a release aborted under the put's lock (rule
   release-aborted-under-lock) ----
   mlx4's release_group(): the final put runs under the table lock; when
   the group's timeout work cannot be cancelled, the path takes the count
   back before it unlocks. Nobody taking the lock saw the zero. A get after
   the lock was let go, or on a refcount_t (which warns on any increment
   from zero), is still reported. */
struct grp {
  atomic_t refcount;
  refcount_t users;
  struct hlist_node hash;
  int pending;
};
static DEFINE_SPINLOCK(grp_lock);
int cancel_work_of(struct grp *g);
void grp_put(struct grp *g) {
  if (atomic_dec_and_lock(&g->refcount, &grp_lock)) {
    hlist_del(&g->hash);
    spin_unlock(&grp_lock);
    kfree(g);
  }
}
void grp_users_put(struct grp *g) {
  if (refcount_dec_and_lock(&g->users, &grp_lock)) {
    hlist_del(&g->hash);
    spin_unlock(&grp_lock);
    kfree(g);
  }
}
int grp_release(struct grp *g) {
  spin_lock(&grp_lock);
  if (atomic_dec_and_test(&g->refcount)) { // lockoff-note{{The count of 'g->refcount' drops to zero in atomic_dec_and_test()}} lockoff-note{{Taking true branch}}
    if (!cancel_work_of(g)) { // lockoff-note{{Assuming the condition is true}} lockoff-note{{Taking true branch}}
      atomic_inc(&g->refcount); // no-warning: under grp_lock since the zero lockoff-warning{{Call to atomic_inc() on 'g->refcount' after its count dropped to zero on this path: the object is being released}} lockoff-note{{Call to atomic_inc() on 'g->refcount' after its count dropped to zero on this path: the object is being released}}
      spin_unlock(&grp_lock);
      return 0;
    }
    hlist_del(&g->hash);
    spin_unlock(&grp_lock);
    kfree(g);
    return 1;
  }
  spin_unlock(&grp_lock);
  return 0;
}
int grp_release_unlocked_get(struct grp *g) {
  spin_lock(&grp_lock);
  if (atomic_dec_and_test(&g->refcount)) { // expected-note{{The count of 'g->refcount' drops to zero in atomic_dec_and_test()}} expected-note{{Taking true branch}}
    if (!cancel_work_of(g)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      spin_unlock(&grp_lock);
      atomic_inc(&g->refcount); // BUG: the zero was visible expected-warning{{Call to atomic_inc() on 'g->refcount' after its count dropped to zero on this path: the object is being released}} expected-note{{Call to atomic_inc() on 'g->refcount' after its count dropped to zero on this path: the object is being released}}
      return 0;
    }
    hlist_del(&g->hash);
    spin_unlock(&grp_lock);
    kfree(g);
    return 1;
  }
  spin_unlock(&grp_lock);
  return 0;
}
int grp_users_release(struct grp *g) {
  spin_lock(&grp_lock);
  if (refcount_dec_and_test(&g->users)) { // expected-note{{The count of 'g->users' drops to zero in refcount_dec_and_test()}} expected-note{{Taking true branch}}
    if (!cancel_work_of(g)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      refcount_inc(&g->users); // BUG: refcount_t warns on an increment from zero expected-warning{{Call to refcount_inc() on 'g->users' after its count dropped to zero on this path: the object is being released}} expected-note{{Call to refcount_inc() on 'g->users' after its count dropped to zero on this path: the object is being released}}
      spin_unlock(&grp_lock);
      return 0;
    }
    hlist_del(&g->hash);
    spin_unlock(&grp_lock);
    kfree(g);
    return 1;
  }
  spin_unlock(&grp_lock);
  return 0;
}
