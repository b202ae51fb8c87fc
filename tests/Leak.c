// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

int use(void *p);
int setup(void);
struct priv { struct device_node *np; struct device *dev; struct net_device *ndev; };
static struct device_node *saved_node;

/* ===== positives ===== */

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
    goto err_np; // LEAK ep // v19-note{{Control jumps to line 38}}
  of_node_put(ep);
err_np:
  of_node_put(np); // expected-warning{{Reference to 'ep' acquired by of_get_next_child() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'ep' acquired by of_get_next_child() is not released on this path (missing of_node_put())}}
  return ret;
}

int child_break(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) { // expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}}
    if (of_device_is_available(child)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      break; // v19-note{{Execution continues on line 48}} v22-note{{Execution jumps to the end of the function}}
  }
  return 0; // LEAK child // expected-warning{{Reference to 'child' held by the loop over of_get_next_child() leaks: the loop is left without of_node_put()}} expected-note{{Reference to 'child' held by the loop over of_get_next_child() leaks: the loop is left without of_node_put()}}
}

int child_return_inside(struct device_node *parent) {
  struct device_node *child;
  for_each_available_child_of_node(parent, child) { // expected-note{{The call to of_get_next_available_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}}
    u32 reg;
    if (of_property_read_u32(child, "reg", &reg)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return -EINVAL; // LEAK child // expected-warning{{Reference to 'child' held by the loop over of_get_next_available_child() leaks: the loop is left without of_node_put()}} expected-note{{Reference to 'child' held by the loop over of_get_next_available_child() leaks: the loop is left without of_node_put()}}
  }
  return 0;
}

int parse_phandle_leak(struct device_node *np) {
  struct device_node *remote = of_parse_phandle(np, "remote", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'remote' must be released}}
  if (!remote) // expected-note{{Assuming 'remote' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return of_device_is_available(remote) ? 0 : -ENODEV; // LEAK // expected-warning{{Reference to 'remote' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}} expected-note{{Assuming the condition is false}} expected-note{{'?' condition is false}} expected-note{{Reference to 'remote' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}}
}

/* LLVM 22 stops unrolling this loop before its third iteration: the leak is
   only reached by LLVM 19 (a known false negative on 22). */
int find_in_loop(void) {
  struct device_node *np;
  int n = 0;
  for_each_compatible_node(np, NULL, "vendor,chip") { // v19-note{{Loop condition is true.  Entering loop body}} v19-note{{Loop condition is true.  Entering loop body}} v19-note{{The call to of_find_compatible_node() returns a counted reference (+1): 'np' must be released}} v19-note{{Loop condition is true.  Entering loop body}}
    if (n++ == 2) // v19-note{{Taking false branch}} v19-note{{Taking false branch}} v19-note{{Taking true branch}}
      return n; // LEAK np // v19-warning{{Reference to 'np' held by the loop over of_find_compatible_node() leaks: the loop is left without of_node_put()}} v19-note{{Reference to 'np' held by the loop over of_find_compatible_node() leaks: the loop is left without of_node_put()}}
  }
  return n;
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

int pm_get_sync_error(struct device *dev) {
  int ret = pm_runtime_get_sync(dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: usage count taken even on failure // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  ret = setup();
  pm_runtime_put(dev);
  return ret;
}

int pm_get_sync_later_error(struct platform_device *pdev) {
  int ret;
  pm_runtime_get_sync(&pdev->dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of '&pdev->dev', even when it fails}}
  ret = setup();
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  pm_runtime_put(&pdev->dev);
  return 0;
}

int pm_resume_and_get_later_error(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  pm_runtime_put_autosuspend(dev);
  return 0;
}

int get_device_error(struct device *dev, struct priv *p) {
  get_device(dev); // expected-note{{Reference to 'dev' taken by get_device()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK // expected-warning{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}}
  p->dev = dev;
  return 0;
}

int of_node_get_error(struct device_node *np) {
  struct device_node *n = of_node_get(np); // expected-note{{Reference to 'np' taken by of_node_get()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // LEAK // expected-warning{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}} expected-note{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}}
  of_node_put(n);
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

int for_each_pci_leak(void) {
  struct pci_dev *pdev = NULL;
  for_each_pci_dev(pdev) { // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'pdev' must be released}} expected-note{{Assuming the condition is true}} expected-note{{Loop condition is true.  Entering loop body}}
    if (pdev->vendor == 0x8086) // expected-note{{Assuming field 'vendor' is equal to 32902}} expected-note{{Taking true branch}}
      return 1; // LEAK // expected-warning{{Reference to 'pdev' held by the loop over pci_get_device() leaks: the loop is left without pci_dev_put()}} expected-note{{Reference to 'pdev' held by the loop over pci_get_device() leaks: the loop is left without pci_dev_put()}}
  }
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

int fwnode_child_leak(struct device *dev) {
  struct fwnode_handle *child;
  device_for_each_child_node(dev, child) { // expected-note{{The call to device_get_next_child_node() returns a counted reference (+1): 'child' must be released}} expected-note{{Loop condition is true.  Entering loop body}}
    u32 v;
    if (fwnode_property_read_u32(child, "reg", &v)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return -EINVAL; // LEAK // expected-warning{{Reference to 'child' held by the loop over device_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}} expected-note{{Reference to 'child' held by the loop over device_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}}
  }
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

int dev_hold_error(struct net_device *nd) {
  dev_hold(nd); // expected-note{{Reference to 'nd' taken by dev_hold()}}
  if (dev_open(nd)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'nd' taken by dev_hold() is not released on this error path (missing dev_put())}} expected-note{{Reference to 'nd' taken by dev_hold() is not released on this error path (missing dev_put())}}
  dev_put(nd);
  return 0;
}

int get_parent_leak(struct device_node *np) {
  struct device_node *parent = of_get_parent(np); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'parent' must be released}}
  if (parent && of_device_is_compatible(parent, "simple-bus")) // expected-note{{Assuming 'parent' is non-null}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return 1; // LEAK // expected-warning{{Reference to 'parent' acquired by of_get_parent() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'parent' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  of_node_put(parent);
  return 0;
}

/* ===== negatives ===== */

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

struct device_node *find_returned(void) {
  return of_find_compatible_node(NULL, NULL, "x"); // no-warning
}

struct device_node *find_returned_var(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (np && !of_device_is_available(np)) {
    of_node_put(np);
    return NULL;
  }
  return np; // no-warning
}

int find_stored(struct priv *p) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return -ENODEV;
  p->np = np;
  return 0; // no-warning
}

int find_stored_global(void) {
  saved_node = of_parse_phandle(NULL, "x", 0);
  return saved_node ? 0 : -ENODEV; // no-warning
}

void find_out_param(struct device_node **out) {
  *out = of_get_child_by_name(NULL, "x"); // no-warning
}

int loop_finishes(struct device_node *parent) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(parent, child)
    n++;
  return n; // no-warning
}

int loop_put_before_break(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) {
    if (of_device_is_available(child)) {
      of_node_put(child);
      break;
    }
  }
  return 0; // no-warning
}

int loop_put_before_return(struct device_node *parent) {
  struct device_node *child;
  for_each_available_child_of_node(parent, child) {
    u32 reg;
    if (of_property_read_u32(child, "reg", &reg)) {
      of_node_put(child);
      return -EINVAL; // no-warning
    }
  }
  return 0;
}

struct device_node *loop_returns_child(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child)
    if (of_device_is_available(child))
      return child; // no-warning
  return NULL;
}

int loop_stores_child(struct device_node *parent, struct priv *p) {
  struct device_node *child;
  for_each_child_of_node(parent, child) {
    if (of_device_is_available(child)) {
      p->np = child;
      break; // no-warning
    }
  }
  return 0;
}

int find_failed(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return -ENODEV; // no-warning
  of_node_put(np);
  return 0;
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

int pm_get_sync_ok(struct device *dev) {
  int ret = pm_runtime_get_sync(dev);
  if (ret < 0) {
    pm_runtime_put_noidle(dev);
    return ret; // no-warning
  }
  pm_runtime_put(dev);
  return 0;
}

int pm_resume_and_get_fail(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret; // no-warning: nothing taken on failure
  pm_runtime_put(dev);
  return 0;
}

int pm_get_in_probe(struct platform_device *pdev) {
  pm_runtime_enable(&pdev->dev);
  pm_runtime_get_sync(&pdev->dev);
  dev_info(&pdev->dev, "probed");
  return 0; // no-warning: put in remove()
}

int pm_get_wrapper(struct device *dev) {
  return pm_runtime_get_sync(dev); // no-warning: the caller gets the contract
}

struct device *get_device_wrapper(struct device *dev) {
  return get_device(dev); // no-warning
}

void get_device_void(struct device *dev) {
  get_device(dev); // no-warning: paired elsewhere
}

int get_device_stored_error(struct device *dev, struct priv *p) {
  p->dev = get_device(dev);
  if (setup())
    return -EIO; // no-warning: handed over to p
  return 0;
}

int lookup_failed(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1);
  if (IS_ERR(d))
    return PTR_ERR(d); // no-warning
  dput(d);
  return 0;
}

int device_add_handover(struct device *parent) {
  struct device *d = device_find_child(parent, NULL, NULL);
  if (!d)
    return -ENODEV;
  list_add(&d->node, &parent->node);
  return 0; // no-warning: on a list
}

int pci_loop_finishes(void) {
  struct pci_dev *pdev = NULL;
  int n = 0;
  for_each_pci_dev(pdev)
    n++;
  return n; // no-warning
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

int dev_hold_ok(struct net_device *nd) {
  dev_hold(nd);
  if (dev_open(nd)) {
    dev_put(nd);
    return -EIO; // no-warning
  }
  return 0; // no-warning: success keeps it (paired elsewhere)
}

void drvdata_handover(struct device *dev) {
  struct device_node *np = of_parse_phandle(dev->of_node, "x", 0);
  dev_set_drvdata(dev, np); // no-warning
}

int kref_get_success(struct kobject *k) {
  kref_get(&k->kref);
  return 0; // no-warning
}

int cleanup_attribute(void) {
  struct device_node *np __free(device_node) = of_find_node_by_path("/x");
  if (!np)
    return -ENODEV;
  return of_device_is_available(np); // no-warning: put by the cleanup
}

struct device_node *cached_root(void) {
  static struct device_node *root;
  if (!root)
    root = of_find_node_by_path("/");
  return root; // no-warning
}

struct device_node *of_find_next_cache_node(const struct device_node *np);

int cache_levels(struct device_node *cpu) {
  struct device_node *np = of_node_get(cpu), *prev = np;
  int levels = 0;
  while ((np = of_find_next_cache_node(np))) { // expected-note{{The call to of_find_next_cache_node() returns a counted reference (+1): 'np' must be released}} expected-note{{Loop condition is true.  Entering loop body}} v19-note{{Loop condition is false. Execution continues on line 510}} v22-note{{Loop condition is false. Execution jumps to the end of the function}}
    of_node_put(prev);
    prev = np;
    levels++;
  }
  of_node_put(np); // expected-warning{{Reference to 'np' acquired by of_find_next_cache_node() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_find_next_cache_node() is not released on this path (missing of_node_put())}}
  return levels; // LEAK prev (as in drivers/base/cacheinfo.c)
}

struct link { struct list_head node; struct device *supplier; };

int list_walk_pm(struct list_head *head) {
  struct link *l;
  list_for_each_entry(l, head, node)
    if (pm_runtime_get_sync(l->supplier) < 0)
      return -EIO; // no-warning: put by a later walk (rpm_put_suppliers)
  return 0;
}

struct dd { struct device *parent; };
int really_probe(struct dd *d);

int probe_parent_reloaded(struct dd *d) {
  int ret;
  if (d->parent)
    pm_runtime_get_sync(d->parent);
  ret = really_probe(d);
  if (d->parent)
    pm_runtime_put(d->parent);
  return ret < 0 ? ret : 0; // no-warning: the put went through a reloaded field
}

struct hubx { struct usb_device *hdev; };

int hub_probe_like(struct usb_device *hdev, struct hubx *hub) {
  hub->hdev = hdev;
  usb_get_dev(hdev);
  if (setup())
    return -ENODEV; // no-warning: the reference belongs to hub->hdev
  return 0;
}

int is_err_or_null_on_null_api(struct device_node *np) {
  struct device_node *parent = of_get_parent(np);
  if (IS_ERR_OR_NULL(parent))
    return -ENODEV; // no-warning: of_get_parent() never returns ERR_PTR
  of_node_put(parent);
  return 0;
}

/* ===== validation run 2 (issue 5): false-positive classes, each with a
 * positive twin that must still warn ===== */
void rel(struct kref *k);

/* #14: task stacks */
int stack_err(struct task_struct *t) {
  void *stack = try_get_task_stack(t); // expected-note{{Reference to 't' taken by try_get_task_stack()}}
  if (!stack) // expected-note{{'stack' is non-null}} expected-note{{Taking false branch}}
    return -EAGAIN;
  if (use(stack)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to 't' taken by try_get_task_stack() is not released on this error path (missing put_task_stack())}} expected-note{{Reference to 't' taken by try_get_task_stack() is not released on this error path (missing put_task_stack())}}
  put_task_stack(t);
  return 0;
}

int stack_ok(struct task_struct *t) {
  void *stack = try_get_task_stack(t);
  if (!stack)
    return -EAGAIN;
  if (use(stack)) {
    put_task_stack(t);
    return -EIO; // no-warning
  }
  put_task_stack(t);
  return 0;
}

/* #22 (the notes are those of new_client() below, which inlines this) */
struct i2c_adapter *adapter_ok(struct bus_type *bus, void *h) {
  struct device *dev = bus_find_device(bus, NULL, h, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  struct i2c_adapter *adapter;
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  adapter = i2c_verify_adapter(dev);
  if (!adapter) // expected-note{{Assuming 'adapter' is non-null}} expected-note{{Taking false branch}}
    put_device(dev);
  return adapter; // no-warning
}

int adapter_nr(struct bus_type *bus, void *h) {
  struct device *dev = bus_find_device(bus, NULL, h, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  struct i2c_adapter *adapter;
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  adapter = i2c_verify_adapter(dev);
  if (!adapter) { // expected-note{{Assuming 'adapter' is non-null}} expected-note{{Taking false branch}}
    put_device(dev);
    return -EINVAL;
  }
  return adapter->nr; // LEAK expected-warning{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}}
}

/* #19 */
struct hub { unsigned long bits[1]; struct device *port; };
int port_resume_ok(struct hub *hub, int port1) {
  struct device *port = hub->port;
  if (!test_and_set_bit(port1, hub->bits)) {
    int status = pm_runtime_resume_and_get(port);
    if (status < 0)
      return status;
  }
  if (setup())
    return -EIO; // no-warning
  return 0;
}
int port_resume_bad(struct hub *hub, int port1) {
  struct device *port = hub->port;
  if (!test_bit(port1, hub->bits)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    int status = pm_runtime_resume_and_get(port); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'port': it succeeded}}
    if (status < 0) // expected-note{{'status' is >= 0}} expected-note{{Taking false branch}}
      return status;
  }
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{The runtime-PM usage count of 'port' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'port' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return 0;
}

/* #23 */
int flagged_ok(struct i2c_client *client, struct device *adap) {
  int status;
  if (client->flags & 1)
    pm_runtime_get_sync(adap);
  status = i2c_client_setup(client);
  if (status < 0)
    goto out;
  return 0;
out:
  if (client->flags & 1)
    pm_runtime_put_sync(adap);
  return status; // no-warning
}
int flagged_bad(struct i2c_client *client, struct device *adap) {
  int status;
  if (client->flags & 1) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    pm_runtime_get_sync(adap); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'adap', even when it fails}}
  status = i2c_client_setup(client);
  if (status < 0) // expected-note{{Assuming 'status' is < 0}} expected-note{{Taking true branch}}
    goto out; // expected-note{{Control jumps to line 655}}
  return 0;
out:
  if (client->flags & 2) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    pm_runtime_put_sync(adap);
  return status; // LEAK expected-warning{{The runtime-PM usage count of 'adap' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'adap' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
}

/* #3 */
struct device_node *warn_ok(struct device_node *prev) {
  struct device_node *port = of_get_parent(prev);
  if (WARN_ONCE(!port, "no parent"))
    return NULL; // no-warning
  of_node_put(port);
  return NULL;
}
struct device_node *warn_bad(struct device_node *prev) {
  struct device_node *port = of_get_parent(prev); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'port' must be released}}
  if (!port) // expected-note{{Assuming 'port' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  if (WARN_ONCE(setup(), "setup")) // expected-note{{Assuming the condition is false}} expected-note{{'__ret_do_once' is true}} expected-note{{Left side of '&&' is true}} expected-note 2 {{Taking true branch}}
    return NULL; // LEAK expected-warning{{Reference to 'port' acquired by of_get_parent() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'port' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  of_node_put(port);
  return NULL;
}

/* tty/gss */
static struct kobject *lookup_kobj(struct kobject *k) {
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-ENODEV);
  kref_get(&k->kref); // expected-note{{Reference to '&k->kref' taken by kref_get()}}
  return k;
}
int open_ok(struct kobject *k) {
  struct kobject *o = lookup_kobj(k);
  if (IS_ERR(o))
    return -ENODEV; // no-warning
  kref_put(&o->kref, rel);
  return 0;
}
int open_ptr_ok(struct kobject *k) {
  struct kobject *o = lookup_kobj(k);
  if (PTR_ERR(o) == -EAGAIN)
    return -EAGAIN; // no-warning
  if (IS_ERR(o))
    return PTR_ERR(o);
  kref_put(&o->kref, rel);
  return 0;
}
int open_bad(struct kobject *k) {
  struct kobject *o = lookup_kobj(k); // expected-note{{Calling 'lookup_kobj'}} expected-note{{Returning from 'lookup_kobj'}}
  if (IS_ERR(o)) // expected-note{{Taking false branch}}
    return -ENODEV;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to '&k->kref' taken by kref_get() is not released on this error path (missing kref_put())}} expected-note{{Reference to '&k->kref' taken by kref_get() is not released on this error path (missing kref_put())}}
  kref_put(&o->kref, rel);
  return 0;
}

/* ACPI firmware nodes have no get/put ops: ACPI's own fwnode walks owe no
 * put (drivers/acpi/property.c acpi_fwnode_get_named_child_node). */
static struct fwnode_handle *acpi_named_child(const struct fwnode_handle *fw) {
  struct fwnode_handle *child;
  fwnode_for_each_child_node(fw, child) {
    if (use(child))
      return child;
  }
  return NULL;
}

int acpi_ref_args(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = acpi_named_child(fw);
  if (!ref)
    return -EINVAL;
  return 0; // no-warning
}

static struct fwnode_handle *named_child(const struct fwnode_handle *fw) {
  struct fwnode_handle *child;
  fwnode_for_each_child_node(fw, child) { // expected-note{{The call to fwnode_get_next_child_node() returns a counted reference (+1): 'child' must be released}} expected-note{{Loop condition is true.  Entering loop body}}
    if (use(child)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return child;
  }
  return NULL;
}

int ref_args(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = named_child(fw); // expected-note{{Calling 'named_child'}} expected-note{{Returning from 'named_child'}}
  if (!ref) // expected-note{{'ref' is non-null}} expected-note{{Taking false branch}}
    return -EINVAL;
  return 0; // LEAK expected-warning{{Reference to 'child' held by the loop over fwnode_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}} expected-note{{Reference to 'child' held by the loop over fwnode_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}}
}

/* A plain refcount_dec() gives back a refcount_inc() (net/sunrpc
 * gss_setup_upcall's error path). */
struct upmsg { refcount_t count; };
int send_upcall(struct upmsg *m);

int upcall_undo(struct upmsg *m) {
  refcount_inc(&m->count);
  if (send_upcall(m) < 0) {
    refcount_dec(&m->count);
    return -EAGAIN; // no-warning
  }
  return 0;
}

int upcall_no_undo(struct upmsg *m) {
  refcount_inc(&m->count); // expected-note{{Reference to '&m->count' taken by refcount_inc()}}
  if (send_upcall(m) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EAGAIN; // LEAK expected-warning{{Reference to '&m->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&m->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* The caller of a converting lookup puts through the converted pointer
 * (drivers/i2c/i2c-core-acpi.c i2c_acpi_notify); a call that takes the
 * adapter and returns another object (a new client) hands nothing over. */
struct i2c_client *i2c_new_client_device(struct i2c_adapter *adap, void *info);

int notify_add(struct bus_type *bus, void *h) {
  struct i2c_adapter *adapter = adapter_ok(bus, h);
  if (!adapter)
    return 0;
  use(adapter);
  put_device(&adapter->dev);
  return 0; // no-warning
}

struct i2c_client *new_client(struct bus_type *bus, void *h) {
  struct i2c_adapter *adapter = adapter_ok(bus, h); // expected-note{{Calling 'adapter_ok'}} expected-note{{Returning from 'adapter_ok'}}
  if (!adapter) // expected-note{{'adapter' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-EPROBE_DEFER);
  return i2c_new_client_device(adapter, NULL); // LEAK expected-warning{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}}
}

/* validation-sweep #4/#7: a get written on the counter field
 * (`refcount_inc_not_zero(&sk->sk_refcnt)`, or maybe_get_net()'s inline
 * body on `&net->ns.count`) is dropped by the object API's put of the
 * pointer (`sock_put(sk)`, `put_net(peer)`): net/core/skbuff.c
 * skb_clone_sk(), net/core/net_namespace.c peernet2id_alloc(). */
int clone_sk_ok(struct sock *sk) {
  if (!refcount_inc_not_zero(&sk->sk_refcnt))
    return -ENOENT;
  if (setup()) {
    sock_put(sk);
    return -ENOMEM; // no-warning
  }
  return 0;
}

int peer_alive_ok(struct net *peer) {
  bool alive = false;
  if (refcount_inc_not_zero(&peer->count))
    alive = true;
  use(peer);
  if (alive)
    put_net(peer);
  return -EINVAL; // no-warning
}

/* The put of another object, or a count of something else the object
 * keeps, is no release of that count. */
int clone_sk_other(struct sock *sk, struct sock *other) {
  if (!refcount_inc_not_zero(&other->sk_refcnt)) // expected-note{{The call to refcount_inc_not_zero() succeeded: this path holds a reference}} expected-note{{Taking false branch}}
    return -ENOENT;
  if (setup()) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    sock_put(sk);
    return -ENOMEM; // LEAK expected-warning{{Reference to '&other->sk_refcnt' taken by refcount_inc_not_zero() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&other->sk_refcnt' taken by refcount_inc_not_zero() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return 0;
}

int clone_sk_wmem(struct sock *sk) {
  refcount_inc(&sk->sk_wmem_alloc); // expected-note{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc()}}
  if (setup()) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    sock_put(sk); // expected-note{{Reference to 'sk' released by sock_put()}}
    return -ENOMEM; // LEAK expected-warning{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return 0;
}

/* validation-sweep #8: a get on a tagged pointer whose word the path stored
 * into another object first belongs to that object (net/core/skbuff.c
 * pskb_extract(): __nf_copy() does `dst->_nfct = src->_nfct;
 * nf_conntrack_get(skb_nfct(src))`, and kfree_skb(clone) puts it). */
struct ct_obj { refcount_t use; };
struct pkt { unsigned long _nfct; };
#define CT_PTRMASK (~7UL)

int copy_ct_ok(struct pkt *dst, struct pkt *src) {
  struct ct_obj *ct;
  dst->_nfct = src->_nfct;
  ct = (struct ct_obj *)(src->_nfct & CT_PTRMASK);
  if (!ct)
    return 0;
  refcount_inc(&ct->use);
  if (setup())
    return -ENOMEM; // no-warning
  return 0;
}

int copy_ct_not_stored(struct pkt *dst, struct pkt *src) {
  struct ct_obj *ct;
  dst->_nfct = 0;
  ct = (struct ct_obj *)(src->_nfct & CT_PTRMASK);
  if (!ct) // expected-note{{Assuming 'ct' is non-null}} expected-note{{Taking false branch}}
    return 0;
  refcount_inc(&ct->use); // expected-note{{Reference to '&ct->use' taken by refcount_inc()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK expected-warning{{Reference to '&ct->use' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&ct->use' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* ---- a copy's pointers (kernel/cred.c prepare_creds()) ---- */
/* The new object is a copy of the old one, and takes a count on each object
   the copy points to: those counts are the copy's, dropped by its destructor
   (put_cred() -> __put_cred() -> put_cred_rcu()), not the function's. */
struct cuser { refcount_t count; };
struct ucred { atomic_t usage; struct cuser *user; };
int ucred_security(struct ucred *c);
void __put_ucred(struct ucred *c);
static inline void put_ucred(struct ucred *c) {
  if (atomic_dec_and_test(&c->usage))
    __put_ucred(c);
}
static inline struct cuser *get_cuser(struct cuser *u) {
  refcount_inc(&u->count); // expected-note{{Reference to '&u->count' taken by refcount_inc()}}
  return u;
}

struct ucred *prepare_ucred(const struct ucred *old) {
  struct ucred *new = kmalloc(sizeof(*new), GFP_KERNEL);
  if (!new)
    return NULL;
  *new = *old;
  atomic_set(&new->usage, 1);
  get_cuser(new->user);
  if (ucred_security(new) < 0)
    goto error;
  return new;
error:
  put_ucred(new);
  return NULL; // no-warning
}

/* A count on what the old object points to, which the copy does not hold,
   is the function's. */
struct ucred *prepare_ucred_old(const struct ucred *old) {
  struct ucred *new = kmalloc(sizeof(*new), GFP_KERNEL);
  if (!new) // expected-note{{Assuming 'new' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  atomic_set(&new->usage, 1);
  new->user = NULL;
  get_cuser(old->user); // expected-note{{Calling 'get_cuser'}} expected-note{{Returning from 'get_cuser'}}
  if (ucred_security(new) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    goto error; // expected-note{{Control jumps to line}}
  new->user = old->user;
  return new;
error:
  put_ucred(new);
  return NULL; // LEAK expected-warning{{Reference to '&u->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&u->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
}

/* ---- objects an __init function creates for good ---- */
/* reboot_ksysfs_init(): the "reboot" sysfs directory is created at boot and
   never removed; its creation reference is what keeps it. */
#define __init __attribute__((__section__(".init.text")))
int __init make_dir_init(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("reboot", parent);
  if (!k)
    return -ENOMEM;
  if (setup()) {
    kobject_put(k);
    return -EIO;
  }
  return 0; // no-warning
}

/* Failing without putting it is still a leak, */
int __init make_dir_init_fail(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("reboot", parent); // expected-note{{The call to kobject_create_and_add() returns a counted reference (+1): 'k' must be released}}
  if (!k) // expected-note{{Assuming 'k' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to 'k' acquired by kobject_create_and_add() is not released on this path (missing kobject_put())}} expected-note{{Reference to 'k' acquired by kobject_create_and_add() is not released on this path (missing kobject_put())}}
  return 0;
}

/* and so is a lookup's reference kept by an __init function. */
int __init find_node_init(void) {
  struct device_node *np = of_find_node_by_path("/reboot"); // expected-note{{The call to of_find_node_by_path() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  use(np);
  return 0; // LEAK expected-warning{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}}
}

/* ---- references handed to procfs inodes (fs/proc/generic.c) ---- */
/* proc_lookup_de(): proc_get_inode() takes over the entry's reference (it
   puts it itself when it fails). */
struct proc_dir_entry { refcount_t refcnt; };
struct super_block;
struct inode *proc_get_inode(struct super_block *sb, struct proc_dir_entry *de);

void *pde_lookup(struct super_block *sb, struct proc_dir_entry *de) {
  struct inode *inode;
  refcount_inc(&de->refcnt);
  inode = proc_get_inode(sb, de);
  if (!inode)
    return ERR_PTR(-ENOMEM); // no-warning
  return inode;
}

void *pde_lookup_other(struct super_block *sb, struct proc_dir_entry *de,
                       struct proc_dir_entry *other) {
  struct inode *inode;
  refcount_inc(&de->refcnt); // expected-note{{Reference to '&de->refcnt' taken by refcount_inc()}}
  inode = proc_get_inode(sb, other);
  if (!inode) // expected-note{{Assuming 'inode' is null}} expected-note{{Taking true branch}}
    return ERR_PTR(-ENOMEM); // LEAK expected-warning{{Reference to '&de->refcnt' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&de->refcnt' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return inode;
}

/* ---- a struct copy into the caller's memory (fs/namei.c nd_jump_root()) ---- */
/* `nd->path = nd->root; path_get(&nd->path)`: the count is kept by the
   field the path just wrote (put by terminate_walk()), like a pointer stored
   before its get. */
struct npath { struct dentry *dentry; };
struct walk { struct npath path, root; int flags; };
static inline void npath_get(const struct npath *p) {
  dget(p->dentry); // expected-note{{Reference to 'p->dentry' taken by dget()}}
}
void npath_put(const struct npath *p);

static int jump_root(struct walk *w) {
  npath_put(&w->path);
  w->path = w->root;
  npath_get(&w->path);
  return 0;
}
const char *walk_pick(struct walk *w) {
  if (setup())
    return ERR_PTR(-EIO);
  jump_root(w);
  return NULL; // no-warning
}

/* A get on a field as the caller left it is the function's own count. */
const char *walk_pick_root(struct walk *w) {
  npath_get(&w->root); // expected-note{{Calling 'npath_get'}} expected-note{{Returning from 'npath_get'}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return ERR_PTR(-EIO); // LEAK expected-warning{{Reference to 'p->dentry' taken by dget() is not released on this error path (missing dput())}} expected-note{{Reference to 'p->dentry' taken by dget() is not released on this error path (missing dput())}}
  w->flags = 1;
  return "x";
}

/* ---- kfree_skb() drops the count (net/netlink __netlink_dump_start()) ---- */
struct skb_ish { refcount_t users; };
void kfree_skb_ish(struct skb_ish *skb);
int dump_start(struct skb_ish *skb) {
  refcount_inc(&skb->users);
  if (setup()) {
    kfree_skb_ish(skb);
    return -ENODEV; // no-warning
  }
  return 0;
}
int dump_start_leak(struct skb_ish *skb) {
  refcount_inc(&skb->users); // expected-note{{Reference to '&skb->users' taken by refcount_inc()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENODEV; // LEAK expected-warning{{Reference to '&skb->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&skb->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* ===== driver-side lookups (validation round 3) ===== */

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

/* The driver data of a held device is the handle a "get" function gives
 * out; its "put" drops the device through it (drivers/soc/qcom/qcom_aoss.c
 * qmp_get()/qmp_put(), drivers/memory/tegra/mc.c). */
struct qmp_handle { struct device *dev; int ready; };
void handle_put_action(void *data);

struct qmp_handle *handle_get_ok(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  struct qmp_handle *qmp;
  if (!pdev)
    return ERR_PTR(-ENODEV);
  qmp = platform_get_drvdata(pdev);
  if (!qmp) {
    put_device(&pdev->dev);
    return ERR_PTR(-EPROBE_DEFER);
  }
  return qmp; // no-warning: handed over with the handle
}

struct qmp_handle *handle_devm_ok(struct device *dev, struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  struct qmp_handle *qmp;
  int err;
  if (!pdev)
    return ERR_PTR(-ENODEV);
  qmp = platform_get_drvdata(pdev);
  if (!qmp) {
    put_device(&pdev->dev);
    return ERR_PTR(-EPROBE_DEFER);
  }
  err = devm_add_action_or_reset(dev, handle_put_action, qmp);
  if (err)
    return ERR_PTR(err); // no-warning: the action (run on failure too) puts it
  return qmp;
}

int handle_not_returned(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np); // expected-note{{The call to of_find_device_by_node() returns a counted reference (+1): 'pdev' must be released}}
  struct qmp_handle *qmp;
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  qmp = platform_get_drvdata(pdev);
  if (!qmp) { // expected-note{{Assuming 'qmp' is non-null}} expected-note{{Taking false branch}}
    put_device(&pdev->dev);
    return -EPROBE_DEFER;
  }
  return qmp->ready; // LEAK // expected-warning{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}} expected-note{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}}
}

/* pm_runtime_resume_and_get() returns 0 or a negative errno, never a
 * positive value (drivers/memory/renesas-rpc-if.c rpcif_hw_init()). */
int hw_xfer(struct device *dev);
void hw_setup(struct device *dev);

static int hw_reinit(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret)
    return ret;
  hw_setup(dev);
  pm_runtime_put(dev);
  return 0;
}

int xfer_reinit_ok(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret;
  ret = hw_xfer(dev);
  if (ret < 0)
    hw_reinit(dev);
  pm_runtime_put(dev);
  return ret; // no-warning
}

static int hw_reinit_leaky(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  hw_setup(dev);
  return 0;
}

int xfer_reinit_bad(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = hw_xfer(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    hw_reinit_leaky(dev); // expected-note{{Calling 'hw_reinit_leaky'}} expected-note{{Returning from 'hw_reinit_leaky'}}
  pm_runtime_put(dev); // expected-note{{Reference to 'dev' released by pm_runtime_put()}}
  return ret; // LEAK // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* container_of() of a found device is no ERR_PTR() (drivers/regulator/core.c
 * regulator_lookup_by_name() and _regulator_get()). */
struct rdev_like { int exclusive; struct device dev; };
static struct class rdev_class;
int rdev_match(struct device *dev, const void *data);

static struct rdev_like *rdev_lookup(const char *name) {
  struct device *dev = class_find_device(&rdev_class, NULL, name, rdev_match); // expected-note{{The call to class_find_device() returns a counted reference (+1): 'dev' must be released}}
  if (dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking true branch}}
    return container_of(dev, struct rdev_like, dev);
  return ERR_PTR(-ENODEV);
}

struct rdev_like *rdev_get_ok(const char *name) {
  struct rdev_like *r = rdev_lookup(name);
  if (IS_ERR(r))
    return ERR_PTR(PTR_ERR(r)); // no-warning: r points into the found device
  if (r->exclusive) {
    put_device(&r->dev);
    return ERR_PTR(-EBUSY);
  }
  return r;
}

struct rdev_like *rdev_get_bad(const char *name) {
  struct rdev_like *r = rdev_lookup(name); // expected-note{{Calling 'rdev_lookup'}} expected-note{{Returning from 'rdev_lookup'}}
  if (IS_ERR(r)) // expected-note{{Taking false branch}}
    return ERR_PTR(PTR_ERR(r));
  if (r->exclusive) // expected-note{{Assuming field 'exclusive' is not equal to 0}} expected-note{{Taking true branch}}
    return ERR_PTR(-EBUSY); // LEAK // expected-warning{{Reference to 'dev' acquired by class_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by class_find_device() is not released on this path (missing put_device())}}
  return r;
}

/* The handle's `dev` pointer is the device it was taken from: putting it
 * drops the reference (drivers/leds/led-class.c of_led_get()). */
struct led_like { struct device *dev; int busy; };

struct led_like *led_get_ok(struct class *cls, struct device_node *np) {
  struct device *led_dev = class_find_device_by_of_node(cls, np);
  struct led_like *led;
  if (!led_dev)
    return ERR_PTR(-EPROBE_DEFER);
  led = dev_get_drvdata(led_dev);
  if (led->busy) {
    put_device(led->dev);
    return ERR_PTR(-EBUSY); // no-warning: put through the handle
  }
  return led;
}

struct led_like *led_get_bad(struct class *cls, struct device_node *np) {
  struct device *led_dev = class_find_device_by_of_node(cls, np); // expected-note{{The call to class_find_device_by_of_node() returns a counted reference (+1): 'led_dev' must be released}}
  struct led_like *led;
  if (!led_dev) // expected-note{{Assuming 'led_dev' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-EPROBE_DEFER);
  led = dev_get_drvdata(led_dev);
  if (led->busy) // expected-note{{Assuming field 'busy' is not equal to 0}} expected-note{{Taking true branch}}
    return ERR_PTR(-EBUSY); // LEAK // expected-warning{{Reference to 'led_dev' acquired by class_find_device_by_of_node() is not released on this path (missing put_device())}} expected-note{{Reference to 'led_dev' acquired by class_find_device_by_of_node() is not released on this path (missing put_device())}}
  return led;
}

/* An array element reloaded after a call invalidated its array is the same
 * element (drivers/remoteproc/qcom_wcnss.c wcnss_start(): pds[i] taken in
 * one loop, put in the unwind loop after calls that take the structure). */
struct pd_set { int n; struct device **pds; };
int pd_setup_all(struct pd_set *s);

int pd0_start_ok(struct pd_set *s) {
  int ret = pm_runtime_get_sync(s->pds[0]);
  if (ret < 0) {
    pm_runtime_put_noidle(s->pds[0]);
    return ret;
  }
  ret = pd_setup_all(s);
  pm_runtime_put(s->pds[0]);
  return ret; // no-warning: the same element, reloaded
}

int pd0_start_bad(struct pd_set *s) {
  int ret = pm_runtime_get_sync(s->pds[0]); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 's->pds[0]', even when it fails}}
  if (ret < 0) { // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    pm_runtime_put_noidle(s->pds[0]);
    return ret;
  }
  ret = pd_setup_all(s);
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of 's->pds[0]' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 's->pds[0]' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  pm_runtime_put(s->pds[0]);
  return 0;
}

/* A wrapper that returns the get's own status passes the count that goes
 * with it to its caller (drivers/phy/phy-core.c phy_pm_runtime_get():
 * -EINPROGRESS still holds the count). */
int pm_get_forward_ok(struct device *dev) {
  int ret = pm_runtime_get(dev);
  if (ret < 0 && ret != -EINPROGRESS)
    pm_runtime_put_noidle(dev);
  return ret; // no-warning: the caller gets pm_runtime_get()'s own status
}

int pm_get_forward_bad(struct device *dev) {
  int ret = pm_runtime_get(dev); // expected-note{{The call to pm_runtime_get() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0 && ret != -EINPROGRESS) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get() is not dropped on this error path (missing pm_runtime_put_noidle())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get() is not dropped on this error path (missing pm_runtime_put_noidle())}}
  return ret;
}

/* A device pointer stored into a field, even before the get, names that
 * device when the field is reloaded after a call invalidated the structure
 * (drivers/mtd/nand/raw/tegra_nand.c: ctrl->dev = &pdev->dev; ...
 * pm_runtime_put_sync_suspend(ctrl->dev) on the error path). */
struct ctrl_like { struct device *dev; struct device *companion; int irq; };
int ctrl_setup(struct ctrl_like *ctrl);

int ctrl_probe_ok(struct platform_device *pdev, struct ctrl_like *ctrl) {
  int err;
  ctrl->dev = &pdev->dev;
  err = pm_runtime_resume_and_get(&pdev->dev);
  if (err)
    return err;
  err = ctrl_setup(ctrl);
  if (err < 0)
    goto put;
  return 0;
put:
  pm_runtime_put(ctrl->dev);
  return err; // no-warning: ctrl->dev is &pdev->dev
}

int ctrl_probe_bad(struct platform_device *pdev, struct ctrl_like *ctrl) {
  int err;
  ctrl->dev = &pdev->dev;
  err = pm_runtime_resume_and_get(&pdev->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of '&pdev->dev': it succeeded}}
  if (err) // expected-note{{'err' is 0}} expected-note{{Taking false branch}}
    return err;
  err = ctrl_setup(ctrl);
  if (err < 0) // expected-note{{Assuming 'err' is < 0}} expected-note{{Taking true branch}}
    goto put; // expected-note{{Control jumps to line}}
  return 0;
put:
  pm_runtime_put(ctrl->companion);
  return err; // LEAK // expected-warning{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* The driver data of a held device is a real object, never an ERR_PTR()
 * (drivers/power/supply/power_supply_core.c
 * devm_power_supply_get_by_phandle()). */
struct psy_like { int use; struct device *dev; };
static struct class psy_class;
int psy_match(struct device *dev, const void *data);
void *devres_alloc_like(int size);
void devres_add_like(struct device *dev, void *res);
void devres_free_like(void *res);

static struct psy_like *psy_get_by_phandle(struct device_node *np) {
  struct device *dev;
  struct psy_like *psy = NULL;
  dev = class_find_device(&psy_class, NULL, np, psy_match); // expected-note{{The call to class_find_device() returns a counted reference (+1): 'dev' must be released}}
  if (dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking true branch}}
    psy = dev_get_drvdata(dev);
  return psy;
}

struct psy_like *devm_psy_get_ok(struct device *d, struct device_node *np) {
  struct psy_like **ptr, *psy;
  ptr = devres_alloc_like(8);
  if (!ptr)
    return ERR_PTR(-ENOMEM);
  psy = psy_get_by_phandle(np);
  if (IS_ERR_OR_NULL(psy)) {
    devres_free_like(ptr);
  } else {
    *ptr = psy;
    devres_add_like(d, ptr);
  }
  return psy; // no-warning: the handle is returned
}

int psy_get_unused(struct device_node *np) {
  struct psy_like *psy = psy_get_by_phandle(np); // expected-note{{Calling 'psy_get_by_phandle'}} expected-note{{Returning from 'psy_get_by_phandle'}}
  if (IS_ERR_OR_NULL(psy)) // expected-note{{Taking false branch}}
    return -ENODEV;
  return psy->use; // LEAK // expected-warning{{Reference to 'dev' acquired by class_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by class_find_device() is not released on this path (missing put_device())}}
}

/* sound/soc/sh/rcar: rsnd_dma_request_channel() puts the node it is given
 * (a built-in model row). */
struct dma_chan;
struct dma_chan *rsnd_dma_request_channel(struct device_node *of_node, unsigned int id, void *mod, char *name);
struct dma_chan *rsnd_dma_other(struct device_node *of_node, unsigned int id);

struct dma_chan *rsnd_req_ok(struct device_node *parent, unsigned int id) {
  struct device_node *np = of_get_child_by_name(parent, "rcar_sound,src");
  return rsnd_dma_request_channel(np, id, NULL, "rx"); // no-warning: consumed
}

struct dma_chan *rsnd_req_bad(struct device_node *parent, unsigned int id) {
  struct device_node *np = of_get_child_by_name(parent, "rcar_sound,src"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  return rsnd_dma_other(np, id); // LEAK // expected-warning{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
}

/* A loop bound read from a static table still has the table's initial
 * value: the loop that stores the node is not walked zero times
 * (sound/soc/mediatek/mt2701/mt2701-cs42448.c, for_each_card_prelinks() over
 * a static snd_soc_card). */
struct link_like { struct device_node *np; };
struct card_like { int num_links; struct link_like *links; };
static struct link_like card_links[2];
static struct card_like static_card = { .num_links = 2, .links = card_links };
int card_register(struct card_like *c);

int machine_probe_ok(struct device_node *parent) {
  struct card_like *c = &static_card;
  struct device_node *np = of_parse_phandle(parent, "platform", 0);
  int i;
  if (!np)
    return -EINVAL;
  for (i = 0; i < c->num_links; i++)
    c->links[i].np = np;
  return card_register(c); // no-warning: stored by the loop
}

int machine_probe_bad(struct device_node *parent, struct card_like *c) {
  struct device_node *np = of_parse_phandle(parent, "platform", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'np' must be released}}
  int i;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -EINVAL;
  for (i = 0; i < c->num_links; i++) // expected-note{{Assuming 'i' is >= field 'num_links'}} v19-note{{Loop condition is false. Execution continues on line}} v22-note{{Loop condition is false. Execution jumps to the end of the function}}
    c->links[i].np = np;
  return card_register(c); // LEAK: a card of unknown size may have no link // expected-warning{{Reference to 'np' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}}
}

/* The same loop written as the kernel's macro, which also tests the link
 * pointer: the table's array is not NULL either. */
#define for_each_link_like(c, i, l) \
  for ((i) = 0; ((i) < (c)->num_links) && ((l) = &(c)->links[i]); (i)++)

int machine_probe_macro_ok(struct device_node *parent) {
  struct card_like *c = &static_card;
  struct link_like *l;
  struct device_node *np = of_parse_phandle(parent, "platform", 0);
  int i;
  if (!np)
    return -EINVAL;
  for_each_link_like(c, i, l)
    l->np = np;
  return card_register(c); // no-warning: stored by the loop
}

/* A pointer reloaded through two fields after a call invalidated the
 * structure is the same pointer (drivers/media/platform/qcom/camss/camss-vfe.c
 * vfe_get(): pm_runtime_put_sync(vfe->camss->dev) on the error path). */
struct camss_like { struct device *dev; };
struct vfe_like { struct camss_like *camss; int power_count; };
int vfe_set_rates(struct vfe_like *vfe);

int vfe_get_ok(struct vfe_like *vfe) {
  int ret = pm_runtime_resume_and_get(vfe->camss->dev);
  if (ret < 0)
    return ret;
  ret = vfe_set_rates(vfe);
  if (ret < 0)
    goto err;
  vfe->power_count++;
  return 0;
err:
  pm_runtime_put_sync(vfe->camss->dev);
  return ret; // no-warning: the same device, reloaded
}

int vfe_get_bad(struct vfe_like *vfe) {
  int ret = pm_runtime_resume_and_get(vfe->camss->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'vfe->camss->dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = vfe_set_rates(vfe);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK // expected-warning{{The runtime-PM usage count of 'vfe->camss->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'vfe->camss->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  vfe->power_count++;
  return 0;
}

/* The Lynx PCS keeps the MDIO device it is created on
 * (drivers/net/ethernet/freescale/dpaa2/dpaa2-mac.c dpaa2_pcs_create()). */
struct mdio_device { struct device dev; };
struct phylink_pcs;
struct mdio_device *fwnode_mdio_find_device(struct fwnode_handle *fwnode);
struct phylink_pcs *lynx_pcs_create(struct mdio_device *mdio);
struct phylink_pcs *pcs_create_other(struct mdio_device *mdio);

int pcs_create_ok(struct fwnode_handle *node, struct phylink_pcs **pcs) {
  struct mdio_device *mdiodev = fwnode_mdio_find_device(node);
  if (!mdiodev)
    return -EPROBE_DEFER;
  *pcs = lynx_pcs_create(mdiodev);
  if (!*pcs) {
    put_device(&mdiodev->dev);
    return -ENOMEM;
  }
  return 0; // no-warning: the PCS keeps the device
}

int pcs_create_bad(struct fwnode_handle *node, struct phylink_pcs **pcs) {
  struct mdio_device *mdiodev = fwnode_mdio_find_device(node); // expected-note{{The call to fwnode_mdio_find_device() returns a counted reference (+1): 'mdiodev' must be released}}
  if (!mdiodev) // expected-note{{Assuming 'mdiodev' is non-null}} expected-note{{Taking false branch}}
    return -EPROBE_DEFER;
  *pcs = pcs_create_other(mdiodev); // LEAK // expected-warning{{Reference to 'mdiodev' acquired by fwnode_mdio_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'mdiodev' acquired by fwnode_mdio_find_device() is not released on this path (missing put_device())}}
  if (!*pcs)
    return -ENOMEM;
  return 0;
}

/* ACPI firmware nodes are not counted: a fwnode the path saw is_acpi_node()
 * accept owes no put (drivers/net/ethernet/marvell/mvpp2/mvpp2_main.c
 * mvpp2_use_acpi_compat_mode()). */
bool is_acpi_node(const struct fwnode_handle *fwnode);
struct fwnode_handle *fwnode_get_named_child_node(const struct fwnode_handle *fwnode, const char *childname);

bool port_acpi_compat_ok(struct fwnode_handle *port) {
  if (!is_acpi_node(port))
    return false;
  return !fwnode_get_named_child_node(port, "fixed-link"); // no-warning
}

bool port_of_compat_bad(struct fwnode_handle *port) {
  if (is_acpi_node(port)) // expected-note{{Taking false branch}}
    return false;
  return !fwnode_get_named_child_node(port, "fixed-link"); // LEAK // expected-note{{Assuming the condition is false}} expected-note{{The call to fwnode_get_named_child_node() returns a counted reference (+1): the result of fwnode_get_named_child_node() must be released}} expected-warning{{Reference to the result of fwnode_get_named_child_node() acquired by fwnode_get_named_child_node() is not released on this path (missing fwnode_handle_put())}} expected-note{{Reference to the result of fwnode_get_named_child_node() acquired by fwnode_get_named_child_node() is not released on this path (missing fwnode_handle_put())}}
}

/* A put of the caller's runtime-PM count and a later get give it back
 * (drivers/pci/controller/cadence/pci-j721e.c j721e_pcie_ctrl_init(): the
 * controller is power-cycled to latch its strap settings; the caller's error
 * label drops the count). */
int pm_cycle_ok(struct device *dev) {
  int ret = pm_runtime_put_sync(dev);
  if (ret < 0)
    return ret;
  ret = setup();
  if (ret)
    dev_err(dev, "setup: %d\n", ret);
  if (ret < 0)
    return ret;
  ret = pm_runtime_get_sync(dev);
  if (ret < 0)
    return ret; // no-warning: the get gives back the count the put dropped
  return 0;
}

int pm_cycle_get_bad(struct device *dev, struct device *phy) {
  int ret = pm_runtime_put_sync(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(phy); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'phy', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: 'phy' was never put expected-warning{{The runtime-PM usage count of 'phy' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'phy' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  return 0;
}

int pm_cycle_other_bad(struct device *dev, struct device *phy) {
  int ret = pm_runtime_put_sync(phy);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: 'dev' was not the device put above expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  return 0;
}

/* A count this path holds a reference on does not read as zero
 * (drivers/spi/spi-cadence-quadspi.c cqspi_exec_mem_op()). */
struct qspi { refcount_t inflight; refcount_t users; };

int qspi_op_ok(struct qspi *q) {
  refcount_inc(&q->inflight);
  if (!refcount_read(&q->users)) {
    if (refcount_read(&q->inflight))
      refcount_dec(&q->inflight);
    return -EBUSY; // no-warning: the path's own reference keeps it above zero
  }
  refcount_dec(&q->inflight);
  return 0;
}

int qspi_op_bad(struct qspi *q) {
  refcount_inc(&q->inflight); // expected-note{{Reference to '&q->inflight' taken by refcount_inc()}}
  if (!refcount_read(&q->users)) { // expected-note{{The count of 'q->users' is read here without holding a reference of this path}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    if (refcount_read(&q->inflight) > 1) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
      refcount_dec(&q->inflight);
    return -EBUSY; // LEAK: a count of exactly 1 is this path's own expected-warning{{Reference to '&q->inflight' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&q->inflight' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  refcount_dec(&q->inflight);
  return 0;
}

/* An undo helper given the structure the counted devices were read from
 * drops their runtime-PM counts (drivers/remoteproc/qcom_q6v5_adsp.c
 * adsp_start(): qcom_rproc_pds_disable(adsp, adsp->proxy_pds,
 * adsp->proxy_pd_count) after the power domains were voted one by one). */
struct rproc_pds { struct device *pds[4]; int pd_count; int q6; };
int q6_wait(int *q6);
void rproc_pds_disable(struct rproc_pds *r, struct device **pds, int n);
void rproc_pds_report(struct rproc_pds *r, struct device **pds, int n);

int rproc_start_ok(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]);
  if (ret < 0)
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0)
    goto disable;
  return 0;
disable:
  rproc_pds_disable(r, r->pds, r->pd_count);
  return ret; // no-warning: the disable helper gets where the devices are
}

int rproc_start_bad(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'r->pds[0]': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    goto out; // expected-note{{Control jumps to line 1626}}
  return 0;
out:
  rproc_pds_report(r, r->pds, r->pd_count);
  return ret; // LEAK: a report is no undo expected-warning{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* A node getter finds nothing from no node: of_get_parent(NULL) is NULL, so
 * a path that saw the node NULL holds no parent
 * (drivers/gpio/gpio-rockchip.c rockchip_gpio_probe()). */
struct pinctrl_dev;
struct pinctrl_dev *of_pinctrl_get(struct device_node *np);

int gpio_bank_probe_ok(struct device *dev) {
  struct device_node *np = dev->of_node;
  struct device_node *pctlnp = of_get_parent(np);
  struct pinctrl_dev *pctldev;
  if (!np || !pctlnp)
    return -ENODEV; // no-warning: with np NULL, pctlnp is NULL too
  pctldev = of_pinctrl_get(pctlnp);
  of_node_put(pctlnp);
  return pctldev ? 0 : -EPROBE_DEFER;
}

int gpio_bank_probe_bad(struct device *dev) {
  struct device_node *np = dev->of_node;
  struct device_node *pctlnp = of_get_parent(np); // expected-note{{The call to of_get_parent() returns a counted reference (+1): 'pctlnp' must be released}}
  struct pinctrl_dev *pctldev;
  if (!pctlnp) // expected-note{{Assuming 'pctlnp' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (!of_device_is_available(np)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENODEV; // LEAK: pctlnp is held expected-warning{{Reference to 'pctlnp' acquired by of_get_parent() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'pctlnp' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  pctldev = of_pinctrl_get(pctlnp);
  of_node_put(pctlnp);
  return pctldev ? 0 : -EPROBE_DEFER;
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
