// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: the node of a for_each_* loop used after the body
 * put it, and the twins that use it before the put or let the loop step
 * drop it. */

int use(const void *p);

int child_put_then_read(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) { // expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}}
    if (of_device_is_available(child)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      of_node_put(child); // expected-note{{Reference to 'child' released by of_node_put(): this path holds no more references to it}}
      return use(child->data); // UAP // expected-warning{{Read through 'child' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'child' after of_node_put() released the last reference this path held; the object may already be freed}}
    }
  }
  return 0;
}

int child_read_then_put_before_return(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) {
    if (of_device_is_available(child)) {
      int r = use(child->data); // no-warning
      of_node_put(child);
      return r;
    }
  }
  return 0;
}

int loop_uses_each_child(struct device_node *parent) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(parent, child)
    n += use(child->data); // no-warning
  return n;
}
