// Input of options.test: reported or not depending on the krefcheck options.
#include <kernel-inline.h>

#define COUNT_STEP 4096

struct node {
	refcount_t active;
};

void node_mark(struct node *n)
{
	refcount_set(&n->active, COUNT_STEP);
}

struct item {
	atomic_t refcnt;
};

void item_put(struct item *it)
{
	if (atomic_dec_and_test(&it->refcnt))
		kfree(it);
}
