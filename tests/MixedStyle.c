// RUN: %analyze -analyzer-checker=refcount.MixedStyle %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.MixedStyle %proto -verify %s
//
// refcount.MixedStyle: one counter released through two put styles.
#include "counting-impl/kref.h"

DEFINE_SPINLOCK(cache_lock);
DEFINE_MUTEX(cache_mutex);

/* ---- 1. atomic_* and refcount_* ops on the insides of a struct kref ---- */
struct auth_entry {
  struct kref ref;
  struct list_head node;
};

void auth_entry_release(struct kref *ref);

struct auth_entry *auth_entry_get(struct auth_entry *e) {
  kref_get(&e->ref); // #auth_kref
  return e;
}

/* The article's svcauth exercise: atomic_dec_and_lock on a kref. */
void auth_entry_put(struct auth_entry *e) {
  if (atomic_dec_and_lock(&e->ref.refcount.refs, &cache_lock)) { // expected-warning{{The call to atomic_dec_and_lock() works on the insides of struct kref 'struct auth_entry::ref', bypassing the kref API: the counter is released in two styles; use kref_put_lock() or kref_put_mutex()}}
    // expected-note@-1{{works on the insides of struct kref}}
    // expected-note@#auth_kref{{'struct auth_entry::ref' is used through the kref API here}}
    list_del(&e->node);
    spin_unlock(&cache_lock);
    kfree(e);
  }
}

void auth_entry_put_twin(struct auth_entry *e) {
  kref_put_lock(&e->ref, auth_entry_release, &cache_lock); // no-warning
}

void auth_entry_put_refcount(struct auth_entry *e) {
  if (refcount_dec_and_test(&e->ref.refcount)) // expected-warning{{The call to refcount_dec_and_test() works on the insides of struct kref 'struct auth_entry::ref', bypassing the kref API: the counter is released in two styles; use kref_put()}}
    // expected-note@-1{{works on the insides}}
    // expected-note@#auth_kref{{used through the kref API here}}
    kfree(e);
}

void auth_entry_put_refcount_twin(struct auth_entry *e) {
  kref_put(&e->ref, auth_entry_release); // no-warning
}

void auth_entry_grab(struct auth_entry *e) {
  atomic_inc(&e->ref.refcount.refs); // expected-warning{{The call to atomic_inc() works on the insides of struct kref 'struct auth_entry::ref', bypassing the kref API: the counter is released in two styles; use kref_get()}}
  // expected-note@-1{{works on the insides}}
  // expected-note@#auth_kref{{used through the kref API here}}
}

unsigned int auth_entry_peek(struct auth_entry *e) {
  /* Reading the insides releases nothing. */
  return refcount_read(&e->ref.refcount); // no-warning
}

/* A kref never used through the kref API: the note shows the field. */
struct raw_kref_user {
  struct kref ref; // #raw_kref_decl
};

bool raw_kref_try(struct raw_kref_user *u) {
  return atomic_inc_not_zero(&u->ref.refcount.refs); // expected-warning{{The call to atomic_inc_not_zero() works on the insides of struct kref 'struct raw_kref_user::ref', bypassing the kref API: the counter is released in two styles; use kref_get_unless_zero()}}
  // expected-note@-1{{works on the insides}}
  // expected-note@#raw_kref_decl{{'struct raw_kref_user::ref' is declared as a struct kref here}}
}

/* The implementation header (a file named kref.h) is exempt. */
void use_holder(struct kref_holder *h) {
  kref_holder_hack(h); // no-warning
}

/* ---- 2. a plain decrement of a counter whose final puts test for zero ---- */
struct conn {
  atomic_t refcnt;
  refcount_t users;
  int id;
};

void conn_put(struct conn *c) {
  if (atomic_dec_and_test(&c->refcnt)) // #conn_final
    kfree(c);
}

void conn_drop_fast(struct conn *c) {
  atomic_dec(&c->refcnt); // expected-warning{{The call to atomic_dec() is a plain decrement of 'c->refcnt', whose other puts are decrement-and-test (kref style): if it drops the last reference nothing releases the object; use atomic_dec_and_test() and release on zero}}
  // expected-note@-1{{is a plain decrement}}
  // expected-note@#conn_final{{The final put of 'struct conn::refcnt' tests for zero here}}
}

void conn_drop_fast_twin(struct conn *c) {
  conn_put(c); // no-warning
}

void conn_unuse(struct conn *c) {
  if (refcount_dec_and_test(&c->users)) // #users_final
    kfree(c);
}

/* refcount_dec() is the checked "not the last reference" put: reported
 * only with refcount.MixedStyle:RefcountDec=true (MixedStyle-options.c). */
void conn_unuse_fast(struct conn *c) {
  refcount_dec(&c->users); // no-warning
}

/* Undoing this function's own get restores the count it found. */
int conn_try_start(struct conn *c, int fail) {
  atomic_inc(&c->refcnt);
  if (fail) {
    atomic_dec(&c->refcnt); // no-warning
    return -EBUSY;
  }
  return 0;
}

int conn_try_start_other(struct conn *c, struct conn *d, int fail) {
  atomic_inc(&d->refcnt);
  if (fail) {
    atomic_dec(&c->refcnt); // expected-warning{{The call to atomic_dec() is a plain decrement of 'c->refcnt'}}
    // expected-note@-1{{is a plain decrement}}
    // expected-note@#conn_final{{The final put of 'struct conn::refcnt' tests for zero here}}
    return -EBUSY;
  }
  return 0;
}

void conn_unuse_not_last(struct conn *c) {
  /* refcount_dec_not_one never drops the last reference. */
  refcount_dec_not_one(&c->users); // no-warning
}

/* kcref style: the final put takes a lock. */
struct cached_inode {
  atomic_t i_count;
  struct list_head lru;
};

void cached_iput(struct cached_inode *i) {
  if (atomic_dec_and_lock(&i->i_count, &cache_lock)) { // #iput_final
    list_del(&i->lru);
    spin_unlock(&cache_lock);
    kfree(i);
  }
}

void cached_iput_fast(struct cached_inode *i) {
  atomic_dec(&i->i_count); // expected-warning{{The call to atomic_dec() is a plain decrement of 'i->i_count', whose other puts take a lock as the count hits zero (kcref style): if it drops the last reference nothing releases the object; use atomic_dec_and_lock() and release on zero}}
  // expected-note@-1{{is a plain decrement}}
  // expected-note@#iput_final{{The final put of 'struct cached_inode::i_count' tests for zero here}}
}

/* Buffer-head-like: only plain inc/dec, the lifetime is owned elsewhere. */
struct bhead {
  atomic_t b_count;
};

void get_bh(struct bhead *bh) { atomic_inc(&bh->b_count); }
void put_bh(struct bhead *bh) {
  atomic_dec(&bh->b_count); // no-warning
}

/* ---- 3. kref style and kcref style final puts on one counter ---- */
struct session {
  struct kref ref;
  struct list_head node;
};

void session_release(struct kref *ref);

void session_put_locked(struct session *s) {
  kref_put_lock(&s->ref, session_release, &cache_lock); // #session_locked
}

void session_put(struct session *s) {
  kref_put(&s->ref, session_release); // expected-warning{{The call to kref_put() drops 's->ref' without the lock that its other final put, kref_put_lock(), takes as the count hits zero: the counter mixes kref and kcref style, so a plain get under that lock is no longer a safe promotion; release it with kref_put_lock() everywhere}}
  // expected-note@-1{{mixes kref and kcref style}}
  // expected-note@#session_locked{{'struct session::ref' is released with kref_put_lock() here (kcref style)}}
}

void session_put_again(struct session *s) {
  kref_put(&s->ref, session_release); // no-warning (one report per counter)
}

struct tidy_session {
  struct kref ref;
};

void tidy_put(struct tidy_session *s) {
  kref_put_mutex(&s->ref, session_release, &cache_mutex); // no-warning
}

void tidy_put_again(struct tidy_session *s) {
  kref_put_mutex(&s->ref, session_release, &cache_mutex); // no-warning
}

/* atomic_dec_and_test and atomic_dec_and_lock on one atomic_t. */
struct peer {
  atomic_t refs;
};

void peer_put_locked(struct peer *p) {
  if (atomic_dec_and_lock(&p->refs, &cache_lock)) { // #peer_locked
    spin_unlock(&cache_lock);
    kfree(p);
  }
}

void peer_put(struct peer *p) {
  if (atomic_dec_and_test(&p->refs)) // expected-warning{{The call to atomic_dec_and_test() drops 'p->refs' without the lock that its other final put, atomic_dec_and_lock(), takes}}
    // expected-note@-1{{mixes kref and kcref style}}
    // expected-note@#peer_locked{{'struct peer::refs' is released with atomic_dec_and_lock() here (kcref style)}}
    kfree(p);
}

/* The inode/dentry pattern: take the lock, then decrement-and-test. */
struct dentry_like {
  atomic_t d_count;
};

void dput_like(struct dentry_like *d) {
  spin_lock(&cache_lock);
  if (atomic_dec_and_test(&d->d_count)) // no-warning
    kfree(d);
  spin_unlock(&cache_lock);
}

void dput_like_locked(struct dentry_like *d) {
  if (atomic_dec_and_lock(&d->d_count, &cache_lock)) { // no-warning
    spin_unlock(&cache_lock);
    kfree(d);
  }
}

/* clang's suppress attribute silences one site. */
void conn_drop_known_not_last(struct conn *c) {
  __attribute__((suppress)) atomic_dec(&c->refcnt); // no-warning
}

/* Through a helper macro (igmp's __in_dev_put): the report names the field;
 * an undo written with the macros is still an undo. */
#define __conn_hold(c) atomic_inc(&(c)->refcnt)
#define __conn_put(c) atomic_dec(&(c)->refcnt)
void conn_timer_done(struct conn *c) {
  __conn_put(c); // expected-warning{{The call to atomic_dec() is a plain decrement of 'struct conn::refcnt'}}
  // expected-note@-1{{is a plain decrement}}
  // expected-note@#conn_final{{The final put of 'struct conn::refcnt' tests for zero here}}
}

void conn_timer_arm(struct conn *c, int fail) {
  __conn_hold(c);
  if (fail)
    __conn_put(c); // no-warning
}

/* nfs's nfs_open_context embeds one lock context and lists others: the
 * embedded count (bare put) and the listed ones' count (locked put) are
 * different counters of one field. The same embedded counter released both
 * ways is a mix. */
struct lock_ctx {
  refcount_t count;
  struct list_head list;
};

struct open_ctx {
  struct lock_ctx lock_context;
};

struct open_ctx2 {
  struct lock_ctx lock_context;
};

void put_open_ctx2_locked(struct open_ctx2 *ctx) {
  if (refcount_dec_and_lock(&ctx->lock_context.count, &cache_lock)) { // #ctx2_locked
    spin_unlock(&cache_lock);
    kfree(ctx);
  }
}

void put_open_ctx2(struct open_ctx2 *ctx) {
  if (refcount_dec_and_test(&ctx->lock_context.count)) // expected-warning{{The call to refcount_dec_and_test() drops 'ctx->lock_context.count' without the lock}}
    // expected-note@-1{{mixes kref and kcref style}}
    // expected-note@#ctx2_locked{{'struct lock_ctx::count' is released with refcount_dec_and_lock() here (kcref style)}}
    kfree(ctx);
}

/* As in fs/nfs/inode.c: the embedded instance's bare put comes first. */
struct lock_ctx3 {
  refcount_t count;
  struct list_head list;
};

struct open_ctx3 {
  struct lock_ctx3 lock_context;
};

void put_open_ctx3(struct open_ctx3 *ctx) {
  if (refcount_dec_and_test(&ctx->lock_context.count)) // no-warning
    kfree(ctx);
}

void put_lock_ctx3(struct lock_ctx3 *l) {
  if (refcount_dec_and_lock(&l->count, &cache_lock)) { // no-warning
    list_del(&l->list);
    spin_unlock(&cache_lock);
    kfree(l);
  }
}

void put_lock_ctx(struct lock_ctx *l) {
  if (refcount_dec_and_lock(&l->count, &cache_lock)) { // no-warning
    list_del(&l->list);
    spin_unlock(&cache_lock);
    kfree(l);
  }
}

void put_open_ctx(struct open_ctx *ctx) {
  if (refcount_dec_and_test(&ctx->lock_context.count)) // no-warning
    kfree(ctx);
}

/* io_uring's nr_running (counts running workers) and sunrpc's rq_pin (wakes
   a waiter at zero): tested with atomic_dec_and_test, but nothing frees the
   owner at zero, so they are usage counts and their plain decrements lose
   nothing. */
struct wq_acct {
  atomic_t nr_running;
};
void wake_next_worker(struct wq_acct *acct);
void acct_sleeping(struct wq_acct *acct) {
  if (!atomic_dec_and_test(&acct->nr_running))
    return;
  wake_next_worker(acct);
}
void acct_exit(struct wq_acct *acct) {
  atomic_dec(&acct->nr_running); // no-warning
}
