// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,off %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,off %s

/* refcount.Underflow: puts on pointers the function did not acquire (the
 * caller's, a list entry's, a runtime-PM usage count). One put consumes
 * the caller's reference. A further put of the same pointer the function
 * was given, with no get in between, is reported (rule
 * given-reference-single-put; `on`); with the rule off (`off`) it is not,
 * since two owners may each have had one. Never reported: the runtime-PM
 * usage count, a put after a get gave the caller's count back, a put after
 * the pointer was passed to a call that may have taken a reference. An API
 * that puts its from argument (of_find_*_node(), of_get_next_parent(),
 * pci_get_device()) and a put of that argument before or after it put it
 * twice on a path that never took a reference (either way). */

void find_from_put(struct device_node *from) {
  struct device_node *np = of_find_compatible_node(from, NULL, "x"); // expected-note{{The call to of_find_compatible_node() puts the previous reference 'from'}}
  of_node_put(from); // UNDERFLOW: of_find_compatible_node() put it // expected-warning{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}}
  of_node_put(np);
}

void matching_from_put(struct device_node *from, const struct of_device_id *ids) {
  struct device_node *np = of_find_matching_node(from, ids); // expected-note{{The call to of_find_matching_node() puts the previous reference 'from'}}
  of_node_put(from); // UNDERFLOW: of_find_matching_node() put it // expected-warning{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}}
  of_node_put(np);
}

void next_parent_put(struct device_node *np) {
  struct device_node *parent = of_get_next_parent(np); // expected-note{{The call to of_get_next_parent() puts the previous reference 'np'}}
  of_node_put(np); // UNDERFLOW: of_get_next_parent() put it // expected-warning{{The call to of_node_put() puts 'np' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'np' a second time on this path, which never took a reference to it}}
  of_node_put(parent);
}

void pci_from_put(struct pci_dev *from) {
  struct pci_dev *p = pci_get_device(1, 2, from); // expected-note{{The call to pci_get_device() puts the previous reference 'from'}}
  pci_dev_put(from); // UNDERFLOW: pci_get_device() put it // expected-warning{{The call to pci_dev_put() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to pci_dev_put() puts 'from' a second time on this path, which never took a reference to it}}
  pci_dev_put(p);
}

void put_then_iterate(struct device_node *from) {
  struct device_node *np;
  of_node_put(from); // on-note{{The reference 'from' this function was given is dropped by of_node_put()}} off-note{{Reference to 'from' released by of_node_put()}}
  np = of_find_node_by_name(from, "x"); // UNDERFLOW: puts from again // expected-warning{{The call to of_find_node_by_name() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to of_find_node_by_name() puts 'from' a second time on this path, which never took a reference to it}}
  of_node_put(np);
}

void pm_put_twice(struct device *dev) {
  pm_runtime_get_sync(dev);
  pm_runtime_put(dev);
  pm_runtime_put_noidle(dev);
  pm_runtime_put(dev); // no-warning: a usage count, not a lifetime count (owners unknown)
}

void borrowed_put_once(struct device_node *np) {
  of_node_put(np); // no-warning: consumes the caller's reference
}

void reget_after_put(struct device_node *np) {
  of_node_put(np);
  of_node_get(np);
  of_node_put(np); // no-warning
}

void borrowed_put_then_call(struct device_node *np) {
  of_node_put(np);
  do_something(np);
  of_node_put(np); // no-warning: the callee may have taken a reference
}

void pm_balanced(struct device *dev) {
  if (pm_runtime_resume_and_get(dev))
    return;
  pm_runtime_put(dev); // no-warning
}

void pm_failed_no_put(struct device *dev) {
  if (pm_runtime_resume_and_get(dev) < 0)
    return;
  pm_runtime_put(dev);
  pm_runtime_get_noresume(dev);
  pm_runtime_put_noidle(dev); // no-warning
}

void kref_consumes_callers(struct kobject *k, void (*rel)(struct kref *)) {
  kref_get(&k->kref);
  kref_put(&k->kref, rel);
  kref_put(&k->kref, rel);
  // no-warning: one put is balanced, the caller passed one
}

void get_put_consume_callers(struct device *dev) {
  get_device(dev);
  put_device(dev);
  put_device(dev); // no-warning: consumes the caller's reference
}

void sock_hold_put_consume(struct sock *sk) {
  sock_hold(sk);
  sock_put(sk);
  sock_put(sk); // no-warning
}

struct link { struct list_head node; refcount_t users; struct device *supplier; };

void list_walk_get_put(struct list_head *head) {
  struct link *l;
  list_for_each_entry(l, head, node)
    refcount_inc(&l->users);
  list_for_each_entry(l, head, node)
    if (refcount_dec_and_test(&l->users)) // no-warning
      kfree(l);
}

struct holder { struct device *parent; };

void field_reloaded(struct holder *h) {
  pm_runtime_get_sync(h->parent);
  do_something(h);
  pm_runtime_put(h->parent); // no-warning: same field, reloaded
  pm_runtime_put(h->parent); // no-warning: may be the caller's
}

void borrowed_put_twice(struct device_node *np) {
  of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
  of_node_put(np); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note@-1{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
}

void get_one_put_two(struct device *dev) {
  get_device(dev); // on-note{{Reference to 'dev' taken by get_device()}}
  put_device(dev); // on-note{{Reference to 'dev' released by put_device(): this path holds no more references to it}}
  put_device(dev); /* the caller's reference */ // on-note{{The reference 'dev' this function was given is dropped by put_device()}}
  put_device(dev); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to put_device() puts 'dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}} on-note@-1{{The call to put_device() puts 'dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}}
}

void sock_put_twice(struct sock *sk) {
  sock_hold(sk); // on-note{{Reference to 'sk' taken by sock_hold()}}
  sock_put(sk); // on-note{{Reference to 'sk' released by sock_put(): this path holds no more references to it}}
  sock_put(sk); // on-note{{The reference 'sk' this function was given is dropped by sock_put()}}
  sock_put(sk); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to sock_put() puts 'sk' again: the one reference this function was given was already dropped by sock_put() earlier on this path}} on-note@-1{{The call to sock_put() puts 'sk' again: the one reference this function was given was already dropped by sock_put() earlier on this path}}
}

void put_net_twice(struct net *net) {
  struct net *n = get_net(net); // on-note{{Reference to 'net' taken by get_net()}}
  put_net(n); // on-note{{Reference to 'n' released by put_net(): this path holds no more references to it}}
  put_net(net); // on-note{{The reference 'net' this function was given is dropped by put_net()}}
  put_net(net); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to put_net() puts 'net' again: the one reference this function was given was already dropped by put_net() earlier on this path}} on-note@-1{{The call to put_net() puts 'net' again: the one reference this function was given was already dropped by put_net() earlier on this path}}
}

void kref_put_twice(struct kobject *k, void (*rel)(struct kref *)) {
  kref_get(&k->kref); // on-note{{Reference to '&k->kref' taken by kref_get()}}
  kref_put(&k->kref, rel); // on-note{{Reference to '&k->kref' released by kref_put(): this path holds no more references to it}}
  kref_put(&k->kref, rel); // on-note{{The reference '&k->kref' this function was given is dropped by kref_put()}}
  kref_put(&k->kref, rel); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to kref_put() puts '&k->kref' again: the one reference this function was given was already dropped by kref_put() earlier on this path}} on-note@-1{{The call to kref_put() puts '&k->kref' again: the one reference this function was given was already dropped by kref_put() earlier on this path}}
}

void usb_put_twice(struct usb_device *u) {
  struct usb_device *x = usb_get_dev(u); // on-note{{Reference to 'u' taken by usb_get_dev()}}
  usb_put_dev(x); // on-note{{Reference to 'x' released by usb_put_dev(): this path holds no more references to it}}
  usb_put_dev(x); // on-note{{The reference 'x' this function was given is dropped by usb_put_dev()}}
  usb_put_dev(x); // off: no-warning: two owners may each have had one
  // on-warning@-1{{The call to usb_put_dev() puts 'x' again: the one reference this function was given was already dropped by usb_put_dev() earlier on this path}} on-note@-1{{The call to usb_put_dev() puts 'x' again: the one reference this function was given was already dropped by usb_put_dev() earlier on this path}}
}
