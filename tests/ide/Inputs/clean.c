// Correct counting: no refcount diagnostic.
#include <kernel-inline.h>

struct peer {
	refcount_t refcnt;
	int id;
};

struct peer *peer_new(int id)
{
	struct peer *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	refcount_set(&p->refcnt, 1);
	p->id = id;
	return p;
}

void peer_get(struct peer *p)
{
	refcount_inc(&p->refcnt);
}
