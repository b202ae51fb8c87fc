// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,on %s -analyzer-config refcount:EnableRules=given-reference-single-put
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,off %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,off %s

/* refcount.UseAfterPut: objects that outlive this path's put: a borrowed
 * pointer after a get and a put (the caller's reference remains; a use
 * after the put of the caller's reference itself is reported by rule
 * given-reference-single-put, `on`, and not with it off, `off`), a
 * runtime-PM usage count (not
 * a lifetime count), an object handed over before the put, a registered
 * device, a PCI device on the bus list returned without a count, a device
 * bound to the caller's own driver (but not one found on a bus). */

int use(const void *p);

int borrowed_put_then_use(struct device_node *np) {
  of_node_put(np); // on-note{{The reference 'np' this function was given is dropped by of_node_put()}}
  return use(np->data); // off: no-warning: not acquired here
  // on-warning@-1{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}} on-note@-1{{Read through 'np' after of_node_put() dropped the reference this function was given; the object may already be freed}}
}

int get_borrowed_put_use(struct device_node *np) {
  of_node_get(np);
  of_node_put(np);
  return use(np->data); // no-warning: the caller's reference remains
}

int kref_put_then_use(struct kobject *k, void (*rel)(struct kref *)) {
  kref_get(&k->kref);
  kref_put(&k->kref, rel);
  return use(k->name); // no-warning: the caller's reference remains
}

int pm_put_then_use(struct device *dev) {
  if (pm_runtime_resume_and_get(dev))
    return -EIO;
  pm_runtime_put(dev);
  return use(dev->driver_data); // no-warning: usage count, not lifetime
}

int stored_then_put(struct device_node *np, struct device_node **out) {
  struct device_node *child = of_get_child_by_name(np, "x");
  if (!child)
    return 0;
  *out = child;
  of_node_put(child);
  return use(child->data); // no-warning: handed over before the put
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
