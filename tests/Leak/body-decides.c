// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=body-decides
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=body-decides

/* refcount.Leak: a helper whose body is in this translation unit is judged
 * by its body, not by its name (rule body-decides). A "remove" helper that
 * only disables runtime PM drops no usage count; an "add" helper that only
 * reads the node keeps no reference; an "add" helper that stores the node
 * into its caller's structure keeps it, and one that puts does drop it.
 * With the rule off (prefix off), the naming rules name-gives-up and
 * name-takes-ownership hand the references over, and the leaks go
 * unreported: the atomisp gc0310_probe() miss of held-out set 8. */

// off-no-diagnostics

struct sensor { struct device *dev; struct device_node *np; int mode; };

static void sensor_remove(struct device *dev) { pm_runtime_disable(dev); }

static void sensor_remove_and_put(struct device *dev) {
  pm_runtime_put(dev);
  pm_runtime_disable(dev);
}

static int sensor_add_mode(struct sensor *s, struct device_node *np) {
  return of_property_read_u32(np, "mode", (u32 *)&s->mode);
}

static void sensor_add_node(struct sensor *s, struct device_node *np) {
  s->np = np;
}

static void sensor_add_and_put(struct sensor *s, struct device_node *np) {
  of_property_read_u32(np, "mode", (u32 *)&s->mode);
  of_node_put(np);
}

int sensor_probe_remove_leaks(struct device *dev, int fail) {
  int ret = pm_runtime_resume_and_get(dev); // on-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // on-note{{'ret' is >= 0}} on-note{{Taking false branch}}
    return ret;
  if (fail) { // on-note{{Assuming 'fail' is not equal to 0}} on-note{{Taking true branch}}
    sensor_remove(dev);
    return -EIO; // on-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  pm_runtime_put(dev);
  return 0;
}

int sensor_probe_remove_puts(struct device *dev, int fail) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret;
  if (fail) {
    sensor_remove_and_put(dev);
    return -EIO; // no-warning: the helper's body puts the usage count
  }
  pm_runtime_put(dev);
  return 0;
}

int sensor_add_reads_only(struct sensor *s, struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "sensor"); // on-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // on-note{{Assuming 'np' is non-null}} on-note{{Taking false branch}}
    return -ENODEV;
  return sensor_add_mode(s, np); // on-warning{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} on-note{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
}

int sensor_add_stores(struct sensor *s, struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "sensor");
  if (!np)
    return -ENODEV;
  sensor_add_node(s, np);
  return 0; // no-warning: the helper stored the node into the caller's sensor
}

int sensor_add_puts(struct sensor *s, struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "sensor");
  if (!np)
    return -ENODEV;
  sensor_add_and_put(s, np);
  return 0; // no-warning: the helper's body puts the node
}
