// RUN: %analyze -analyzer-checker=refcount %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount %proto -verify %s
//
// Code the model does not understand: the checkers stay silent, never crash.
// expected-no-diagnostics

struct weird {
  struct kref refs[4];
  atomic_t counts[2];
  union { refcount_t rc; long raw; } u;
  void *opaque;
};
static atomic_t global_count;
static struct kref global_kref;
extern struct weird *weird_lookup(int);
typedef void (*getter_t)(struct kref *);

void arrays(struct weird *w, int i) {
  kref_get(&w->refs[i]);
  atomic_inc(&w->counts[1]);
  refcount_inc(&w->u.rc);
}
void globals(void) {
  atomic_inc(&global_count);
  kref_get(&global_kref);
  if (atomic_dec_and_test(&global_count))
    printk("zero\n");
}
void casts(void *p) {
  kref_get((struct kref *)p);
  atomic_inc((atomic_t *)((char *)p + 8));
  refcount_inc((refcount_t *)(unsigned long)p);
}
void through_function_pointer(struct weird *w, getter_t get) {
  get(&w->refs[0]);
}
void unknown_origin(int i) {
  struct weird *w = weird_lookup(i);
  if (w)
    kref_get(&w->refs[0]);
}
void symbolic_index_after_put(struct weird *w, int i, int j) {
  if (atomic_dec_and_test(&w->counts[0]))
    atomic_inc(&w->counts[1]);
  if (refcount_dec_and_test(&w->u.rc))
    printk("gone\n");
  kref_get(&w->refs[j]);
}
void container_of_non_list(struct kref *k) {
  struct weird *w = container_of(k, struct weird, refs[0]);
  kref_get(&w->refs[1]);
}
void loops(struct weird *w, int n) {
  for (int i = 0; i < n; i++) {
    if (kref_get_unless_zero(&w->refs[i & 3]))
      kref_put(&w->refs[i & 3], (void (*)(struct kref *))0);
  }
}
