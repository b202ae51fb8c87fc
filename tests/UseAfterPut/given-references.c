// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,off %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,off %s

/* refcount.UseAfterPut, rule given-reference-single-put: a function that
 * puts a reference it was given (a parameter, or a pointer read out of at
 * most four fields of one) with no get first has dropped its caller's
 * reference; a use after the put (a field read, a call it is passed to, a
 * dev_err() that prints it) may touch a freed object (`on`). Positives:
 * dev_err() after put_device(), a field read after kref_put(), a call after
 * of_node_put(), goto ladders, a put in one arm that falls through, a use on
 * the next loop iteration, pointers read out of a parameter's fields, each
 * put family, an inlined helper that puts. Twins: a get earlier on the path,
 * the parameter stored and re-got, a get per loop iteration, a put on one
 * path and the use on the other only, values read before the put, a
 * lookup's own reference, pointer comparisons, the runtime-PM usage count,
 * a counting put whose caller runs the release. With the rule disabled
 * (`off`) nothing here is reported. */

// off-no-diagnostics

int setup(void);
int use(const void *p);
int use_node(struct device_node *np);
void helper_put(struct device *dev) { put_device(dev); } // on-note{{The reference 'dev' this function was given is dropped by put_device()}}
struct foo { int val; struct kref ref; refcount_t cnt; struct device *dev; };
struct priv { struct device_node *np; struct device *dev; struct foo *foo; };
void foo_release(struct kref *ref);

void err_after_put(struct device *dev) {
  put_device(dev); // on-note{{The reference 'dev' this function was given is dropped by put_device()}}
  dev_err(dev, "gone\n"); // USE AFTER PUT // on-warning{{'dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}} on-note{{'dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}}
}

int field_after_kref_put(struct foo *f) {
  kref_put(&f->ref, foo_release); // on-note{{The reference '&f->ref' this function was given is dropped by kref_put()}}
  return f->val; // USE AFTER PUT // on-warning{{Read through 'f' after kref_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'f' after kref_put() dropped the reference this function was given; the object may already be freed}}
}

int call_after_node_put(struct device_node *np) {
  of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
  return use_node(np); // USE AFTER PUT // on-warning{{'np' is passed to use_node() after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note{{'np' is passed to use_node() after of_node_put() dropped the reference this function was given; the object may already be freed}}
}

int ladder_then_log(struct device *dev) {
  int ret = setup();
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto err_put; // on-note{{Control jumps to line 52}}
  return 0;
err_put:
  put_device(dev); // on-note{{The reference 'dev' this function was given is dropped by put_device()}}
  dev_err(dev, "setup failed: %d\n", ret); // USE AFTER PUT // on-warning{{'dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}} on-note{{'dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}}
  return ret;
}

void arm_falls_through(struct device_node *np, int flag) {
  if (flag) // on-note{{Assuming 'flag' is not equal to 0}} on-note{{Taking true branch}}
    of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
  use(np->name); // USE AFTER PUT // on-warning{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}}
}

void next_iteration(struct device_node *np, int n) {
  int i;
  for (i = 0; i < n; i++) { // on-note 2 {{Assuming 'i' is < 'n'}} on-note 2 {{Loop condition is true.  Entering loop body}}
    use(np->data); // USE AFTER PUT // on-warning{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}}
    of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
  }
}

void field_dev_after_put(struct priv *priv) {
  put_device(priv->dev); // on-note{{The reference 'priv->dev' this function was given is dropped by put_device()}}
  dev_err(priv->dev, "gone\n"); // USE AFTER PUT // on-warning{{'priv->dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}} on-note{{'priv->dev' is passed to dev_err() after put_device() dropped the reference this function was given; the object may already be freed}}
}

int field_node_read(struct priv *priv) {
  of_node_put(priv->np); // on-note{{The reference 'priv->np' this function was given is dropped by of_node_put()}}
  return use(priv->np->full_name); // USE AFTER PUT // on-warning{{Read through 'priv->np' after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'priv->np' after of_node_put() dropped the reference this function was given; the object may already be freed}}
}

int pci_field_after_put(struct pci_dev *pdev) {
  pci_dev_put(pdev); // on-note{{The reference 'pdev' this function was given is dropped by pci_dev_put()}}
  return pdev->vendor; // USE AFTER PUT // on-warning{{Read through 'pdev' after pci_dev_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'pdev' after pci_dev_put() dropped the reference this function was given; the object may already be freed}}
}

const char *kobject_name_after_put(struct kobject *kobj) {
  kobject_put(kobj); // on-note{{The reference 'kobj' this function was given is dropped by kobject_put()}}
  return kobj->name; // USE AFTER PUT // on-warning{{Read through 'kobj' after kobject_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'kobj' after kobject_put() dropped the reference this function was given; the object may already be freed}}
}

int usb_after_put(struct usb_device *udev) {
  usb_put_dev(udev); // on-note{{The reference 'udev' this function was given is dropped by usb_put_dev()}}
  return udev->devnum; // USE AFTER PUT // on-warning{{Read through 'udev' after usb_put_dev() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'udev' after usb_put_dev() dropped the reference this function was given; the object may already be freed}}
}

int embedded_after_put(struct platform_device *pdev) {
  put_device(&pdev->dev); // on-note{{The reference '&pdev->dev' this function was given is dropped by put_device()}}
  return pdev->id; // USE AFTER PUT: the device is embedded in *pdev // on-warning{{Read through 'pdev' after put_device() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'pdev' after put_device() dropped the reference this function was given; the object may already be freed}}
}

void helper_then_log(struct device *dev) {
  helper_put(dev); // on-note{{Calling 'helper_put'}} on-note{{Returning from 'helper_put'}}
  dev_info(dev, "released\n"); // USE AFTER PUT // on-warning{{'dev' is passed to dev_info() after put_device() dropped the reference this function was given; the object may already be freed}} on-note{{'dev' is passed to dev_info() after put_device() dropped the reference this function was given; the object may already be freed}}
}

int of_node_of_dev(struct device *dev) {
  of_node_put(dev->of_node); // on-note{{The reference 'dev->of_node' this function was given is dropped by of_node_put()}}
  return use(dev->of_node->name); // USE AFTER PUT // on-warning{{Read through 'dev->of_node' after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note{{Read through 'dev->of_node' after of_node_put() dropped the reference this function was given; the object may already be freed}}
}

/* Twins. */

void get_first_then_log(struct device *dev) {
  get_device(dev);
  put_device(dev);
  dev_err(dev, "still held\n"); // no-warning: the caller's reference remains
}

int kref_get_first(struct foo *f) {
  kref_get(&f->ref);
  kref_put(&f->ref, foo_release);
  return f->val; // no-warning: a get earlier on the path
}

int node_get_first(struct device_node *np) {
  of_node_get(np);
  of_node_put(np);
  return use_node(np); // no-warning: a get earlier on the path
}

void log_then_put(struct device *dev) {
  dev_err(dev, "failing\n");
  put_device(dev); // no-warning: the use comes first
}

int put_or_use(struct device_node *np, int flag) {
  if (flag) {
    of_node_put(np);
    return 0;
  }
  return use(np->name); // no-warning: the put is on the other path
}

void loop_gets(struct device_node *np, int n) {
  int i;
  for (i = 0; i < n; i++) {
    of_node_get(np);
    use(np->data); // no-warning: a get per iteration
    of_node_put(np);
  }
}

void stored_and_regot(struct priv *priv, struct device *dev) {
  priv->dev = get_device(dev);
  put_device(dev);
  dev_err(priv->dev, "held\n"); // no-warning: the stored get's reference
}

int read_before_put(struct device_node *np) {
  const char *name = np->name;
  of_node_put(np);
  return use(name); // no-warning: read before the put
}

int lookup_not_given(struct device_node *np) {
  of_node_put(np);
  np = of_find_node_by_name(NULL, "x");
  if (!np)
    return -ENODEV;
  use(np->name); // no-warning: the lookup's own reference
  of_node_put(np);
  return 0;
}

int compare_after_put(struct device_node *np, struct device_node *other) {
  of_node_put(np);
  return np == other; // no-warning: pointer comparison
}

void pm_put_then_log(struct device *dev) {
  pm_runtime_put(dev);
  dev_err(dev, "idle\n"); // no-warning: usage count, not lifetime
}

void release_in_caller(struct foo *f) {
  if (refcount_dec_and_test(&f->cnt))
    use(f->dev); // no-warning: the code after it is the release
}

void helper_get_put(struct device *dev) {
  get_device(dev);
  helper_put(dev);
  dev_info(dev, "still held\n"); // no-warning: a get earlier on the path
}

int pci_get_stored(struct pci_dev *pdev) {
  struct pci_dev *p = pci_dev_get(pdev);
  pci_dev_put(pdev);
  return p->vendor; // no-warning: the *_get result holds a count
}

int register_fails(struct platform_device *pdev) {
  int ret = device_register(&pdev->dev);
  if (ret) {
    put_device(&pdev->dev);
    dev_err(&pdev->dev, "register: %d\n", ret); // no-warning: the put drops device_register()'s count, not the one given (add_mtd_device())
  }
  return ret;
}

struct link { int status; struct kref kref; struct list_head node; };
struct owner { struct list_head links; };
void link_del(struct kref *kref);
static void drop_link(struct link *l) { kref_put(&l->kref, link_del); }

void list_entry_dropped(struct owner *o) {
  struct link *l;
  list_for_each_entry(l, &o->links, node) {
    if (l->status == 1)
      drop_link(l);
    l->status = 0; // no-warning: a list walk's entry, not given (device_links_driver_cleanup())
  }
}
