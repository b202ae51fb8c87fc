// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,off %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,off %s

/* refcount.Underflow, rule given-reference-single-put: a function that puts
 * a reference it was given (a parameter, or a pointer read out of at most
 * four fields of one) with no get first has consumed its caller's
 * reference; a second put of the same pointer on the path drops a count
 * someone else holds (`on`). Positives: goto ladders, a branch that puts
 * and falls through to a put, a put in a loop, a switch fall-through, an
 * inlined cleanup helper, each put family, pointers read out of a
 * parameter's fields, the embedded device of a pci_dev. Twins: a get earlier
 * on the path (also in an inlined helper), a `*_get` result stored, a get per
 * loop iteration, one put per path, a lookup's own reference, a call the
 * pointer was passed to between the puts, the runtime-PM usage count. With
 * the rule disabled (`off`) nothing here is reported but register_then_puts().
 * */


int setup(void);
int register_node(struct device_node *np);
void helper_put(struct device_node *np) { of_node_put(np); } // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
void helper_get(struct device_node *np) { of_node_get(np); }
struct foo { int val; struct kref ref; struct device *dev; };
struct priv { struct device_node *np; struct device *dev; struct foo *foo; };
struct outer { struct priv *priv; };
void foo_release(struct kref *ref);

int ladder_put_param(struct device_node *np) {
  int ret = setup();
  if (ret) { // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
    goto out; // on-note{{Control jumps to line 38}}
  }
  return 0;
out:
  of_node_put(np); // UNDERFLOW: the error branch put it // on-warning{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
  return ret;
}

void branch_then_fallthrough(struct device *dev, int flag) {
  if (flag) // on-note{{Assuming 'flag' is not equal to 0}} on-note{{Taking true branch}}
    put_device(dev); // on-note{{The reference 'dev' this function was given is dropped by put_device()}}
  put_device(dev); // UNDERFLOW // on-warning{{The call to put_device() puts 'dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}} on-note{{The call to put_device() puts 'dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}}
}

void put_in_loop(struct device_node *np, int n) {
  int i;
  for (i = 0; i < n; i++) // on-note 2 {{Assuming 'i' is < 'n'}} on-note 2 {{Loop condition is true.  Entering loop body}}
    of_node_put(np); // UNDERFLOW // on-warning{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The reference 'np' this function was given is dropped by of_node_put()}} on-note{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
}

void kref_put_ladder(struct foo *f) {
  if (setup()) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kref_put(&f->ref, foo_release); // on-note{{The reference '&f->ref' this function was given is dropped by kref_put()}}
    goto err; // on-note{{Control jumps to line 61}}
  }
  return;
err:
  kref_put(&f->ref, foo_release); // UNDERFLOW // on-warning{{The call to kref_put() puts '&f->ref' again: the one reference this function was given was already dropped by kref_put() earlier on this path}} on-note{{The call to kref_put() puts '&f->ref' again: the one reference this function was given was already dropped by kref_put() earlier on this path}}
}

void pci_put_twice(struct pci_dev *pdev) {
  pci_dev_put(pdev); // on-note{{The reference 'pdev' this function was given is dropped by pci_dev_put()}}
  if (setup()) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    pci_dev_put(pdev); // UNDERFLOW // on-warning{{The call to pci_dev_put() puts 'pdev' again: the one reference this function was given was already dropped by pci_dev_put() earlier on this path}} on-note{{The call to pci_dev_put() puts 'pdev' again: the one reference this function was given was already dropped by pci_dev_put() earlier on this path}}
}

void kobject_put_twice(struct kobject *kobj) {
  kobject_put(kobj); // on-note{{The reference 'kobj' this function was given is dropped by kobject_put()}}
  kobject_put(kobj); // UNDERFLOW // on-warning{{The call to kobject_put() puts 'kobj' again: the one reference this function was given was already dropped by kobject_put() earlier on this path}} on-note{{The call to kobject_put() puts 'kobj' again: the one reference this function was given was already dropped by kobject_put() earlier on this path}}
}

void field_put_twice(struct priv *priv) {
  put_device(priv->dev); // on-note{{The reference 'priv->dev' this function was given is dropped by put_device()}}
  put_device(priv->dev); // UNDERFLOW // on-warning{{The call to put_device() puts 'priv->dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}} on-note{{The call to put_device() puts 'priv->dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}}
}

int field_node_ladder(struct priv *priv) {
  int ret = setup();
  if (ret) // on-note{{Assuming 'ret' is 0}} on-note{{Taking false branch}}
    goto err_put;
  of_node_put(priv->np); // on-note{{The reference 'priv->np' this function was given is dropped by of_node_put()}}
  ret = setup();
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto err_put; // on-note{{Control jumps to line 90}}
  return 0;
err_put:
  of_node_put(priv->np); // UNDERFLOW // on-warning{{The call to of_node_put() puts 'priv->np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The call to of_node_put() puts 'priv->np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
  return ret;
}

void deep_field_put(struct outer *o) {
  of_node_put(o->priv->dev->of_node); // on-note{{The reference 'o->priv->dev->of_node' this function was given is dropped by of_node_put()}}
  of_node_put(o->priv->dev->of_node); // UNDERFLOW // on-warning{{The call to of_node_put() puts 'o->priv->dev->of_node' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The call to of_node_put() puts 'o->priv->dev->of_node' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
}

void embedded_dev_put(struct platform_device *pdev) {
  put_device(&pdev->dev); // on-note{{The reference '&pdev->dev' this function was given is dropped by put_device()}}
  if (setup()) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    put_device(&pdev->dev); // UNDERFLOW // on-warning{{The call to put_device() puts '&pdev->dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}} on-note{{The call to put_device() puts '&pdev->dev' again: the one reference this function was given was already dropped by put_device() earlier on this path}}
}

int usb_two_labels(struct usb_device *udev) {
  int ret = setup();
  if (ret) // on-note{{Assuming 'ret' is 0}} on-note{{Taking false branch}}
    goto err_put;
  ret = setup();
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto err_free; // on-note{{Control jumps to line 114}}
  return 0;
err_free:
  usb_put_dev(udev); // on-note{{The reference 'udev' this function was given is dropped by usb_put_dev()}}
err_put:
  usb_put_dev(udev); // UNDERFLOW // on-warning{{The call to usb_put_dev() puts 'udev' again: the one reference this function was given was already dropped by usb_put_dev() earlier on this path}} on-note{{The call to usb_put_dev() puts 'udev' again: the one reference this function was given was already dropped by usb_put_dev() earlier on this path}}
  return ret;
}

void switch_fallthrough(struct device_node *np, int mode) {
  switch (mode) { // on-note{{Control jumps to 'case 1:'  at line 122}}
  case 1:
    of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
    /* fallthrough */
  default:
    of_node_put(np); // UNDERFLOW // on-warning{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
  }
}

void helper_then_put(struct device_node *np) {
  helper_put(np); // on-note{{Calling 'helper_put'}} on-note{{Returning from 'helper_put'}}
  of_node_put(np); // UNDERFLOW // on-warning{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}} on-note{{The call to of_node_put() puts 'np' again: the one reference this function was given was already dropped by of_node_put() earlier on this path}}
}

void pci_then_embedded(struct pci_dev *pdev) {
  pci_dev_put(pdev); // on-note{{The reference 'pdev' this function was given is dropped by pci_dev_put()}}
  put_device(&pdev->dev); // UNDERFLOW: the same device, another view // on-warning{{The call to put_device() puts '&pdev->dev' again: the one reference this function was given was already dropped by pci_dev_put() earlier on this path}} on-note{{The call to put_device() puts '&pdev->dev' again: the one reference this function was given was already dropped by pci_dev_put() earlier on this path}}
}

/* Twins. */

int ladder_after_get(struct device_node *np) {
  int ret;
  of_node_get(np);
  ret = setup();
  if (ret) {
    of_node_put(np);
    goto out;
  }
  return 0;
out:
  of_node_put(np); // no-warning: the get earlier on the path
  return ret;
}

void branch_returns(struct device *dev, int flag) {
  if (flag) {
    put_device(dev);
    return;
  }
  put_device(dev); // no-warning: the other path
}

void loop_gets(struct device_node *np, int n) {
  int i;
  for (i = 0; i < n; i++) {
    of_node_get(np);
    of_node_put(np); // no-warning: a get per iteration
  }
  of_node_put(np); // no-warning: the one given
}

void kref_get_first(struct foo *f) {
  kref_get(&f->ref);
  kref_put(&f->ref, foo_release);
  kref_put(&f->ref, foo_release); // no-warning: a get earlier on the path
}

void pci_get_stored(struct pci_dev *pdev) {
  struct pci_dev *p = pci_dev_get(pdev);
  pci_dev_put(p);
  pci_dev_put(pdev); // no-warning: the *_get result held the other count
}

void kobject_get_first(struct kobject *kobj) {
  kobject_get(kobj);
  kobject_put(kobj);
  kobject_put(kobj); // no-warning: a get earlier on the path
}

void field_stored_and_got(struct priv *priv, struct device *dev) {
  priv->dev = get_device(dev);
  put_device(priv->dev);
  put_device(dev); // no-warning: the stored get was the count put first
}

void field_node_regot(struct priv *priv, struct device_node *np) {
  of_node_put(priv->np);
  priv->np = of_node_get(np);
  of_node_put(priv->np); // no-warning: another pointer, re-got
}

void one_path_each(struct device *dev, int flag) {
  if (flag)
    put_device(dev);
  else
    put_device(dev); // no-warning: one put per path
}

void lookup_not_given(struct device_node *np) {
  of_node_put(np);
  np = of_find_node_by_name(NULL, "x");
  of_node_put(np); // no-warning: a lookup's own reference
}

void passed_between(struct device_node *np) {
  of_node_put(np);
  register_node(np);
  of_node_put(np); // no-warning: the callee may have taken one
}

void embedded_after_get(struct platform_device *pdev) {
  get_device(&pdev->dev);
  put_device(&pdev->dev);
  put_device(&pdev->dev); // no-warning: a get earlier on the path
}

void switch_break(struct device_node *np, int mode) {
  switch (mode) {
  case 1:
    of_node_put(np);
    break;
  default:
    of_node_put(np); // no-warning: one put per path
  }
}

void pm_put_twice_twin(struct device *dev) {
  pm_runtime_put(dev);
  pm_runtime_put(dev); // no-warning: runtime-PM usage count
}

void helper_get_then_puts(struct device_node *np) {
  helper_get(np);
  helper_put(np);
  of_node_put(np); // no-warning: the inlined helper's get
}

/* device_register() sets the count to one whoever gave the device (its
 * device_initialize() starts the count afresh; rule
 * given-object-registered): when it fails, one put ends the device and a
 * second one underflows. */
void register_then_puts(struct platform_device *pdev) {
  if (device_register(&pdev->dev)) // on-note{{The call to device_register() fails: it set the count of 'pdev' to one and kept nothing, so this path holds its first reference}} off-note{{The call to device_register() fails: it set the count of 'pdev' to one and kept nothing, so this path holds its first reference}} on-note{{Taking true branch}} off-note{{Taking true branch}}
    put_device(&pdev->dev); // on-note{{Reference to 'pdev' released by put_device(): this path holds no more references to it}} off-note{{Reference to 'pdev' released by put_device(): this path holds no more references to it}}
  put_device(&pdev->dev); // on-warning{{The call to put_device() puts 'pdev' again: this path already released every reference it took}} off-warning{{The call to put_device() puts 'pdev' again: this path already released every reference it took}} on-note{{The call to put_device() puts 'pdev' again: this path already released every reference it took}} off-note{{The call to put_device() puts 'pdev' again: this path already released every reference it took}}
}

void register_then_put_once(struct platform_device *pdev) {
  if (device_register(&pdev->dev)) {
    put_device(&pdev->dev);
    return; // no-warning: one put of the count device_register() set up
  }
  pdev->id = 1;
}

struct link { int status; struct kref kref; struct list_head node; };
struct owner { struct list_head links; };
void link_del(struct kref *kref);

void list_entry_puts(struct owner *o) {
  struct link *l;
  list_for_each_entry(l, &o->links, node) {
    kref_put(&l->kref, link_del);
    kref_put(&l->kref, link_del); // no-warning: a list walk's entry was found, not given (the list holds its count)
  }
}
