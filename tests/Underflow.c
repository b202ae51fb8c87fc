// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify %s

int setup(void);
struct priv { struct device_node *np; struct device *dev; };

/* ===== positives ===== */

void double_put_found(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  of_node_put(np); // UNDERFLOW // expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
}

int goto_ladder_double_put(void) {
  struct device_node *np = of_find_node_by_path("/soc"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  int ret;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  ret = setup();
  if (ret) { // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
    goto out; // expected-note{{Control jumps to line 27}}
  }
  return 0;
out:
  of_node_put(np); // UNDERFLOW // expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
  return ret;
}

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
      continue; // expected-note{{Execution continues on line 43}}
    }
  }
  return 0;
}


void put_device_twice(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    put_device(d); // UNDERFLOW // expected-warning{{The call to put_device() puts 'd' again: this path already released every reference it took}} expected-note{{The call to put_device() puts 'd' again: this path already released every reference it took}}
}

void pm_put_twice(struct device *dev) {
  pm_runtime_get_sync(dev);
  pm_runtime_put(dev);
  pm_runtime_put_noidle(dev);
  pm_runtime_put(dev); // no-warning: borrowed, two owners possible
}


void kobject_put_twice(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("x", parent); // expected-note{{The call to kobject_create_and_add() returns a counted reference (+1): 'k' must be released}}
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return;
  kobject_put(k); // expected-note{{Reference to 'k' released by kobject_put(): this path holds no more references to it}}
  kobject_put(k); // UNDERFLOW // expected-warning{{The call to kobject_put() puts 'k' again: this path already released every reference it took}} expected-note{{The call to kobject_put() puts 'k' again: this path already released every reference it took}}
}

void pci_put_twice(void) {
  struct pci_dev *p = pci_get_device(1, 2, NULL); // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'p' must be released}}
  pci_dev_put(p); // expected-note{{Reference to 'p' released by pci_dev_put(): this path holds no more references to it}}
  put_device(&p->dev); // UNDERFLOW (same object) // expected-warning{{The call to put_device() puts 'p' again: this path already released every reference it took}} expected-note{{The call to put_device() puts 'p' again: this path already released every reference it took}}
}

void pdev_put_twice(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np); // expected-note{{The call to of_find_device_by_node() returns a counted reference (+1): 'pdev' must be released}}
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return;
  put_device(&pdev->dev); // expected-note{{Reference to 'pdev' released by put_device(): this path holds no more references to it}}
  platform_device_put(pdev); // UNDERFLOW // expected-warning{{The call to platform_device_put() puts 'pdev' again: this path already released every reference it took}} expected-note{{The call to platform_device_put() puts 'pdev' again: this path already released every reference it took}}
}

void dput_twice(struct dentry *d) {
  struct dentry *parent = dget_parent(d); // expected-note{{The call to dget_parent() returns a counted reference (+1): 'parent' must be released}}
  dput(parent); // expected-note{{Reference to 'parent' released by dput(): this path holds no more references to it}}
  dput(parent); // UNDERFLOW // expected-warning{{The call to dput() puts 'parent' again: this path already released every reference it took}} expected-note{{The call to dput() puts 'parent' again: this path already released every reference it took}}
}


void dev_put_twice(struct net *net) {
  struct net_device *nd = dev_get_by_name(net, "eth0"); // expected-note{{The call to dev_get_by_name() returns a counted reference (+1): 'nd' must be released}}
  if (!nd) // expected-note{{Assuming 'nd' is non-null}} expected-note{{Taking false branch}}
    return;
  dev_put(nd); // expected-note{{Reference to 'nd' released by dev_put(): this path holds no more references to it}}
  dev_put(nd); // UNDERFLOW // expected-warning{{The call to dev_put() puts 'nd' again: this path already released every reference it took}} expected-note{{The call to dev_put() puts 'nd' again: this path already released every reference it took}}
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

void find_from_put(struct device_node *from) {
  struct device_node *np = of_find_compatible_node(from, NULL, "x"); // expected-note{{The call to of_find_compatible_node() puts the previous reference 'from'}}
  of_node_put(from); // UNDERFLOW: of_find_compatible_node() put it // expected-warning{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to of_node_put() puts 'from' a second time on this path, which never took a reference to it}}
  of_node_put(np);
}

void phandle_put_branch(struct device_node *dn, int flag) {
  struct device_node *np = of_parse_phandle(dn, "x", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'np' must be released}}
  if (flag) // expected-note{{Assuming 'flag' is not equal to 0}} expected-note{{Taking true branch}}
    of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return;
  of_node_put(np); // UNDERFLOW when flag // expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
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
  of_node_put(from); // expected-note{{Reference to 'from' released by of_node_put()}}
  np = of_find_node_by_name(from, "x"); // UNDERFLOW: puts from again // expected-warning{{The call to of_find_node_by_name() puts 'from' a second time on this path, which never took a reference to it}} expected-note{{The call to of_find_node_by_name() puts 'from' a second time on this path, which never took a reference to it}}
  of_node_put(np);
}

void found_child_double(struct device *parent) {
  struct device *c = device_find_child(parent, NULL, NULL); // expected-note{{The call to device_find_child() returns a counted reference (+1): 'c' must be released}}
  if (!c) // expected-note{{Assuming 'c' is non-null}} expected-note{{Taking false branch}}
    return;
  put_device(c); // expected-note{{Reference to 'c' released by put_device(): this path holds no more references to it}}
  put_device(c); // UNDERFLOW // expected-warning{{The call to put_device() puts 'c' again: this path already released every reference it took}} expected-note{{The call to put_device() puts 'c' again: this path already released every reference it took}}
}

int ladder_two_labels(void) {
  struct device_node *a = of_find_node_by_name(NULL, "a"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'a' must be released}}
  int ret = 0;
  if (!a) // expected-note{{Assuming 'a' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (setup()) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    of_node_put(a); // expected-note{{Reference to 'a' released by of_node_put(): this path holds no more references to it}}
    ret = -EIO;
    goto err_a; // expected-note{{Control jumps to line 184}}
  }
  return 0;
err_a:
  of_node_put(a); // UNDERFLOW // expected-warning{{The call to of_node_put() puts 'a' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'a' again: this path already released every reference it took}}
  return ret;
}

void lookup_double(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1); // expected-note{{The call to lookup_one_len() returns a counted reference (+1): 'd' must be released}}
  if (IS_ERR(d)) // expected-note{{Taking false branch}}
    return;
  dput(d); // expected-note{{Reference to 'd' released by dput(): this path holds no more references to it}}
  dput(d); // UNDERFLOW // expected-warning{{The call to dput() puts 'd' again: this path already released every reference it took}} expected-note{{The call to dput() puts 'd' again: this path already released every reference it took}}
}

void fwnode_ref_double(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = fwnode_find_reference(fw, "phy", 0); // expected-note{{The call to fwnode_find_reference() returns a counted reference (+1): 'ref' must be released}}
  if (IS_ERR(ref)) // expected-note{{Taking false branch}}
    return;
  fwnode_handle_put(ref); // expected-note{{Reference to 'ref' released by fwnode_handle_put(): this path holds no more references to it}}
  fwnode_handle_put(ref); // UNDERFLOW // expected-warning{{The call to fwnode_handle_put() puts 'ref' again: this path already released every reference it took}} expected-note{{The call to fwnode_handle_put() puts 'ref' again: this path already released every reference it took}}
}

/* ===== negatives ===== */

void balanced(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_put(np); // no-warning
}

void get_then_two_puts(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_get(np);
  of_node_put(np);
  of_node_put(np); // no-warning
}

void borrowed_put_once(struct device_node *np) {
  of_node_put(np); // no-warning: consumes the caller's reference
}

void put_null_twice(void) {
  struct device_node *np = NULL;
  of_node_put(np);
  of_node_put(np); // no-warning
}

int loop_then_put(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child)
    if (of_device_is_available(child))
      break;
  of_node_put(child); // no-warning: NULL after a full loop
  return 0;
}

void put_in_both_branches_once(int flag) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (flag)
    of_node_put(np);
  else
    of_node_put(np); // no-warning
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

void two_objects(void) {
  struct device_node *a = of_find_node_by_name(NULL, "a");
  struct device_node *b = of_find_node_by_name(NULL, "b");
  of_node_put(a);
  of_node_put(b); // no-warning
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

void unregister_after_put(struct class *cls) {
  struct device *d = class_find_device(cls, NULL, NULL, NULL);
  if (!d)
    return;
  put_device(d);
  device_unregister(d); // no-warning: the registration holds a reference
}

void borrowed_put_twice(struct device_node *np) {
  of_node_put(np);
  of_node_put(np); // no-warning: two owners may each have had one
}

void get_one_put_two(struct device *dev) {
  get_device(dev);
  put_device(dev);
  put_device(dev); /* the caller's reference */
  put_device(dev); // no-warning: two owners may each have had one
}

void sock_put_twice(struct sock *sk) {
  sock_hold(sk);
  sock_put(sk);
  sock_put(sk);
  sock_put(sk); // no-warning: two owners may each have had one
}

void put_net_twice(struct net *net) {
  struct net *n = get_net(net);
  put_net(n);
  put_net(net);
  put_net(net); // no-warning: two owners may each have had one
}

void kref_put_twice(struct kobject *k, void (*rel)(struct kref *)) {
  kref_get(&k->kref);
  kref_put(&k->kref, rel);
  kref_put(&k->kref, rel);
  kref_put(&k->kref, rel); // no-warning: two owners may each have had one
}

void usb_put_twice(struct usb_device *u) {
  struct usb_device *x = usb_get_dev(u);
  usb_put_dev(x);
  usb_put_dev(x);
  usb_put_dev(x); // no-warning: two owners may each have had one
}
