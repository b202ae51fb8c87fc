// RUN: %analyze -analyzer-checker=refcount.OpenCoded %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.OpenCoded %proto -verify %s
//
// Opt-in: enabling the refcount package leaves refcount.OpenCoded out; naming
// it, or refcount.OpenCoded:Enable=true, brings it in.
// RUN: %clang_cc1 -load %plugin -analyzer-checker=refcount -analyzer-list-enabled-checkers | FileCheck --check-prefix=PKG %s
// RUN: %clang_cc1 -load %plugin -analyzer-checker=refcount -analyzer-config refcount.OpenCoded:Enable=true -analyzer-list-enabled-checkers | FileCheck --check-prefix=ON %s
// RUN: %clang_cc1 -load %plugin -analyzer-checker=refcount -analyzer-checker=refcount.OpenCoded -analyzer-list-enabled-checkers | FileCheck --check-prefix=ON %s
// RUN: %clang_cc1 -load %plugin -analyzer-checker=refcount.OpenCoded -analyzer-disable-checker=refcount.OpenCoded -analyzer-list-enabled-checkers | FileCheck --check-prefix=OFF %s
// PKG: refcount.BiasedCount
// PKG-NOT: refcount.OpenCoded
// ON: refcount.OpenCoded
// OFF-NOT: refcount.OpenCoded
//
// refcount.OpenCoded: an atomic_t used as a lifetime count.

DEFINE_SPINLOCK(table_lock);

struct item {
  atomic_t refcnt;
  atomic_t lrefcnt;  /* released under a lock */
  atomic_long_t irefcnt; /* released one call deep */
  atomic_t pending; /* in-flight requests: no lifetime */
  atomic_long_t users;
  refcount_t ref2;
  struct kref ref3;
  struct rcu_head rcu;
  struct completion done;
  struct list_head node;
  void (*release)(struct item *it);
};

void item_put(struct item *it) {
  if (atomic_dec_and_test(&it->refcnt)) // expected-warning{{'struct item::refcnt' is an open-coded reference count: atomic_dec_and_test() on it guards the release of the object; make it a refcount_t (saturates and warns on underflow) or a struct kref}}
    // expected-note@-1{{open-coded reference count}}
    kfree(it); // expected-note{{'it->refcnt' hits zero and the object is released here}}
}

void item_put_refcount(struct item *it) {
  if (refcount_dec_and_test(&it->ref2)) // no-warning
    kfree(it);
}

void item_release_kref(struct kref *ref);
void item_put_kref(struct item *it) {
  kref_put(&it->ref3, item_release_kref); // no-warning
}

/* A completion counter: reaching zero wakes a waiter, frees nothing. */
void item_request_done(struct item *it) {
  if (atomic_dec_and_test(&it->pending)) // no-warning
    complete(&it->done);
}

void item_free_rcu(struct rcu_head *head);

/* kcref style, released through RCU. */
void item_put_locked(struct item *it) {
  if (atomic_dec_and_lock(&it->lrefcnt, &table_lock)) { // expected-warning{{open-coded reference count: atomic_dec_and_lock() on it guards the release}}
    // expected-note@-1{{open-coded reference count}}
    list_del(&it->node);
    spin_unlock(&table_lock);
    call_rcu(&it->rcu, item_free_rcu); // expected-note{{hits zero and the object is released here}}
  }
}

/* `if (!dec_and_test) return;` then release. */
void item_put_early(struct item *it) {
  if (!atomic_long_dec_and_test(&it->users)) // expected-warning{{'struct item::users' is an open-coded reference count: atomic_long_dec_and_test()}}
    // expected-note@-1{{open-coded reference count}}
    return;
  list_del(&it->node);
  it->release(it); // expected-note{{'it->users' hits zero and the object is released here}}
}

void item_put_early_twin(struct item *it) {
  if (!atomic_dec_and_test(&it->pending)) // no-warning
    return;
  complete(&it->done);
}

/* The release is one call away. */
static void item_teardown(struct item *it) {
  list_del(&it->node);
  kfree(it);
}

void item_put_indirect(struct item *it) {
  if (atomic_long_dec_and_test(&it->irefcnt)) // expected-warning{{'struct item::irefcnt' is an open-coded reference count}}
    // expected-note@-1{{open-coded reference count}}
    item_teardown(it); // expected-note{{hits zero and the object is released here}}
}

static void item_wake(struct item *it) { complete(&it->done); }

void item_put_indirect_twin(struct item *it) {
  if (atomic_dec_and_test(&it->pending)) // no-warning
    item_wake(it);
}

/* One report per counter field: the suggestion is about its type. */
void item_put_again(struct item *it) {
  if (atomic_dec_and_test(&it->refcnt)) // no-warning
    kfree(it);
}

/* A field of an anonymous struct is named after the enclosing struct. */
struct mm_like {
  struct {
    atomic_t mm_count;
  };
};

void mmdrop_like(struct mm_like *mm) {
  if (atomic_dec_and_test(&mm->mm_count)) // expected-warning{{'struct mm_like::mm_count' is an open-coded reference count}}
    // expected-note@-1{{open-coded reference count}}
    kfree(mm); // expected-note{{'mm->mm_count' hits zero and the object is released here}}
}

/* clang's suppress attribute silences one site. */
struct quiet {
  atomic_t refcnt;
};

void quiet_put(struct quiet *q) {
  __attribute__((suppress)) if (atomic_dec_and_test(&q->refcnt)) // no-warning
    kfree(q);
}

/* A usage count tested for zero whose zero branch frees nothing of its
   owner (io_uring's nr_running, block's bd_openers): not a reference count. */
struct worker_acct {
  atomic_t nr_running;
};
void create_worker(struct worker_acct *acct);
void worker_release(void *w);
void acct_sleeping(void *w, struct worker_acct *acct) {
  if (!atomic_dec_and_test(&acct->nr_running)) // no-warning
    return;
  worker_release(w);
  create_worker(acct);
}
