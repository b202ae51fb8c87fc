// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: a reference handed over does not leak: returned, stored in
 * a struct field, a global, a static or an out-parameter, put on a list, set
 * as driver data, or passed to a callee that takes it over
 * (proc_get_inode(), rsnd_dma_request_channel(), lynx_pcs_create()); nor
 * does an object an __init function creates for good. Twins hand it to
 * another callee, drop it on a failure path, or keep a lookup's reference
 * in an __init function. */

int use(void *p);
int setup(void);
struct priv { struct device_node *np; struct device *dev; struct net_device *ndev; };
static struct device_node *saved_node;

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

struct device *get_device_wrapper(struct device *dev) {
  return get_device(dev); // no-warning
}

int get_device_stored_error(struct device *dev, struct priv *p) {
  p->dev = get_device(dev);
  if (setup())
    return -EIO; // no-warning: handed over to p
  return 0;
}

int device_add_handover(struct device *parent) {
  struct device *d = device_find_child(parent, NULL, NULL);
  if (!d)
    return -ENODEV;
  list_add(&d->node, &parent->node);
  return 0; // no-warning: on a list
}

void drvdata_handover(struct device *dev) {
  struct device_node *np = of_parse_phandle(dev->of_node, "x", 0);
  dev_set_drvdata(dev, np); // no-warning
}

struct device_node *cached_root(void) {
  static struct device_node *root;
  if (!root)
    root = of_find_node_by_path("/");
  return root; // no-warning
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
