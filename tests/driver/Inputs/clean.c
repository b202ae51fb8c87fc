void rel(struct kref *k);
void ok(struct kref *k) {
  kref_get(k);
  kref_put(k, rel);
}
