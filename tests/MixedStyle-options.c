// RUN: %analyze -analyzer-checker=refcount.MixedStyle -analyzer-config 'refcount.MixedStyle:PlainCounters=b_count;cached_inode::i_count' -analyzer-config refcount.MixedStyle:RefcountDec=true %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.MixedStyle -analyzer-config 'refcount.MixedStyle:PlainCounters=b_count;cached_inode::i_count' -analyzer-config refcount.MixedStyle:RefcountDec=true %proto -verify %s
//
// refcount.MixedStyle:PlainCounters names counters that are plain style on
// purpose (by field, or struct::field): their plain decrements are fine.
// RefcountDec=true also reports refcount_dec() (off by default).

DEFINE_SPINLOCK(lru_lock);

struct bhead {
  atomic_t b_count;
};

void bh_final(struct bhead *bh) {
  if (atomic_dec_and_test(&bh->b_count))
    kfree(bh);
}

void put_bh(struct bhead *bh) {
  atomic_dec(&bh->b_count); // no-warning
}

struct cached_inode {
  atomic_t i_count;
};

void cached_iput(struct cached_inode *i) {
  if (atomic_dec_and_lock(&i->i_count, &lru_lock)) {
    spin_unlock(&lru_lock);
    kfree(i);
  }
}

void cached_iput_fast(struct cached_inode *i) {
  atomic_dec(&i->i_count); // no-warning
}

/* Not listed: still reported. */
struct other_inode {
  atomic_t i_count;
};

void other_iput(struct other_inode *i) {
  if (atomic_dec_and_test(&i->i_count)) // #other_final
    kfree(i);
}

void other_iput_fast(struct other_inode *i) {
  atomic_dec(&i->i_count); // expected-warning{{The call to atomic_dec() is a plain decrement of 'i->i_count'}}
  // expected-note@-1{{is a plain decrement}}
  // expected-note@#other_final{{The final put of 'struct other_inode::i_count' tests for zero here}}
}

/* RefcountDec=true: refcount_dec() on a tested counter is reported. */
struct sock_like {
  refcount_t sk_refcnt;
};

void sock_put_like(struct sock_like *sk) {
  if (refcount_dec_and_test(&sk->sk_refcnt)) // #sock_final
    kfree(sk);
}

void sock_put_not_last(struct sock_like *sk) {
  refcount_dec(&sk->sk_refcnt); // expected-warning{{The call to refcount_dec() is a plain decrement of 'sk->sk_refcnt', whose other puts are decrement-and-test (kref style): if it drops the last reference nothing releases the object; use refcount_dec_and_test() and release on zero}}
  // expected-note@-1{{is a plain decrement}}
  // expected-note@#sock_final{{The final put of 'struct sock_like::sk_refcnt' tests for zero here}}
}
