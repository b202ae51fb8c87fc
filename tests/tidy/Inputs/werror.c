// Input of werror.test: a refcount bug in a file whose compile command
// turns warnings into errors.
#include <kernel-inline.h>

struct session {
	struct kref ref;
};

struct session *session_create(void)
{
	int unused;
	struct session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	kref_get(&s->ref);
	return s;
}

#ifdef BROKEN
int broken = undeclared;
#endif
