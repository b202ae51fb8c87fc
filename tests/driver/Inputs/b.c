#include "hdr.h"
void rel(struct kref *k);
void g(struct kref *k) { hbug(k, rel); }
