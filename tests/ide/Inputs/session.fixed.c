// The same, fixed: kref_init() starts the count at one.
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
	kref_init(&s->ref);
	return s;
}
