// RUN: %analyze -analyzer-checker=refcount %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount %proto -verify %s
// RUN: %analyze -analyzer-checker=refcount.OpenCoded %inline -verify=opencoded %s
//
// A comment `krefcheck: ignore[Checker] reason` on the reported line or the
// line above silences that checker's report there. The brackets take
// checker names without the `refcount.` package (the full name works too),
// separated by commas, or `*` for every refcount checker.

struct obj { struct kref ref; };
void obj_release(struct kref *k);
int use(void *p);

void same_line(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    kref_get(&o->ref); /* krefcheck: ignore[GetOnZero] resurrected on purpose, see obj_recycle() */
}
void line_above(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    // krefcheck: ignore[GetOnZero] resurrected on purpose
    kref_get(&o->ref);
}
void full_name_and_list(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    kref_get(&o->ref); // krefcheck: ignore[Leak, refcount.GetOnZero]
}
void star(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    kref_get(&o->ref); // krefcheck: ignore[*]
}

/* Not suppressed: another checker named, two lines above, no brackets, not
   in a comment. */
void wrong_checker(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // krefcheck: ignore[Leak] expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}
void two_lines_above(struct obj *o) {
  // krefcheck: ignore[GetOnZero]
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}

    kref_get(&o->ref); // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}
void no_brackets(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    kref_get(&o->ref); // krefcheck: ignore GetOnZero expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
}
const char *not_a_comment(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // expected-note{{The count of 'o->ref' drops to zero in kref_put()}} expected-note{{Taking true branch}}
    return kref_get(&o->ref), "krefcheck: ignore[GetOnZero]"; // expected-warning{{Call to kref_get() on 'o->ref' after its count dropped to zero}} expected-note{{Call to kref_get() on 'o->ref' after its count dropped to zero}}
  return "";
}

/* Lifetime checkers: Leak at the return, Underflow at the second put. */
int leak_ignored(void) {
  struct device_node *np = of_find_node_by_path("/soc");
  if (!np)
    return -ENODEV;
  return use(np); // krefcheck: ignore[Leak] kept in a static on the other side
}
void underflow_ignored(void) {
  struct device_node *np = of_find_node_by_path("/soc");
  of_node_put(np);
  of_node_put(np); // krefcheck: ignore[Underflow] the firmware node holds one more
}
void underflow_wrong_name(void) {
  struct device_node *np = of_find_node_by_path("/soc"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  of_node_put(np); // krefcheck: ignore[Leak] expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
}

/* AST-based checkers go through the same filter. */
struct conn { atomic_t users; };
#define CONN_DEAD_BIAS (1 << 30)
void conn_kill(struct conn *c) {
  atomic_add(CONN_DEAD_BIAS, &c->users); /* krefcheck: ignore[BiasedCount] */
}
void conn_put(struct conn *c) {
  if (atomic_dec_and_test(&c->users)) // opencoded-warning{{'struct conn::users' is an open-coded reference count}} opencoded-note{{}}
    kfree(c); // opencoded-note{{hits zero and the object is released here}}
}
struct conn2 { atomic_t users; };
void conn2_put(struct conn2 *c) {
  // krefcheck: ignore[OpenCoded] converted in the next release
  if (atomic_dec_and_test(&c->users))
    kfree(c);
}
