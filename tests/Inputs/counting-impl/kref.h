/* A header named like the kernel's kref.h: the counting API's own
 * implementation, exempt from refcount.MixedStyle. */
#ifndef COUNTING_IMPL_KREF_H
#define COUNTING_IMPL_KREF_H
struct kref_holder { struct kref ref; };
static inline void kref_holder_hack(struct kref_holder *h) {
  refcount_inc(&h->ref.refcount); /* implementation detail: no report */
}
#endif
