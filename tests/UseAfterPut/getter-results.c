// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: the result of a getter that takes a held node is
 * another node with its own reference: putting it leaves the argument's
 * reference alone, while putting a view of the argument (a call not named
 * like a getter) drops it. */

int use(const void *p);

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
  return use(np->name); // UAP // // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
}

/* One object under two names: a lookup that may return its argument (in
 * 6.1 pcie_find_root_port() returns the device itself for a root port).
 * The message names the variable the code uses and says which reference
 * it is. */
static struct pci_dev *find_root_of(struct pci_dev *dev) {
  return dev->vendor == 0x8086 ? dev : 0;
}

int root_alias_ok(void) {
  struct pci_dev *pdev = pci_get_device(1, 2, 0);
  struct pci_dev *root_port;
  int ret;
  if (!pdev)
    return -ENODEV;
  root_port = find_root_of(pdev);
  ret = root_port ? use(root_port) : 0; // no-warning: before the put
  pci_dev_put(pdev);
  return ret;
}

int root_alias_bad(void) {
  struct pci_dev *pdev = pci_get_device(1, 2, 0); // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'pdev' must be released}}
  struct pci_dev *root_port;
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  root_port = find_root_of(pdev);
  pci_dev_put(pdev); // expected-note{{Reference to 'pdev' released by pci_dev_put(): this path holds no more references to it}}
  if (!root_port) // expected-note{{'root_port' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return use(root_port); // UAP // expected-warning{{'root_port' (the same object as 'pdev' on this path) is passed to use() after pci_dev_put() released the last reference this path held; the object may already be freed}} expected-note{{'root_port' (the same object as 'pdev' on this path) is passed to use() after pci_dev_put() released the last reference this path held; the object may already be freed}}
}

