// SPDX-License-Identifier: GPL-2.0
/*
 * Example: an inode-like cache (a "kcref"). Every final put takes
 * cache_lock as the count hits zero (atomic_dec_and_lock), so a plain get
 * is a valid promotion while cache_lock is held, and only then.
 */
#include <kernel-inline.h>

struct cnode {
	atomic_t count;
	struct hlist_node hash;
	unsigned long ino;
};

static struct hlist_head cache_hash;
static DEFINE_SPINLOCK(cache_lock);
static DEFINE_SPINLOCK(stats_lock);

void cnode_put(struct cnode *n)
{
	if (atomic_dec_and_lock(&n->count, &cache_lock)) {
		hlist_del(&n->hash);
		spin_unlock(&cache_lock);
		kfree(n);
	}
}

/* Correct: the lookup holds cache_lock, which the final put takes. */
struct cnode *cnode_lookup(unsigned long ino)
{
	struct cnode *n;

	spin_lock(&cache_lock);
	hlist_for_each_entry(n, &cache_hash, hash) {
		if (n->ino == ino) {
			atomic_inc(&n->count);
			spin_unlock(&cache_lock);
			return n;
		}
	}
	spin_unlock(&cache_lock);
	return NULL;
}

/* BUG (refcount.UnsafePromotion): the wrong lock. */
struct cnode *cnode_lookup_stats(unsigned long ino)
{
	struct cnode *n;

	spin_lock(&stats_lock);
	hlist_for_each_entry(n, &cache_hash, hash) {
		if (n->ino == ino) {
			atomic_inc(&n->count);
			spin_unlock(&stats_lock);
			return n;
		}
	}
	spin_unlock(&stats_lock);
	return NULL;
}

/* BUG (refcount.GetOnZero): check-then-get without the lock. */
bool cnode_tryget(struct cnode *n)
{
	if (atomic_read(&n->count)) {
		atomic_inc(&n->count);
		return true;
	}
	return false;
}

/* Correct: atomic_inc_not_zero() tests and increments at once. */
bool cnode_tryget_fixed(struct cnode *n)
{
	return atomic_inc_not_zero(&n->count);
}
