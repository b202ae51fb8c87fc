// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify %s

/* refcount.Underflow: iterators put the previous node themselves: a put of
 * the loop node inside a for_each_* loop body (also before continue) is put
 * again by the next step, and a node given to of_get_next_child() as prev
 * is already put. A put after the loop (of the node it was left with, or
 * NULL when it finished) and passing the node to a call are fine. */

int put_in_loop_body(struct device_node *parent) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(parent, child) { // expected-warning{{The call to of_get_next_child() puts 'child' again: this path already released every reference it took}} expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}} expected-note{{The call to of_get_next_child() puts 'child' again: this path already released every reference it took}}
    n++;
    of_node_put(child); // the loop step puts it again // expected-note{{Reference to 'child' released by of_node_put(): this path holds no more references to it}}
  }
  return n;
}

int put_then_continue(struct device_node *parent) {
  struct device_node *child;
  for_each_available_child_of_node(parent, child) { // expected-warning{{The call to of_get_next_available_child() puts 'child' again: this path already released every reference it took}} expected-note{{The call to of_get_next_available_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}} expected-note{{The call to of_get_next_available_child() puts 'child' again: this path already released every reference it took}}
    if (!of_device_is_available(child)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      of_node_put(child); // expected-note{{Reference to 'child' released by of_node_put(): this path holds no more references to it}}
      continue; // expected-note{{Execution continues on line 22}}
    }
  }
  return 0;
}

void fwnode_put_twice(struct device *dev) {
  struct fwnode_handle *child;
  device_for_each_child_node(dev, child) { // expected-warning{{The call to device_get_next_child_node() puts 'child' again: this path already released every reference it took}} expected-note{{The call to device_get_next_child_node() returns a counted reference (+1): 'child' must be released}} expected-note{{Loop condition is true.  Entering loop body}} expected-note{{The call to device_get_next_child_node() puts 'child' again: this path already released every reference it took}}
    fwnode_handle_put(child); // expected-note{{Reference to 'child' released by fwnode_handle_put(): this path holds no more references to it}}
  }
}

void put_after_next_sibling(struct device_node *parent) {
  struct device_node *prev = of_get_next_child(parent, NULL); // expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'prev' must be released}}
  struct device_node *next = of_get_next_child(parent, prev); // expected-note{{The call to of_get_next_child() puts the previous reference 'prev'}}
  of_node_put(prev); // UNDERFLOW: of_get_next_child() put it // expected-warning{{The call to of_node_put() puts 'prev' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'prev' again: this path already released every reference it took}}
  of_node_put(next);
}

int loop_then_put(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child)
    if (of_device_is_available(child))
      break;
  of_node_put(child); // no-warning: NULL after a full loop
  return 0;
}

void loop_next_consumes(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child)
    do_something(child); // no-warning
}

void find_loop_consumes(void) {
  struct device_node *np;
  for_each_node_by_name(np, "cpu")
    do_something(np); // no-warning
}

void pci_loop_consumes(void) {
  struct pci_dev *p = NULL;
  for_each_pci_dev(p)
    do_something(p); // no-warning
}
