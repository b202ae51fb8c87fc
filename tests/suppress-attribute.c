// RUN: %analyze -analyzer-checker=refcount %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount %proto -verify %s
//
// clang's `suppress` attribute (LLVM >= 18) silences a refcount report on
// the statement it is attached to, in both spellings usable from GNU C.

struct obj { struct kref ref; };
void obj_release(struct kref *k);

void gnu_spelling(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) {
    __attribute__((suppress)) kref_get(&o->ref); // no-warning
  }
}
void c2x_spelling(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    [[clang::suppress]] kref_get(&o->ref); // no-warning
}
void not_suppressed(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}
/* A path-end report (refcount.Leak) is silenced on its statement too. */
int use(void *p);
int leak_suppressed(void) {
  struct device_node *np = of_find_node_by_path("/soc");
  if (!np)
    return -ENODEV;
  [[clang::suppress]] return use(np); // no-warning
}
