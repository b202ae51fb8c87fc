static inline void hbug(struct kref *r, void (*rel)(struct kref *)) {
  if (kref_put(r, rel))
    kref_get(r);
}
