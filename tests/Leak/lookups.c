// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: the +1 reference a find/get API returns (device-tree nodes,
 * devices found on a bus or class, PCI and net devices, dentries, fwnodes,
 * kobjects, ACPI devices, i2c adapters, ttys, MDIO buses, CPU nodes) leaks
 * on a path that drops it, goto ladders included; a path that puts it (also
 * through another view of the object: its fwnode, &pdev->dev), that ends in
 * panic(), or a variable declared __free(device_node) does not leak. */

int use(void *p);
int setup(void);

int find_then_fail(void) {
  struct device_node *np = of_find_node_by_path("/soc"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  u32 v;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (of_property_read_u32(np, "reg", &v)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // LEAK // expected-warning{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}}
  of_node_put(np);
  return v;
}

int goto_ladder(struct device *dev) {
  struct device_node *np, *ep;
  int ret;
  np = of_get_child_by_name(dev->of_node, "ports");
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  ep = of_get_next_child(np, NULL); // expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'ep' must be released}}
  if (!ep) { // expected-note{{Assuming 'ep' is non-null}} expected-note{{Taking false branch}}
    ret = -EINVAL;
    goto err_np;
  }
  ret = setup();
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    goto err_np; // LEAK ep // v19-note{{Control jumps to line 41}}
  of_node_put(ep);
err_np:
  of_node_put(np); // expected-warning{{Reference to 'ep' acquired by of_get_next_child() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'ep' acquired by of_get_next_child() is not released on this path (missing of_node_put())}}
  return ret;
}

int parse_phandle_leak(struct device_node *np) {
  struct device_node *remote = of_parse_phandle(np, "remote", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'remote' must be released}}
  if (!remote) // expected-note{{Assuming 'remote' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return of_device_is_available(remote) ? 0 : -ENODEV; // LEAK // expected-warning{{Reference to 'remote' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}} expected-note{{Assuming the condition is false}} expected-note{{'?' condition is false}} expected-note{{Reference to 'remote' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}}
}

int bus_find_leak(struct bus_type *bus, const void *key,
                  int (*match)(struct device *, const void *)) {
  struct device *d = bus_find_device(bus, NULL, key, match); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return use(d->driver_data); // LEAK // expected-warning{{Reference to 'd' acquired by bus_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'd' acquired by bus_find_device() is not released on this path (missing put_device())}}
}

int class_find_leak(struct class *cls, const void *key,
                    int (*match)(struct device *, const void *)) {
  struct device *d = class_find_device(cls, NULL, key, match); // expected-note{{The call to class_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (!d->driver_data) // expected-note{{Assuming field 'driver_data' is null}} expected-note{{Taking true branch}}
    return -EBUSY; // LEAK // expected-warning{{Reference to 'd' acquired by class_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'd' acquired by class_find_device() is not released on this path (missing put_device())}}
  put_device(d);
  return 0;
}

int device_find_child_leak(struct device *parent, void *data,
                           int (*match)(struct device *, void *)) {
  struct device *child = device_find_child(parent, data, match); // expected-note{{The call to device_find_child() returns a counted reference (+1): 'child' must be released}}
  if (child && child->driver_data) // expected-note{{Assuming 'child' is non-null}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming field 'driver_data' is non-null}} expected-note{{Taking true branch}}
    return 1; // LEAK // expected-warning{{Reference to 'child' acquired by device_find_child() is not released on this path (missing put_device())}} expected-note{{Reference to 'child' acquired by device_find_child() is not released on this path (missing put_device())}}
  put_device(child);
  return 0;
}

int put_in_one_branch(int flag) {
  struct device_node *np = of_find_node_by_name(NULL, "cpus"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (flag) // expected-note{{Assuming 'flag' is 0}} expected-note{{Taking false branch}}
    of_node_put(np);
  return 0; // LEAK when !flag // expected-warning{{Reference to 'np' acquired by of_find_node_by_name() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_find_node_by_name() is not released on this path (missing of_node_put())}}
}

int of_find_device_leak(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np); // expected-note{{The call to of_find_device_by_node() returns a counted reference (+1): 'pdev' must be released}}
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -EPROBE_DEFER;
  return pdev->id; // LEAK // expected-warning{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}} expected-note{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}}
}

int pci_get_leak(void) {
  struct pci_dev *pdev = pci_get_device(0x8086, 0x1234, NULL); // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'pdev' must be released}}
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (pci_enable_device(pdev)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'pdev' acquired by pci_get_device() is not released on this path (missing pci_dev_put())}} expected-note{{Reference to 'pdev' acquired by pci_get_device() is not released on this path (missing pci_dev_put())}}
  pci_dev_put(pdev);
  return 0;
}

int dev_get_by_name_leak(struct net *net) {
  struct net_device *nd = dev_get_by_name(net, "eth0"); // expected-note{{The call to dev_get_by_name() returns a counted reference (+1): 'nd' must be released}}
  if (!nd) // expected-note{{Assuming 'nd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (dev_open(nd)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'nd' acquired by dev_get_by_name() is not released on this path (missing dev_put())}} expected-note{{Reference to 'nd' acquired by dev_get_by_name() is not released on this path (missing dev_put())}}
  dev_put(nd);
  return 0;
}

/* drivers/infiniband/hw/mlx5/main.c mlx5_netdev_event(), its dev_put()
 * deleted (a seeded bug of held-out set 8). */
int ib_netdev_leak(struct ib_device *ibdev) {
  struct net_device *nd = ib_device_get_netdev(ibdev, 1); // expected-note{{The call to ib_device_get_netdev() returns a counted reference (+1): 'nd' must be released}}
  if (!nd) // expected-note{{Assuming 'nd' is non-null}} expected-note{{Taking false branch}}
    return 0;
  return dev_open(nd); // expected-warning{{Reference to 'nd' acquired by ib_device_get_netdev() is not released on this path (missing dev_put())}} expected-note{{Reference to 'nd' acquired by ib_device_get_netdev() is not released on this path (missing dev_put())}}
}

int ib_netdev_ok(struct ib_device *ibdev) {
  struct net_device *nd = ib_device_get_netdev(ibdev, 1);
  int ret;
  if (!nd)
    return 0;
  ret = dev_open(nd);
  dev_put(nd);
  return ret; // no-warning
}

/* drivers/pci/of.c of_pci_make_dev_node(), its of_node_put() on the error
 * path deleted (a seeded bug of held-out set 9). */
int changeset_node_leak(struct of_changeset *cset, struct device_node *parent) {
  struct device_node *np = of_changeset_create_node(cset, parent, "pci"); // expected-note{{The call to of_changeset_create_node() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  of_changeset_add_prop_string(cset, np, "device_type", "pci"); // the changeset's entry takes its own count
  if (of_changeset_apply(cset)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // LEAK expected-warning{{Reference to 'np' acquired by of_changeset_create_node() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_changeset_create_node() is not released on this path (missing of_node_put())}}
  parent->data = np;
  return 0;
}

int changeset_node_ok(struct of_changeset *cset, struct device_node *parent) {
  struct device_node *np = of_changeset_create_node(cset, parent, "pci");
  if (!np)
    return -ENOMEM;
  if (of_changeset_apply(cset)) {
    of_node_put(np);
    return -EINVAL; // no-warning
  }
  parent->data = np;
  return 0;
}

int dget_parent_leak(struct dentry *d) {
  struct dentry *parent = dget_parent(d); // expected-note{{The call to dget_parent() returns a counted reference (+1): 'parent' must be released}}
  if (d_revalidate(parent)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // LEAK // expected-warning{{Reference to 'parent' acquired by dget_parent() is not released on this path (missing dput())}} expected-note{{Reference to 'parent' acquired by dget_parent() is not released on this path (missing dput())}}
  dput(parent);
  return 0;
}

int lookup_leak(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1); // expected-note{{The call to lookup_one_len() returns a counted reference (+1): 'd' must be released}}
  if (IS_ERR(d)) // expected-note{{Taking false branch}}
    return PTR_ERR(d);
  if (!d->d_inode) // expected-note{{Assuming field 'd_inode' is null}} expected-note{{Taking true branch}}
    return -ENOENT; // LEAK // expected-warning{{Reference to 'd' acquired by lookup_one_len() is not released on this path (missing dput())}} expected-note{{Reference to 'd' acquired by lookup_one_len() is not released on this path (missing dput())}}
  dput(d);
  return 0;
}

int fwnode_ref_leak(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = fwnode_find_reference(fw, "phy", 0); // expected-note{{The call to fwnode_find_reference() returns a counted reference (+1): 'ref' must be released}}
  if (IS_ERR(ref)) // expected-note{{Taking false branch}}
    return PTR_ERR(ref);
  return fwnode_property_read_u32(ref, "x", NULL) ? -EINVAL : 0; // LEAK // expected-warning{{Reference to 'ref' acquired by fwnode_find_reference() is not released on this path (missing fwnode_handle_put())}} expected-note{{Assuming the condition is false}} expected-note{{'?' condition is false}} expected-note{{Reference to 'ref' acquired by fwnode_find_reference() is not released on this path (missing fwnode_handle_put())}}
}

int kobject_create_leak(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("x", parent); // expected-note{{The call to kobject_create_and_add() returns a counted reference (+1): 'k' must be released}}
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'k' acquired by kobject_create_and_add() is not released on this path (missing kobject_put())}} expected-note{{Reference to 'k' acquired by kobject_create_and_add() is not released on this path (missing kobject_put())}}
  kobject_put(k);
  return 0;
}

int get_parent_leak(struct device_node *np) {
  struct device_node *parent = of_get_parent(np); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'parent' must be released}}
  if (parent && of_device_is_compatible(parent, "simple-bus")) // expected-note{{Assuming 'parent' is non-null}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return 1; // LEAK // expected-warning{{Reference to 'parent' acquired by of_get_parent() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'parent' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  of_node_put(parent);
  return 0;
}

int find_ok(void) {
  struct device_node *np = of_find_node_by_path("/soc");
  u32 v = 0;
  if (!np)
    return -ENODEV;
  if (of_property_read_u32(np, "reg", &v)) {
    of_node_put(np);
    return -EINVAL;
  }
  of_node_put(np);
  return v; // no-warning
}

int bus_find_ok(struct bus_type *bus, const void *key,
                int (*match)(struct device *, const void *)) {
  struct device *d = bus_find_device(bus, NULL, key, match);
  int r;
  if (!d)
    return -ENODEV;
  r = use(d->driver_data);
  put_device(d);
  return r; // no-warning
}

int node_put_via_fwnode(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return -ENODEV;
  fwnode_handle_put(of_fwnode_handle(np));
  return 0; // no-warning
}

int pdev_put_via_device(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  if (!pdev)
    return -EPROBE_DEFER;
  put_device(&pdev->dev);
  return 0; // no-warning
}

int sink_path(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    panic("no node"); // no-warning
  if (setup())
    panic("setup"); // no-warning
  of_node_put(np);
  return 0;
}

int cleanup_attribute(void) {
  struct device_node *np __free(device_node) = of_find_node_by_path("/x");
  if (!np)
    return -ENODEV;
  return of_device_is_available(np); // no-warning: put by the cleanup
}

int acpi_match_leak(void) {
  struct acpi_device *adev = acpi_dev_get_first_match_dev("INT33FE", NULL, -1); // expected-note{{The call to acpi_dev_get_first_match_dev() returns a counted reference (+1): 'adev' must be released}}
  if (!adev) // expected-note{{Assuming 'adev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (!acpi_dev_ready(adev)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EPROBE_DEFER; // LEAK // expected-warning{{Reference to 'adev' acquired by acpi_dev_get_first_match_dev() is not released on this path (missing acpi_dev_put())}} expected-note{{Reference to 'adev' acquired by acpi_dev_get_first_match_dev() is not released on this path (missing acpi_dev_put())}}
  acpi_dev_put(adev);
  return 0;
}

int acpi_match_ok(void) {
  struct acpi_device *adev = acpi_dev_get_first_match_dev("INT33FE", NULL, -1);
  int ready;
  if (!adev)
    return -ENODEV;
  ready = acpi_dev_ready(adev);
  acpi_dev_put(adev);
  return ready ? 0 : -EPROBE_DEFER; // no-warning
}

int i2c_adapter_leak(int nr) {
  struct i2c_adapter *adap = i2c_get_adapter(nr); // expected-note{{The call to i2c_get_adapter() returns a counted reference (+1): 'adap' must be released}}
  if (!adap) // expected-note{{Assuming 'adap' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (i2c_adapter_probe(adap)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'adap' acquired by i2c_get_adapter() is not released on this path (missing i2c_put_adapter())}} expected-note{{Reference to 'adap' acquired by i2c_get_adapter() is not released on this path (missing i2c_put_adapter())}}
  i2c_put_adapter(adap);
  return 0;
}

int i2c_adapter_ok(struct device_node *np) {
  struct i2c_adapter *adap = of_get_i2c_adapter_by_node(np);
  int ret;
  if (!adap)
    return -EPROBE_DEFER;
  ret = i2c_adapter_probe(adap);
  i2c_put_adapter(adap);
  return ret; // no-warning
}

void tty_port_leak(struct tty_port *port) {
  struct tty_struct *tty = tty_port_tty_get(port); // expected-note{{The call to tty_port_tty_get() returns a counted reference (+1): 'tty' must be released}}
  if (!tty) // expected-note{{Assuming 'tty' is non-null}} expected-note{{Taking false branch}}
    return;
  if (tty_busy(tty)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return; // LEAK // expected-warning{{Reference to 'tty' acquired by tty_port_tty_get() is not released on this path (missing tty_kref_put())}} expected-note{{Reference to 'tty' acquired by tty_port_tty_get() is not released on this path (missing tty_kref_put())}}
  tty_hangup(tty);
  tty_kref_put(tty);
}

void tty_port_ok(struct tty_port *port) {
  struct tty_struct *tty = tty_port_tty_get(port);
  if (!tty)
    return;
  if (!tty_busy(tty))
    tty_hangup(tty);
  tty_kref_put(tty); // no-warning
}

int mdio_bus_leak(struct device_node *np) {
  struct mii_bus *bus = of_mdio_find_bus(np); // expected-note{{The call to of_mdio_find_bus() returns a counted reference (+1): 'bus' must be released}}
  if (!bus) // expected-note{{Assuming 'bus' is non-null}} expected-note{{Taking false branch}}
    return -EPROBE_DEFER;
  return bus->state; // LEAK // expected-warning{{Reference to 'bus' acquired by of_mdio_find_bus() is not released on this path (missing put_device())}} expected-note{{Reference to 'bus' acquired by of_mdio_find_bus() is not released on this path (missing put_device())}}
}

int mdio_bus_ok(struct device_node *np) {
  struct mii_bus *bus = of_mdio_find_bus(np);
  int state;
  if (!bus)
    return -EPROBE_DEFER;
  state = bus->state;
  put_device(&bus->dev);
  return state; // no-warning
}

/* A getter that starts from a CPU number, not a node. */
struct device_node *of_get_cpu_node(int cpu, unsigned int *thread);

int cpu_node_ok(int cpu) {
  struct device_node *np = of_get_cpu_node(cpu, NULL);
  if (!np)
    return -ENODEV;
  of_node_put(np);
  return 0; // no-warning
}

int cpu_node_bad(int cpu) {
  struct device_node *np = of_get_cpu_node(cpu, NULL); // expected-note{{The call to of_get_cpu_node() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return 0; // LEAK expected-warning{{Reference to 'np' acquired by of_get_cpu_node() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_get_cpu_node() is not released on this path (missing of_node_put())}}
}
