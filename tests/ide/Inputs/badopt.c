// Same bug; .clangd gives this file a bad krefcheck option.
#include <kernel-inline.h>

struct session {
	struct kref ref;
	int id;
};

struct session *session_create(int id)
{
	struct session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->id = id;
	kref_get(&s->ref);
	return s;
}
