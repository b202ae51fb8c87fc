// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify %s

/* refcount.Underflow: a reference this path acquired (a lookup of each API
 * family) put twice: straight, on a goto ladder, in one branch, through
 * another view of the object (pci_dev_put() then put_device(&p->dev)). A
 * get between the puts, a NULL pointer, a put in each branch, two objects,
 * or device_unregister() (the registration's reference) is not a double put. */

int setup(void);
struct priv { struct device_node *np; struct device *dev; };

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
    goto out; // expected-note{{Control jumps to line 31}}
  }
  return 0;
out:
  of_node_put(np); // UNDERFLOW // expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
  return ret;
}

void put_device_twice(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    put_device(d); // UNDERFLOW // expected-warning{{The call to put_device() puts 'd' again: this path already released every reference it took}} expected-note{{The call to put_device() puts 'd' again: this path already released every reference it took}}
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

void phandle_put_branch(struct device_node *dn, int flag) {
  struct device_node *np = of_parse_phandle(dn, "x", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'np' must be released}}
  if (flag) // expected-note{{Assuming 'flag' is not equal to 0}} expected-note{{Taking true branch}}
    of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  if (setup()) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return;
  of_node_put(np); // UNDERFLOW when flag // expected-warning{{The call to of_node_put() puts 'np' again: this path already released every reference it took}} expected-note{{The call to of_node_put() puts 'np' again: this path already released every reference it took}}
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
    goto err_a; // expected-note{{Control jumps to line 109}}
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

void put_null_twice(void) {
  struct device_node *np = NULL;
  of_node_put(np);
  of_node_put(np); // no-warning
}

void put_in_both_branches_once(int flag) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (flag)
    of_node_put(np);
  else
    of_node_put(np); // no-warning
}

void two_objects(void) {
  struct device_node *a = of_find_node_by_name(NULL, "a");
  struct device_node *b = of_find_node_by_name(NULL, "b");
  of_node_put(a);
  of_node_put(b); // no-warning
}

void unregister_after_put(struct class *cls) {
  struct device *d = class_find_device(cls, NULL, NULL, NULL);
  if (!d)
    return;
  put_device(d);
  device_unregister(d); // no-warning: the registration holds a reference
}
