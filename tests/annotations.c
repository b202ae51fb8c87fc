// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs -I %S/../include %inline -verify %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs -I %S/../include %proto -verify %s
//
// Every macro of include/krefcheck/annotations.h, with a positive and a
// no-warning twin. Annotations override the model's rows.

#include <krefcheck/annotations.h>

struct blob { struct kref ref; struct list_head list; int id; };
int use(void *p);

KREF_ACQUIRES(1) void blob_get(struct blob *b);
void blob_put(struct blob *b) KREF_RELEASES(1);
KREF_TRY_ACQUIRES(1) int blob_tryget(struct blob *b);
KREF_RETURNS_REF struct blob *blob_new(void);
KREF_RETURNS_REF_OR_NULL struct blob *blob_find(int id);
KREF_RETURNS_REF_OR_ERR_PTR struct blob *blob_open(const char *name);
KREF_RETURNS_REF_OR_NULL KREF_RELEASES(1) struct blob *blob_next(struct blob *prev);
KREF_CONSUMES(2) void blob_publish(int slot, struct blob *b);
KREF_BORROWS(1) void blob_add_stats(struct blob *b);

/* ===== KREF_RETURNS_REF, KREF_RELEASES ===== */
int new_leak(void) {
  struct blob *b = blob_new();
  return use(b); // expected-warning{{Reference to 'b' acquired by blob_new() is not released on this path (missing blob_put())}}
}
int new_put(void) {
  struct blob *b = blob_new();
  use(b);
  blob_put(b); // no-warning
  return 0;
}
void new_put_twice(void) {
  struct blob *b = blob_new();
  blob_put(b);
  blob_put(b); // expected-warning{{The call to blob_put() puts 'b' again: this path already released every reference it took}}
}
int new_use_after_put(void) {
  struct blob *b = blob_new();
  blob_put(b);
  return b->id; // expected-warning{{Read through 'b' after blob_put() released the last reference this path held; the object may already be freed}}
}

/* ===== KREF_RETURNS_REF_OR_NULL ===== */
int find_leak(int id) {
  struct blob *b = blob_find(id);
  if (!b)
    return -ENOENT; // no-warning: NULL holds nothing
  if (use(b))
    return -EIO; // expected-warning{{Reference to 'b' acquired by blob_find() is not released on this path (missing blob_put())}}
  blob_put(b);
  return 0;
}

/* ===== KREF_RETURNS_REF_OR_ERR_PTR ===== */
int open_leak(void) {
  struct blob *b = blob_open("x");
  if (IS_ERR(b))
    return PTR_ERR(b); // no-warning
  return use(b); // expected-warning{{Reference to 'b' acquired by blob_open() is not released on this path (missing blob_put())}}
}

/* ===== KREF_ACQUIRES on an argument (an error path must undo it) ===== */
int get_then_fail(struct blob *b) {
  blob_get(b);
  if (use(b))
    return -EIO; // expected-warning{{Reference to 'b' taken by blob_get() is not released on this error path (missing blob_put())}}
  return 0; // no-warning: kept for the caller
}

/* ===== KREF_TRY_ACQUIRES ===== */
int tryget_then_fail(struct blob *b) {
  if (!blob_tryget(b))
    return -ENOENT; // no-warning: the get failed
  if (use(b))
    return -EIO; // expected-warning{{Reference to 'b' taken by blob_tryget() is not released on this error path (missing blob_put())}}
  blob_put(b);
  return 0;
}

/* ===== KREF_RELEASES + KREF_RETURNS_REF_OR_NULL: an iterator step ===== */
void next_then_put_prev(struct blob *start) {
  struct blob *n = blob_next(start);
  blob_put(start); // expected-warning{{The call to blob_put() puts 'start' a second time on this path, which never took a reference to it}}
  if (n)
    blob_put(n);
}
void next_alone(struct blob *start) {
  struct blob *n = blob_next(start);
  if (n)
    blob_put(n); // no-warning
}

/* ===== KREF_CONSUMES ===== */
int publish_hands_over(void) {
  struct blob *b = blob_new();
  blob_publish(0, b); // no-warning: the callee owns it now
  return 0;
}
void blob_enroll(int slot, struct blob *b); /* a name that hands nothing over */
int enroll_leaks(void) {
  struct blob *b = blob_new();
  blob_enroll(0, b);
  return 0; // expected-warning{{Reference to 'b' acquired by blob_new() is not released on this path (missing blob_put())}}
}

/* ===== KREF_BORROWS: at a call, and in the function itself ===== */
int add_stats_borrows(void) {
  struct blob *b = blob_new();
  blob_add_stats(b); // an "add" name alone would hand it over
  return 0; // expected-warning{{Reference to 'b' acquired by blob_new() is not released on this path (missing blob_put())}}
}
void blob_link_stats(struct blob *b);
int link_stats_hands_over(void) {
  struct blob *b = blob_new();
  blob_link_stats(b); // no-warning: a "link" name takes it
  return 0;
}
KREF_BORROWS(1) void blob_show(struct blob *b) {
  use(b);
  blob_put(b); // expected-warning{{The call to blob_put() puts 'b', a reference this function only borrows: its caller still counts on it}}
}
KREF_BORROWS(1) void blob_show_held(struct blob *b) {
  blob_get(b);
  use(b);
  blob_put(b); // no-warning: its own reference
}
/* ===== Annotations override the model: put_device() only borrows here ===== */
KREF_BORROWS(1) void put_device(struct device *dev);
int override_table(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL);
  if (!d)
    return -ENODEV;
  put_device(d);
  return 0; // expected-warning{{Reference to 'd' acquired by bus_find_device() is not released on this path}}
}

/* ===== Field styles ===== */
struct sess {
  refcount_t users KREF_STYLE_KCREF(sess_lock);
  struct hlist_node node;
  int id;
};
static struct hlist_head sess_hash;
static DEFINE_SPINLOCK(sess_lock);
static DEFINE_SPINLOCK(misc_lock);
struct sess *sess_find(int id) {
  struct sess *s;
  spin_lock(&sess_lock);
  hlist_for_each_entry(s, &sess_hash, node)
    if (s->id == id) {
      refcount_inc(&s->users); // no-warning: under the put's lock
      spin_unlock(&sess_lock);
      return s;
    }
  spin_unlock(&sess_lock);
  return NULL;
}
struct sess *sess_find_wrong_lock(int id) {
  struct sess *s;
  spin_lock(&misc_lock);
  hlist_for_each_entry(s, &sess_hash, node)
    if (s->id == id) {
      refcount_inc(&s->users); // expected-warning{{Plain refcount_inc() promotes an internal reference from a hash-list walk while holding 'misc_lock' but not 'sess_lock'}}
      spin_unlock(&misc_lock);
      return s;
    }
  spin_unlock(&misc_lock);
  return NULL;
}

struct chan { refcount_t refs KREF_STYLE_KREF; struct list_head list; int id; };
static LIST_HEAD(chans);
struct chan *chan_find_rcu(int id) {
  struct chan *c;
  rcu_read_lock();
  list_for_each_entry_rcu(c, &chans, list)
    if (c->id == id) {
      refcount_inc(&c->refs); // expected-warning{{Plain refcount_inc() on an internal reference from a list walk under rcu_read_lock() only: the final put of 'struct chan::refs' is a bare decrement-and-test (kref style, as configured)}}
      rcu_read_unlock();
      return c;
    }
  rcu_read_unlock();
  return NULL;
}
struct chan *chan_find_rcu_safe(int id) {
  struct chan *c;
  rcu_read_lock();
  list_for_each_entry_rcu(c, &chans, list)
    if (c->id == id && refcount_inc_not_zero(&c->refs)) { // no-warning
      rcu_read_unlock();
      return c;
    }
  rcu_read_unlock();
  return NULL;
}

struct pool { atomic_t free_slots KREF_STYLE_PLAIN; atomic_t users; };
void pool_free(struct pool *p) {
  if (atomic_dec_and_test(&p->free_slots)) // no-warning
    kfree(p);
  if (atomic_dec_and_test(&p->users)) // expected-note{{The final put of 'struct pool::users' tests for zero here}}
    kfree(p);
}
void pool_take(struct pool *p) {
  atomic_dec(&p->free_slots); // no-warning: plain on purpose
  atomic_dec(&p->users); // expected-warning{{The call to atomic_dec() is a plain decrement of 'p->users', whose other puts are decrement-and-test (kref style)}}
}

struct link { atomic_t active KREF_REFCOUNT; atomic_t hits; };
struct link *link_new(void) {
  struct link *l = kzalloc(sizeof(*l), GFP_KERNEL);
  if (!l)
    return NULL;
  atomic_inc(&l->active); // expected-warning{{Call to atomic_inc() on 'l->active' of a zero-filled object whose count was never initialized}}
  return l;
}
struct link *link_new_stats(void) {
  struct link *l = kzalloc(sizeof(*l), GFP_KERNEL);
  if (!l)
    return NULL;
  atomic_inc(&l->hits); // no-warning: a statistic
  return l;
}

/* ===== Malformed annotations are errors at the annotation ===== */
__attribute__((annotate("krefcheck_releases:2"))) void bad_index(struct blob *b); // expected-error{{krefcheck: 'krefcheck_releases:2' on 'bad_index': the argument number must be 1 to 1}}
__attribute__((annotate("krefcheck_frees:1"))) void bad_name(struct blob *b); // expected-error{{krefcheck: unknown annotation 'krefcheck_frees:1'}}
void bad_calls(struct blob *b) {
  bad_index(b);
  bad_name(b);
}
