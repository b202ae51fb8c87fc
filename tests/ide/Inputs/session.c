// A zero-filled session whose count is got before kref_init().
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
