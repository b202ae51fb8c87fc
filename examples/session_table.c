// SPDX-License-Identifier: GPL-2.0
/*
 * Example: sessions looked up by id in an IDR. The release callback takes the
 * session out of the IDR after its count reached zero, so the IDR holds no
 * count: a lookup can find a session whose count is already zero.
 */
#include <kernel-inline.h>

struct session {
	struct kref ref;
	int id;
	char name[32];
};

static struct idr sessions;
static DEFINE_SPINLOCK(sessions_lock);

static void session_release(struct kref *ref)
{
	struct session *s = container_of(ref, struct session, ref);

	spin_lock(&sessions_lock);
	idr_remove(&sessions, s->id);
	spin_unlock(&sessions_lock);
	kfree(s);
}

void session_put(struct session *s)
{
	kref_put(&s->ref, session_release);
}

/* BUG (refcount.UnsafePromotion): plain kref_get() on an IDR entry. */
struct session *session_lookup(int id)
{
	struct session *s;

	spin_lock(&sessions_lock);
	s = idr_find(&sessions, id);
	if (s)
		kref_get(&s->ref);
	spin_unlock(&sessions_lock);
	return s;
}

/* Correct: a test-for-zero get, failure means "not found". */
struct session *session_lookup_fixed(int id)
{
	struct session *s;

	spin_lock(&sessions_lock);
	s = idr_find(&sessions, id);
	if (s && !kref_get_unless_zero(&s->ref))
		s = NULL;
	spin_unlock(&sessions_lock);
	return s;
}

/* BUG (refcount.GetOnZero): the count of a zero-filled session is 0. */
struct session *session_create(int id)
{
	struct session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->id = id;
	kref_get(&s->ref);
	return s;
}

/* Correct: kref_init() starts the count at one. */
struct session *session_create_fixed(int id)
{
	struct session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->id = id;
	kref_init(&s->ref);
	return s;
}
