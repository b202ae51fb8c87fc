// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: a path on which the acquire failed holds nothing: a NULL
 * result (also a node getter given a NULL node) or an IS_ERR() result. A counted object, a pointer into
 * it (container_of()) and a held device's driver data are never an
 * ERR_PTR(); IS_ERR_OR_NULL() on an API that never returns one is a NULL
 * test.
 * #N in a comment: run-1 report N of docs/validation-lifetime.md. */

int setup(void);
void rel(struct kref *k);

int find_failed(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  if (!np)
    return -ENODEV; // no-warning
  of_node_put(np);
  return 0;
}

int lookup_failed(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1);
  if (IS_ERR(d))
    return PTR_ERR(d); // no-warning
  dput(d);
  return 0;
}

int is_err_or_null_on_null_api(struct device_node *np) {
  struct device_node *parent = of_get_parent(np);
  if (IS_ERR_OR_NULL(parent))
    return -ENODEV; // no-warning: of_get_parent() never returns ERR_PTR
  of_node_put(parent);
  return 0;
}

/* #3 (WARN_ONCE() keeping its NULL test in a bool): warn_ok and warn_bad
 * in assertion-paths.c, which runs with and without rule assertion-path. */

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

/* A lookup that returns NULL for a negative id before it looks anything up
 * (get_net_ns_by_id(); the row's null-if-negative): a namespace found says
 * the id was not negative, so the caller's `if (netnsid >= 0) put_net()`
 * puts it (net/core/rtnetlink.c rtnl_dellink(), rtnl_newlink()). */
int netns_use(struct net *net);

int dellink_ok(struct net *net, int has_id, int netnsid) {
  struct net *tgt = net;
  int err;
  if (has_id) {
    tgt = get_net_ns_by_id(net, netnsid);
    if (!tgt)
      return -EINVAL;
  }
  err = netns_use(tgt);
  if (netnsid >= 0)
    put_net(tgt);
  return err; // no-warning: a namespace was found only for an id >= 0
}

int dellink_bad(struct net *net, int has_id, int netnsid) {
  struct net *tgt = net;
  int err;
  if (has_id) { // expected-note{{Assuming 'has_id' is not equal to 0}} expected-note{{Taking true branch}}
    tgt = get_net_ns_by_id(net, netnsid); // expected-note{{The call to get_net_ns_by_id() returns a counted reference (+1): 'tgt' must be released}}
    if (!tgt) // expected-note{{Assuming 'tgt' is non-null}} expected-note{{Taking false branch}}
      return -EINVAL;
  }
  err = netns_use(tgt);
  if (netnsid > 0) // expected-note{{Assuming 'netnsid' is <= 0}} expected-note{{Taking false branch}}
    put_net(tgt);
  return err; // expected-warning{{Reference to 'tgt' acquired by get_net_ns_by_id() is not released on this path (missing put_net())}} expected-note{{Reference to 'tgt' acquired by get_net_ns_by_id() is not released on this path (missing put_net())}} LEAK: id 0 finds a namespace that is never put
}

struct net *capable_ns_bad(struct net *net, int netnsid) {
  struct net *tgt = get_net_ns_by_id(net, netnsid); // expected-note{{The call to get_net_ns_by_id() returns a counted reference (+1): 'tgt' must be released}}
  if (!tgt) // expected-note{{Assuming 'tgt' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-EINVAL);
  if (netns_use(tgt)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return ERR_PTR(-EPERM); // expected-warning{{Reference to 'tgt' acquired by get_net_ns_by_id() is not released on this path (missing put_net())}} expected-note{{Reference to 'tgt' acquired by get_net_ns_by_id() is not released on this path (missing put_net())}} LEAK: the seeded bug of held-out set 8 (rtnetlink.c:2287)
  return tgt;
}

struct net *capable_ns_ok(struct net *net, int netnsid) {
  struct net *tgt = get_net_ns_by_id(net, netnsid);
  if (!tgt)
    return ERR_PTR(-EINVAL);
  if (netns_use(tgt)) {
    put_net(tgt);
    return ERR_PTR(-EPERM); // no-warning
  }
  return tgt;
}
