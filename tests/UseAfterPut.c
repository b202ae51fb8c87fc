// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

int setup(void);
int use(const void *p);
int report_node(const struct device_node *np);

/* ===== positives ===== */

const char *name_after_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return np->name; // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

int print_after_put(void) {
  struct device_node *np = of_find_node_by_path("/soc"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return report_node(np); // UAP // expected-warning{{'np' is passed to report_node() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'np' is passed to report_node() after of_node_put() released the last reference this path held; the object may already be freed}}
}

int put_before_error_message(struct device_node *dn) {
  struct device_node *remote = of_parse_phandle(dn, "remote", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'remote' must be released}}
  if (!remote) // expected-note{{Assuming 'remote' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (!of_device_is_available(remote)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    of_node_put(remote); // expected-note{{Reference to 'remote' released by of_node_put(): this path holds no more references to it}}
    printk("%s disabled", remote->full_name); // UAP // expected-warning{{Read through 'remote' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'remote' after of_node_put() released the last reference this path held; the object may already be freed}}
    return -ENODEV;
  }
  of_node_put(remote);
  return 0;
}

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

int device_put_then_read(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  return use(d->driver_data); // UAP // expected-warning{{Read through 'd' after put_device() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'd' after put_device() released the last reference this path held; the object may already be freed}}
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

int pci_put_then_read(void) {
  struct pci_dev *p = pci_get_device(1, 2, NULL); // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'p' must be released}}
  if (!p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  pci_dev_put(p); // expected-note{{Reference to 'p' released by pci_dev_put(): this path holds no more references to it}}
  return p->vendor; // UAP // expected-warning{{Read through 'p' after pci_dev_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'p' after pci_dev_put() released the last reference this path held; the object may already be freed}}
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

int dentry_put_then_read(struct dentry *d) {
  struct dentry *parent = dget_parent(d); // expected-note{{The call to dget_parent() returns a counted reference (+1): 'parent' must be released}}
  dput(parent); // expected-note{{Reference to 'parent' released by dput(): this path holds no more references to it}}
  return use(parent->d_inode); // UAP // expected-warning{{Read through 'parent' after dput() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'parent' after dput() released the last reference this path held; the object may already be freed}}
}

int lookup_put_then_read(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1); // expected-note{{The call to lookup_one_len() returns a counted reference (+1): 'd' must be released}}
  if (IS_ERR(d)) // expected-note{{Taking false branch}}
    return PTR_ERR(d);
  dput(d); // expected-note{{Reference to 'd' released by dput(): this path holds no more references to it}}
  return d->d_inode != NULL; // UAP // expected-warning{{Read through 'd' after dput() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'd' after dput() released the last reference this path held; the object may already be freed}}
}

int kobject_put_then_read(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("x", parent); // expected-note{{The call to kobject_create_and_add() returns a counted reference (+1): 'k' must be released}}
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  kobject_put(k); // expected-note{{Reference to 'k' released by kobject_put(): this path holds no more references to it}}
  return use(k->name); // UAP // expected-warning{{Read through 'k' after kobject_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'k' after kobject_put() released the last reference this path held; the object may already be freed}}
}

int fwnode_put_then_read(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = fwnode_find_reference(fw, "phy", 0); // expected-note{{The call to fwnode_find_reference() returns a counted reference (+1): 'ref' must be released}}
  u32 v;
  if (IS_ERR(ref)) // expected-note{{Taking false branch}}
    return PTR_ERR(ref);
  fwnode_handle_put(ref); // expected-note{{Reference to 'ref' released by fwnode_handle_put(): this path holds no more references to it}}
  return fwnode_property_read_u32(ref, "x", &v); // UAP // expected-warning{{'ref' is passed to fwnode_property_read_u32() after fwnode_handle_put() released the last reference this path held; the object may already be freed}} expected-note{{'ref' is passed to fwnode_property_read_u32() after fwnode_handle_put() released the last reference this path held; the object may already be freed}}
}

int parent_put_then_read(struct device_node *np) {
  struct device_node *parent = of_get_parent(np); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'parent' must be released}}
  if (!parent) // expected-note{{Assuming 'parent' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(parent); // expected-note{{Reference to 'parent' released by of_node_put(): this path holds no more references to it}}
  return of_device_is_compatible(parent, "simple-bus"); // UAP // expected-warning{{'parent' is passed to of_device_is_compatible() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'parent' is passed to of_device_is_compatible() after of_node_put() released the last reference this path held; the object may already be freed}}
}

int get_after_last_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  of_node_get(np); // UAP // expected-warning{{'np' is passed to of_node_get() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'np' is passed to of_node_get() after of_node_put() released the last reference this path held; the object may already be freed}}
  return 0;
}

int two_gets_two_puts_then_use(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_get(np); // expected-note{{Reference to 'np' taken by of_node_get()}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put()}}
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return use(np->data); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

int error_path_use(struct device_node *dn) {
  struct device_node *np = of_get_child_by_name(dn, "ports"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  int ret;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  ret = setup();
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  if (ret) { // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    printk("%s: setup failed", np->full_name); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
    return ret;
  }
  return 0;
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

/* ===== negatives ===== */

const char *use_before_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  const char *name;
  if (!np)
    return NULL;
  name = np->name;
  of_node_put(np);
  return name; // no-warning: value read before the put
}

int still_holds_another(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return 0;
  of_node_get(np);
  of_node_put(np);
  return use(np->data); // no-warning: one reference left
}

int compare_after_put(struct device_node *other) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_put(np);
  return np == other; // no-warning: pointer comparison
}

int null_check_after_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_put(np);
  return np ? 0 : -ENODEV; // no-warning
}

int borrowed_put_then_use(struct device_node *np) {
  of_node_put(np);
  return use(np->data); // no-warning: not acquired here
}

int get_borrowed_put_use(struct device_node *np) {
  of_node_get(np);
  of_node_put(np);
  return use(np->data); // no-warning: the caller's reference remains
}

int pm_put_then_use(struct device *dev) {
  if (pm_runtime_resume_and_get(dev))
    return -EIO;
  pm_runtime_put(dev);
  return use(dev->driver_data); // no-warning: usage count, not lifetime
}

int loop_uses_each_child(struct device_node *parent) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(parent, child)
    n += use(child->data); // no-warning
  return n;
}

int stored_then_put(struct device_node *np, struct device_node **out) {
  struct device_node *child = of_get_child_by_name(np, "x");
  if (!child)
    return 0;
  *out = child;
  of_node_put(child);
  return use(child->data); // no-warning: handed over before the put
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

int is_err_after_put(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1);
  if (IS_ERR(d))
    return PTR_ERR(d);
  dput(d);
  return IS_ERR(d); // no-warning
}

int kref_put_then_use(struct kobject *k, void (*rel)(struct kref *)) {
  kref_get(&k->kref);
  kref_put(&k->kref, rel);
  return use(k->name); // no-warning: the caller's reference remains
}

void unregister_after_put(struct class *cls) {
  struct device *d = class_find_device(cls, NULL, NULL, NULL);
  if (!d)
    return;
  put_device(d);
  device_unregister(d); // no-warning: the registration holds a reference
}

static struct pci_dev *scan_one(int devfn) {
  struct pci_dev *dev = pci_get_domain_bus_and_slot(0, 0, devfn);
  if (dev) {
    pci_dev_put(dev);
    return dev; /* on the bus list: returned without a count */
  }
  return NULL;
}

int scan_slot(int devfn) {
  struct pci_dev *dev = scan_one(devfn);
  if (dev)
    return pci_enable_device(dev); // no-warning: the callee returns it borrowed
  return 0;
}

/* no-warning twins of the positives above: the same APIs, used before the
 * put or while another reference is held. */

int device_read_then_put(struct bus_type *bus) {
  struct device *d = bus_find_device(bus, NULL, NULL, NULL);
  int r;
  if (!d)
    return -ENODEV;
  r = use(d->driver_data);
  put_device(d);
  return r; // no-warning
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

int pci_vendor_then_put(void) {
  struct pci_dev *p = pci_get_device(1, 2, NULL);
  int vendor;
  if (!p)
    return -ENODEV;
  vendor = p->vendor;
  pci_dev_put(p);
  return vendor; // no-warning
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

int dentry_read_then_put(struct dentry *d) {
  struct dentry *parent = dget_parent(d);
  int r = use(parent->d_inode); // no-warning
  dput(parent);
  return r;
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

int error_message_before_put(struct device_node *dn) {
  struct device_node *np = of_get_child_by_name(dn, "ports");
  int ret;
  if (!np)
    return -ENODEV;
  ret = setup();
  if (ret)
    printk("%s: setup failed", np->full_name); // no-warning: still held
  of_node_put(np);
  return ret;
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

int parent_compatible_then_put(struct device_node *np) {
  struct device_node *parent = of_get_parent(np);
  int r;
  if (!parent)
    return 0;
  r = of_device_is_compatible(parent, "simple-bus"); // no-warning
  of_node_put(parent);
  return r;
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

/* A getter returns another node with its own reference, not a view of its
 * argument (drivers/gpu/drm/bridge/imx/imx8qxp-ldb-drv.c:
 * port2 = of_graph_get_port_by_id(companion_port, 1); of_node_put(port2);
 * then companion_port is still used). */
struct device_node *of_port_node_lookup(struct device_node *np, int id);
struct device_node *of_node_as_port(struct device_node *np);

int port_lookup_ok(struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "ports");
  struct device_node *port;
  int ret;
  if (!np)
    return -ENODEV;
  port = of_port_node_lookup(np, 1);
  ret = port ? 1 : 0;
  of_node_put(port);
  ret += use(np->name); // no-warning: np still holds its own reference
  of_node_put(np);
  return ret;
}

int port_view_bad(struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "ports"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  struct device_node *port;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  port = of_node_as_port(np);
  of_node_put(port); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  return use(np->name); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

/* A device found on the caller's own driver stays bound, and so alive,
 * after the lookup's reference is dropped (drivers/iommu/arm/arm-smmu
 * arm_smmu_get_by_fwnode(), drivers/iommu/virtio-iommu.c). */
struct smmu_like { int id; };
static struct device_driver smmu_driver;
int smmu_match(struct device *dev, const void *data);

struct smmu_like *smmu_get_by_node(const void *fwnode) {
  struct device *dev = driver_find_device(&smmu_driver, NULL, fwnode, smmu_match);
  put_device(dev);
  return dev ? dev_get_drvdata(dev) : NULL; // no-warning: bound to this driver
}

struct smmu_like *bus_dev_get_by_node(struct bus_type *bus, const void *fwnode) {
  struct device *dev = bus_find_device(bus, NULL, fwnode, smmu_match); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  put_device(dev); // expected-note{{Reference to 'dev' released by put_device(): this path holds no more references to it}}
  return dev ? dev_get_drvdata(dev) : NULL; // UAP // expected-note{{Assuming 'dev' is non-null}} expected-note{{'?' condition is true}} expected-warning{{'dev' is passed to dev_get_drvdata() after put_device() released the last reference this path held; the object may already be freed}} expected-note{{'dev' is passed to dev_get_drvdata() after put_device() released the last reference this path held; the object may already be freed}}
}
