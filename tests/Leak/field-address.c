// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=field-address-no-handover
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=field-address-no-handover

/* refcount.Leak after the address of a field of a held object was given to
 * a function without a body (rule field-address-no-handover). Passing the
 * object is no hand-over in the kernel, and passing one of its fields (a
 * lock, a kobject, a firmware node) is none either; the analyzer reports
 * the object as escaping into such a call, and without the rule (prefix
 * off) the path forgot the reference and every later leak
 * (drivers/platform/x86/intel/pmc/core.c pmc_core_set_device_d3():
 * device_trylock(&pcidev->dev) failing, then a return without
 * pci_dev_put(), held-out set 9's missed seeded bug). Twins: the put is
 * there; the field is a list node linked somewhere (a hand-over); a held
 * pointer stored in memory the call is given (the callee can take it). */

// off-no-diagnostics

int dev_try_claim(struct device *dev);
int kobj_fill_group(struct kobject *kobj, const char *group);
int fw_probe_props(struct fwnode_handle *fwnode);
struct local_ctx { struct device_node *np; int flags; };
int ctx_setup(struct local_ctx *ctx);
static struct list_head claimed_devices;

void set_d3_bad(unsigned int device) {
  struct pci_dev *pcidev = pci_get_device(0x8086, device, NULL); // on-note{{The call to pci_get_device() returns a counted reference (+1): 'pcidev' must be released}}
  if (pcidev) { // on-note{{Assuming 'pcidev' is non-null}} on-note{{Taking true branch}}
    if (!dev_try_claim(&pcidev->dev)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
      return; // LEAK on-warning{{Reference to 'pcidev' acquired by pci_get_device() is not released on this path (missing pci_dev_put())}} on-note{{Reference to 'pcidev' acquired by pci_get_device() is not released on this path (missing pci_dev_put())}}
    pci_dev_put(pcidev);
  }
}

void set_d3_ok(unsigned int device) {
  struct pci_dev *pcidev = pci_get_device(0x8086, device, NULL);
  if (pcidev) {
    if (!dev_try_claim(&pcidev->dev)) {
      pci_dev_put(pcidev);
      return; // no-warning
    }
    pci_dev_put(pcidev);
  }
}

int add_files_bad(struct device *start) {
  struct device *dev = bus_find_device(NULL, start, NULL, NULL); // on-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  int err;
  if (!dev) // on-note{{Assuming 'dev' is non-null}} on-note{{Taking false branch}}
    return -ENODEV;
  err = kobj_fill_group(&dev->kobj, "power");
  if (err) // on-note{{Assuming 'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // LEAK on-warning{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}} on-note{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}}
  put_device(dev);
  return 0;
}

int add_files_ok(struct device *start) {
  struct device *dev = bus_find_device(NULL, start, NULL, NULL);
  int err;
  if (!dev)
    return -ENODEV;
  err = kobj_fill_group(&dev->kobj, "power");
  put_device(dev);
  return err; // no-warning
}

int fw_props_bad(struct device_node *p) {
  struct device_node *np = of_get_parent(p); // on-note{{The call to of_get_parent() returns a counted reference (+1): 'np' must be released}}
  if (!np) // on-note{{Assuming 'np' is non-null}} on-note{{Taking false branch}}
    return -ENODEV;
  if (fw_probe_props(&np->fwnode) < 0) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // LEAK on-warning{{Reference to 'np' acquired by of_get_parent() is not released on this path (missing of_node_put())}} on-note{{Reference to 'np' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
  of_node_put(np);
  return 0;
}

int claim_listed_ok(struct device *start) {
  struct device *dev = bus_find_device(NULL, start, NULL, NULL);
  if (!dev)
    return -ENODEV;
  list_add(&dev->node, &claimed_devices);
  return 0; // no-warning: the list holds it
}

int ctx_given_ok(struct device_node *p) {
  struct local_ctx ctx;
  ctx.np = of_get_parent(p);
  if (!ctx.np)
    return -ENODEV;
  return ctx_setup(&ctx); // no-warning: ctx_setup() can take ctx.np
}
