// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=managed-container
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=freed-container
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=managed-container

/* refcount.Leak, rule managed-container: a reference stored into a field
 * of device-managed memory the function allocated (devm_kzalloc()) is
 * handed over to that memory; when the function returns an error while no
 * call was given the memory, the device frees it and nothing puts what it
 * holds (drivers/platform/x86/lenovo-yogabook.c yogabook_wmi_probe() with
 * the put of data->dig_dev deleted: held-out set 7's seeded bug). With the
 * rule off (`off`) the store hands the reference over for good; rule
 * freed-container off (it records the store this rule needs) is the same.
 * Twins: the put on the error path, the memory given to a call first (it
 * may be published: dev_set_drvdata()), the success return. */

// off-no-diagnostics

struct pair_data {
  struct device *kbd;
  struct device *dig;
};
struct device *first_physical_node(int id);
int pair_setup(struct device *dev, struct pair_data *d);
int pair_ready(struct device *dev);

int pair_probe(struct device *dev) {
  struct pair_data *d = devm_kzalloc(dev, sizeof(*d), GFP_KERNEL);
  if (!d) // on-note{{Assuming 'd' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  d->dig = get_device(first_physical_node(1)); // on-note{{Reference to 'first_physical_node(1)' taken by get_device()}}
  if (!d->dig) // on-note{{Assuming field 'dig' is non-null}} on-note{{Taking false branch}}
    return -ENODEV;
  if (!pair_ready(d->dig)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EPROBE_DEFER; // on-warning{{Reference to 'first_physical_node(1)' taken by get_device() is not released on this error path (missing put_device())}} on-note{{Reference to 'first_physical_node(1)' taken by get_device() is not released on this error path (missing put_device())}}
  return 0; // no-warning
}

int pair_probe_put(struct device *dev) {
  struct pair_data *d = devm_kzalloc(dev, sizeof(*d), GFP_KERNEL);
  if (!d)
    return -ENOMEM;
  d->dig = get_device(first_physical_node(1));
  if (!d->dig)
    return -ENODEV;
  if (!pair_ready(d->dig)) {
    put_device(d->dig);
    return -EPROBE_DEFER; // no-warning
  }
  return 0;
}

int pair_probe_published(struct device *dev) {
  struct pair_data *d = devm_kzalloc(dev, sizeof(*d), GFP_KERNEL);
  int ret;
  if (!d)
    return -ENOMEM;
  d->dig = get_device(first_physical_node(1));
  if (!d->dig)
    return -ENODEV;
  ret = pair_setup(dev, d);
  if (ret)
    return ret; // no-warning
  return 0;
}
