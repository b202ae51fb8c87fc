/* Two findings: one in f() here, one in hbug() of hdr.h (also reported
 * through b.c). The unused variable warns under -Wall: the database's
 * -Werror must be dropped for the analysis to run. */
#include "hdr.h"
struct obj { struct kref ref; int x; };
void release(struct kref *k);
void h(struct kref *k) { hbug(k, release); }
void f(struct obj *o) {
  int unused;
  if (kref_put(&o->ref, release))
    kref_get(&o->ref);
}
