// SPDX-License-Identifier: GPL-2.0
/*
 * Example: peers on an RCU list, refcount_t with a bare final put (kref
 * style) whose release unlinks the peer: the list holds no count.
 * rcu_read_lock() keeps the memory, not the count.
 */
#include <kernel-inline.h>

struct peer {
	refcount_t refcnt;
	struct list_head list;
	int key;
};

static struct list_head peers;

void peer_put(struct peer *p)
{
	if (refcount_dec_and_test(&p->refcnt)) {
		list_del_rcu(&p->list);   /* the list holds no count */
		kfree_rcu_ptr(p);
	}
}

/* BUG (refcount.UnsafePromotion): refcount_inc() under RCU only. */
struct peer *peer_find(int key)
{
	struct peer *p;

	rcu_read_lock();
	list_for_each_entry_rcu(p, &peers, list) {
		if (p->key == key) {
			refcount_inc(&p->refcnt);
			rcu_read_unlock();
			return p;
		}
	}
	rcu_read_unlock();
	return NULL;
}

/* Correct. */
struct peer *peer_find_fixed(int key)
{
	struct peer *p;

	rcu_read_lock();
	list_for_each_entry_rcu(p, &peers, list) {
		if (p->key == key && refcount_inc_not_zero(&p->refcnt)) {
			rcu_read_unlock();
			return p;
		}
	}
	rcu_read_unlock();
	return NULL;
}

/* BUG (refcount.GetOnZero): resurrecting a peer whose count hit zero. */
void peer_put_and_reuse(struct peer *p)
{
	if (refcount_dec_and_test(&p->refcnt)) {
		printk("peer %d idle\n", p->key);
		refcount_inc(&p->refcnt);
	}
}
