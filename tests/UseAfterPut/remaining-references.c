// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: the count of references this path holds: a use is
 * reported only after the put of the last one (two gets need two puts); a
 * second put, or the put of another object, is not a use. */

int use(const void *p);

int two_gets_two_puts_then_use(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_get(np); // expected-note{{Reference to 'np' taken by of_node_get()}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put()}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return use(np->data); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

int two_gets_one_put_then_use(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  int r;
  if (!np)
    return 0;
  of_node_get(np);
  of_node_put(np);
  r = use(np->data); // no-warning: one reference left
  of_node_put(np);
  return r;
}

int still_holds_another(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return 0;
  of_node_get(np);
  of_node_put(np);
  return use(np->data); // no-warning: one reference left
}

int double_put_then_use(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return 0;
  of_node_put(np);
  of_node_put(np); // no-warning (refcount.Underflow's report)
  return 0;
}

int separate_objects(void) {
  struct device_node *a = of_find_node_by_name(NULL, "a");
  struct device_node *b = of_find_node_by_name(NULL, "b");
  int r;
  if (!a || !b)
    return 0;
  of_node_put(a);
  r = use(b->data); // no-warning
  of_node_put(b);
  return r;
}
