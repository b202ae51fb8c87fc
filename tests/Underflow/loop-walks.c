// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,nowalk %s -analyzer-config refcount:DisableRules=loop-call-walks
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,nowalk %s -analyzer-config refcount:DisableRules=loop-call-walks

/* refcount.Underflow, rule loop-call-walks: two results of one call
 * expression written in a loop are two passes of a walk, two objects. The
 * put of one pass's result is not given back by the next pass's get (rule
 * unknown-get-target), so of_link_property()'s shape, where a helper gets
 * the node, walks up its parents with of_get_next_parent() and the caller
 * puts the node it was handed, is one balanced put per pass. With the rule
 * off (prefix nowalk) the second pass's get is taken as the first pass's
 * count given back, and the caller's put reads as a second put. Positives:
 * a pass that really puts its node twice, in a while and a for loop. */

struct binding {
  struct device_node *(*parse)(struct device_node *np, int i);
};

static void link_to(struct device_node *sup) {
  struct device_node *tmp = of_node_get(sup); // nowalk-note{{Reference to 'sup' taken by of_node_get()}}
  while (tmp) { // nowalk-note{{Loop condition is true.  Entering loop body}} nowalk-note-re{{Loop condition is false. Execution continues on line {{[0-9]+}}}}
    if (!of_device_is_available(tmp)) { // nowalk-note{{Assuming the condition is false}} nowalk-note{{Taking false branch}}
      of_node_put(tmp);
      return;
    }
    tmp = of_get_next_parent(tmp); // nowalk-note{{The call to of_get_next_parent() puts the previous reference 'tmp'}}
  }
}

int link_all(const struct binding *s, struct device_node *np) {
  struct device_node *sup;
  int i = 0;
  while ((sup = s->parse(np, i))) {
    i++;
    link_to(sup);
    of_node_put(sup); // no-warning
  }
  return 0;
}

int link_all_for(const struct binding *s, struct device_node *np) {
  struct device_node *sup;
  for (int i = 0; (sup = s->parse(np, i)); i++) { // nowalk-note 2 {{Loop condition is true.  Entering loop body}}
    link_to(sup); // nowalk-note{{Calling 'link_to'}} nowalk-note{{Returning from 'link_to'}}
    of_node_put(sup); // no-warning nowalk-warning{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}} nowalk-note{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}}
  }
  return 0;
}

int parent_twice(const struct binding *s, struct device_node *np) {
  struct device_node *sup, *parent;
  int i = 0;
  while ((sup = s->parse(np, i))) { // expected-note{{Loop condition is true.  Entering loop body}}
    i++;
    parent = of_get_next_parent(sup); // expected-note{{The call to of_get_next_parent() puts the previous reference 'sup'}}
    of_node_put(parent);
    of_node_put(sup); // expected-warning{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}}
  }
  return 0;
}

int parent_twice_for(const struct binding *s, struct device_node *np) {
  struct device_node *sup;
  for (int i = 0; (sup = s->parse(np, i)); i++) { // expected-note{{Loop condition is true.  Entering loop body}}
    of_node_put(of_get_next_parent(sup)); // expected-note{{The call to of_get_next_parent() puts the previous reference 'sup'}}
    of_node_put(sup); // expected-warning{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'sup' a second time on this path, which never took a reference to it}}
  }
  return 0;
}

int parent_once(const struct binding *s, struct device_node *np) {
  struct device_node *sup;
  int i = 0;
  while ((sup = s->parse(np, i))) {
    i++;
    of_node_put(of_get_next_parent(sup)); // no-warning
  }
  return 0;
}
