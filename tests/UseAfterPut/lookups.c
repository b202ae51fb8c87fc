// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: a read, a write, or a pass to a function through a
 * pointer after the put of the last reference this path acquired, for each
 * lookup API family. A positive with a no-warning twin (the same API, used
 * before the put or while another reference is held) is followed by it. */

int use(const void *p);
int report_node(const struct device_node *np);

const char *name_after_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return np->name; // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

const char *use_before_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  const char *name;
  if (!np)
    return NULL;
  name = np->name;
  of_node_put(np);
  return name; // no-warning: value read before the put
}

int print_after_put(void) {
  struct device_node *np = of_find_node_by_path("/soc"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return report_node(np); // UAP // expected-warning{{'np' is passed to report_node() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'np' is passed to report_node() after of_node_put() released the last reference this path held; the object may already be freed}}
}

int device_put_then_read(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  return use(d->driver_data); // UAP // expected-warning{{Read through 'd' after put_device() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'd' after put_device() released the last reference this path held; the object may already be freed}}
}

int device_read_then_put(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL);
  int r;
  if (!d)
    return -ENODEV;
  r = use(d->driver_data);
  put_device(d);
  return r; // no-warning
}

int device_put_then_name(struct class *cls) {
  struct device *d = class_find_device(cls, NULL, NULL, NULL); // expected-note{{The call to class_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  return use(dev_name(d)); // UAP // expected-warning{{'d' is passed to dev_name() after put_device() released the last reference this path held; the object may already be freed}} expected-note{{'d' is passed to dev_name() after put_device() released the last reference this path held; the object may already be freed}}
}

void child_device_write(struct device *parent) {
  struct device *c = device_find_child(parent, NULL, NULL); // expected-note{{The call to device_find_child() returns a counted reference (+1): 'c' must be released}}
  if (!c) // expected-note{{Assuming 'c' is non-null}} expected-note{{Taking false branch}}
    return;
  put_device(c); // expected-note{{Reference to 'c' released by put_device(): this path holds no more references to it}}
  c->driver_data = NULL; // UAP // expected-warning{{Write through 'c' after put_device() released the last reference this path held; the object may already be freed}} expected-note{{Write through 'c' after put_device() released the last reference this path held; the object may already be freed}}
}

int pdev_put_then_read(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np); // expected-note{{The call to of_find_device_by_node() returns a counted reference (+1): 'pdev' must be released}}
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -EPROBE_DEFER;
  platform_device_put(pdev); // expected-note{{Reference to 'pdev' released by platform_device_put(): this path holds no more references to it}}
  return pdev->id; // UAP // expected-warning{{Read through 'pdev' after platform_device_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'pdev' after platform_device_put() released the last reference this path held; the object may already be freed}}
}

int pdev_id_then_put(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  int id;
  if (!pdev)
    return -EPROBE_DEFER;
  id = pdev->id;
  platform_device_put(pdev);
  return id; // no-warning: saved field value
}

int pci_put_then_read(void) {
  struct pci_dev *p = pci_get_device(1, 2, NULL); // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'p' must be released}}
  if (!p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  pci_dev_put(p); // expected-note{{Reference to 'p' released by pci_dev_put(): this path holds no more references to it}}
  return p->vendor; // UAP // expected-warning{{Read through 'p' after pci_dev_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'p' after pci_dev_put() released the last reference this path held; the object may already be freed}}
}

int pci_vendor_then_put(void) {
  struct pci_dev *p = pci_get_device(1, 2, NULL);
  int vendor;
  if (!p)
    return -ENODEV;
  vendor = p->vendor;
  pci_dev_put(p);
  return vendor; // no-warning
}

int pci_put_device_then_enable(void) {
  struct pci_dev *p = pci_get_domain_bus_and_slot(0, 0, 0); // expected-note{{The call to pci_get_domain_bus_and_slot() returns a counted reference (+1): 'p' must be released}}
  if (!p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(&p->dev); // expected-note{{Reference to 'p' released by put_device(): this path holds no more references to it}}
  return pci_enable_device(p); // UAP // expected-warning{{'p' is passed to pci_enable_device() after put_device() released the last reference this path held; the object may already be freed}} expected-note{{'p' is passed to pci_enable_device() after put_device() released the last reference this path held; the object may already be freed}}
}

int netdev_put_then_read(struct net *net) {
  struct net_device *nd = dev_get_by_name(net, "eth0"); // expected-note{{The call to dev_get_by_name() returns a counted reference (+1): 'nd' must be released}}
  if (!nd) // expected-note{{Assuming 'nd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  dev_put(nd); // expected-note{{Reference to 'nd' released by dev_put(): this path holds no more references to it}}
  return nd->ifindex; // UAP // expected-warning{{Read through 'nd' after dev_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'nd' after dev_put() released the last reference this path held; the object may already be freed}}
}

int netdev_ifindex_then_put(struct net *net) {
  struct net_device *nd = dev_get_by_name(net, "eth0");
  int ifindex;
  if (!nd)
    return -ENODEV;
  ifindex = nd->ifindex;
  dev_put(nd);
  return ifindex; // no-warning
}

int dentry_put_then_read(struct dentry *d) {
  struct dentry *parent = dget_parent(d); // expected-note{{The call to dget_parent() returns a counted reference (+1): 'parent' must be released}}
  dput(parent); // expected-note{{Reference to 'parent' released by dput(): this path holds no more references to it}}
  return use(parent->d_inode); // UAP // expected-warning{{Read through 'parent' after dput() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'parent' after dput() released the last reference this path held; the object may already be freed}}
}

int dentry_read_then_put(struct dentry *d) {
  struct dentry *parent = dget_parent(d);
  int r = use(parent->d_inode); // no-warning
  dput(parent);
  return r;
}

int lookup_put_then_read(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1); // expected-note{{The call to lookup_one_len() returns a counted reference (+1): 'd' must be released}}
  if (IS_ERR(d)) // expected-note{{Taking false branch}}
    return PTR_ERR(d);
  dput(d); // expected-note{{Reference to 'd' released by dput(): this path holds no more references to it}}
  return d->d_inode != NULL; // UAP // expected-warning{{Read through 'd' after dput() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'd' after dput() released the last reference this path held; the object may already be freed}}
}

int lookup_read_then_put(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1);
  int r;
  if (IS_ERR(d))
    return PTR_ERR(d);
  r = d->d_inode != NULL; // no-warning
  dput(d);
  return r;
}

int kobject_put_then_read(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("x", parent); // expected-note{{The call to kobject_create_and_add() returns a counted reference (+1): 'k' must be released}}
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  kobject_put(k); // expected-note{{Reference to 'k' released by kobject_put(): this path holds no more references to it}}
  return use(k->name); // UAP // expected-warning{{Read through 'k' after kobject_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'k' after kobject_put() released the last reference this path held; the object may already be freed}}
}

int kobject_read_then_put(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("x", parent);
  int r;
  if (!k)
    return -ENOMEM;
  r = use(k->name); // no-warning
  kobject_put(k);
  return r;
}

int fwnode_put_then_read(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = fwnode_find_reference(fw, "phy", 0); // expected-note{{The call to fwnode_find_reference() returns a counted reference (+1): 'ref' must be released}}
  u32 v;
  if (IS_ERR(ref)) // expected-note{{Taking false branch}}
    return PTR_ERR(ref);
  fwnode_handle_put(ref); // expected-note{{Reference to 'ref' released by fwnode_handle_put(): this path holds no more references to it}}
  return fwnode_property_read_u32(ref, "x", &v); // UAP // expected-warning{{'ref' is passed to fwnode_property_read_u32() after fwnode_handle_put() released the last reference this path held; the object may already be freed}} expected-note{{'ref' is passed to fwnode_property_read_u32() after fwnode_handle_put() released the last reference this path held; the object may already be freed}}
}

int fwnode_read_then_put(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = fwnode_find_reference(fw, "phy", 0);
  u32 v;
  int r;
  if (IS_ERR(ref))
    return PTR_ERR(ref);
  r = fwnode_property_read_u32(ref, "x", &v); // no-warning
  fwnode_handle_put(ref);
  return r;
}

int parent_put_then_read(struct device_node *np) {
  struct device_node *parent = of_get_parent(np); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'parent' must be released}}
  if (!parent) // expected-note{{Assuming 'parent' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(parent); // expected-note{{Reference to 'parent' released by of_node_put(): this path holds no more references to it}}
  return of_device_is_compatible(parent, "simple-bus"); // UAP // expected-warning{{'parent' is passed to of_device_is_compatible() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'parent' is passed to of_device_is_compatible() after of_node_put() released the last reference this path held; the object may already be freed}}
}

int parent_compatible_then_put(struct device_node *np) {
  struct device_node *parent = of_get_parent(np);
  int r;
  if (!parent)
    return 0;
  r = of_device_is_compatible(parent, "simple-bus"); // no-warning
  of_node_put(parent);
  return r;
}

int compatible_put_then_read(void) {
  struct device_node *np = of_find_compatible_node(NULL, NULL, "x"); // expected-note{{The call to of_find_compatible_node() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return of_property_read_u32(np, "reg", NULL); // UAP // expected-warning{{'np' is passed to of_property_read_u32() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'np' is passed to of_property_read_u32() after of_node_put() released the last reference this path held; the object may already be freed}}
}

int matching_put_then_read(const struct of_device_id *ids) {
  struct device_node *np = of_find_matching_node(NULL, ids); // expected-note{{The call to of_find_matching_node() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return use(np->data); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}
