// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,nofree %s -analyzer-config refcount:DisableRules=release-frees-object
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,nofree %s -analyzer-config refcount:DisableRules=release-frees-object

/* refcount.Leak: device_initialize() on a device embedded in memory the
 * function allocated gives the path the device's first reference (its row's
 * first-reference; rule fresh-object-init), which only put_device() may
 * drop; device_add() keeps the device only when it succeeds (a `stores`
 * row failing with an errno: "_Never_ directly free @dev after calling this
 * function, even if it returned an error!"). Positives: device_add()
 * failing, an error before it, kobject_add() failing after kobject_init().
 * Twins: put_device() (kobject_put()) on those paths, the
 * device published once added, a device the function was given. With the
 * rule off (`off`) nothing is reported. Rule release-frees-object: the put
 * that drops the device's first reference runs its release, which frees the
 * structure, so a kref the path set up on it ends too
 * (drivers/nvme/host/core.c nvme_init_subsystem(); reported with the rule
 * off, `nofree`); not when the put was not the last. */

// off-no-diagnostics

struct gadget { int id; struct device dev; };
int gadget_setup(struct gadget *g);
static struct gadget *last_gadget;

int gadget_add_bad(struct device *parent) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  device_initialize(&g->dev); // on-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  g->dev.parent = parent;
  dev_set_name(&g->dev, "gadget%d", 0);
  err = device_add(&g->dev); // on-note{{The call to device_add() fails: it keeps nothing, and 'g' is still this path's to put}}
  if (err) // on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // LEAK: device_add() failed, the first reference stays on-warning{{The new object 'g', whose count device_initialize() set to one, is neither put nor freed on this path (missing put_device())}} on-note{{The new object 'g', whose count device_initialize() set to one, is neither put nor freed on this path (missing put_device())}}
  last_gadget = g;
  return 0;
}

int gadget_add_ok(struct device *parent) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g)
    return -ENOMEM;
  device_initialize(&g->dev);
  g->dev.parent = parent;
  dev_set_name(&g->dev, "gadget%d", 0);
  err = device_add(&g->dev);
  if (err) {
    put_device(&g->dev);
    return err; // no-warning
  }
  last_gadget = g;
  return 0;
}

int gadget_setup_bad(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  device_initialize(&g->dev); // on-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  if (gadget_setup(g)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // LEAK: before device_add() on-warning{{The new object 'g', whose count device_initialize() set to one, is neither put nor freed on this path (missing put_device())}} on-note{{The new object 'g', whose count device_initialize() set to one, is neither put nor freed on this path (missing put_device())}}
  return device_add(&g->dev);
}

int gadget_setup_ok(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g)
    return -ENOMEM;
  device_initialize(&g->dev);
  err = gadget_setup(g);
  if (err)
    goto put;
  err = device_add(&g->dev);
  if (err)
    goto put;
  return 0; // no-warning: added
put:
  put_device(&g->dev);
  return err; // no-warning
}

int gadget_given_ok(struct gadget *g) {
  device_initialize(&g->dev);
  if (gadget_setup(g))
    return -EINVAL; // no-warning: the caller allocated g
  return device_add(&g->dev);
}

struct gadget2 { struct kref ref; struct device dev; };
static struct gadget2 *last_gadget2;

int gadget_kref_ok(void) {
  struct gadget2 *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g) // nofree-note{{Assuming 'g' is non-null}} nofree-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&g->ref); // nofree-note{{The call to kref_init() sets the count of the new object 'g' to one: this path holds its first reference}}
  device_initialize(&g->dev); // nofree-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  if (device_add(&g->dev)) { // nofree-note{{The call to device_add() fails: it keeps nothing, and 'g' is still this path's to put}} nofree-note{{Taking true branch}}
    put_device(&g->dev); // nofree-note{{Reference to 'g' released by put_device(): this path holds no more references to it}}
    return -EIO; // no-warning: the device's release frees g, kref and all nofree-warning{{The new object 'g', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nofree-note{{The new object 'g', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  }
  last_gadget2 = g;
  return 0;
}

int gadget_kref_bad(void) {
  struct gadget2 *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&g->ref); // on-note{{The call to kref_init() sets the count of the new object 'g' to one: this path holds its first reference}}
  device_initialize(&g->dev); // on-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  get_device(&g->dev); // on-note{{Reference to 'g' taken by get_device()}}
  if (device_add(&g->dev)) { // on-note{{The call to device_add() fails: it keeps nothing, and 'g' is still this path's to put}} on-note{{Taking true branch}}
    put_device(&g->dev); // on-note{{Reference to 'g' released by put_device()}}
    return -EIO; // LEAK: the put was not the last on-warning{{The new object 'g', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'g', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  }
  last_gadget2 = g;
  return 0;
}

/* device_register() is device_initialize() then device_add() (row key
 * kept-on-success): kept when it succeeds, still the path's first reference
 * when it fails; kobject_init_and_add() the same for a kobject. The
 * Underflow and UseAfterPut twins are in given-references.c. */
int gadget_register_bad(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  err = device_register(&g->dev); // on-note{{The call to device_register() fails: it set the count of 'g' to one and kept nothing, so this path holds its first reference}}
  if (err) // on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // LEAK on-warning{{The new object 'g', whose count device_register() set to one, is neither put nor freed on this path (missing put_device())}} on-note{{The new object 'g', whose count device_register() set to one, is neither put nor freed on this path (missing put_device())}}
  last_gadget = g;
  return 0;
}

int gadget_register_ok(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g)
    return -ENOMEM;
  err = device_register(&g->dev);
  if (err) {
    put_device(&g->dev);
    return err; // no-warning
  }
  return 0; // no-warning: registered
}

struct stats_dir { struct kobject kobj; int n; };
extern struct kobj_type stats_ktype;

int stats_dir_bad(struct kobject *parent) {
  struct stats_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);
  if (!d) // on-note{{Assuming 'd' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  if (kobject_init_and_add(&d->kobj, &stats_ktype, parent, "stats")) // on-note{{The call to kobject_init_and_add() fails: it set the count of 'd' to one and kept nothing, so this path holds its first reference}} on-note{{Taking true branch}}
    return -EINVAL; // LEAK on-warning{{The new object 'd', whose count kobject_init_and_add() set to one, is neither put nor freed on this path (missing kobject_put())}} on-note{{The new object 'd', whose count kobject_init_and_add() set to one, is neither put nor freed on this path (missing kobject_put())}}
  return 0;
}

int stats_dir_ok(struct kobject *parent) {
  struct stats_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);
  int err;
  if (!d)
    return -ENOMEM;
  err = kobject_init_and_add(&d->kobj, &stats_ktype, parent, "stats");
  if (err) {
    kobject_put(&d->kobj);
    return err; // no-warning
  }
  return 0; // no-warning: in sysfs
}

/* Row key put-only: after device_initialize() (or device_register(),
 * kobject_init_and_add()) only the put may end the object; kfree() skips
 * the release and leaks what the object owns (its name): the fix series of
 * "fix possible memory leak in ... device_register() error path" (Linux
 * 6.2), once the object has a name (dev_set_name(), row key names; the
 * register calls name it). Twins: a kfree() before the count was set up or
 * before the device was named (or after a dev_set_name() that failed), and
 * put_device(). */
static int gadget_add_or_put(struct gadget *g) {
  int err = device_add(&g->dev);
  if (err)
    put_device(&g->dev);
  return err;
}

int gadget_register_kfree(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  int err;
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  dev_set_name(&g->dev, "gadget%d", 1);
  err = device_register(&g->dev); // on-note{{The call to device_register() fails: it set the count of 'g' to one and kept nothing, so this path holds its first reference}}
  if (err) { // on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
    kfree(g); // on-warning{{The new object 'g', whose count device_register() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}} on-note{{The new object 'g', whose count device_register() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}}
    return err;
  }
  return 0;
}

int gadget_init_kfree(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  device_initialize(&g->dev); // on-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  dev_set_name(&g->dev, "gadget%d", 2);
  if (gadget_setup(g)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kfree(g); // on-warning{{The new object 'g', whose count device_initialize() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}} on-note{{The new object 'g', whose count device_initialize() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}}
    return -EINVAL;
  }
  return gadget_add_or_put(g);
}

/* iio_device_alloc(): a dev_set_name() that failed named nothing, so the
 * kfree() on its failure frees all there is; once it succeeded, a later
 * failure must put. */
int gadget_kfree_name_failed(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g)
    return -ENOMEM;
  device_initialize(&g->dev);
  if (dev_set_name(&g->dev, "gadget%d", 3)) {
    kfree(g); // no-warning: the name was never set
    return -ENOMEM;
  }
  return gadget_add_or_put(g);
}

int gadget_kfree_after_name(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g) // on-note{{Assuming 'g' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  device_initialize(&g->dev); // on-note{{The call to device_initialize() sets the count of the new object 'g' to one: this path holds its first reference}}
  if (dev_set_name(&g->dev, "gadget%d", 4)) { // on-note{{Assuming the condition is false}} on-note{{Taking false branch}}
    put_device(&g->dev);
    return -ENOMEM;
  }
  if (gadget_setup(g)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kfree(g); // on-warning{{The new object 'g', whose count device_initialize() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}} on-note{{The new object 'g', whose count device_initialize() set to one, is freed by kfree() instead of put: only put_device() runs its release, which frees what the object owns (its name)}}
    return -EINVAL;
  }
  return gadget_add_or_put(g);
}

int gadget_kfree_unnamed(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g)
    return -ENOMEM;
  device_initialize(&g->dev);
  if (gadget_setup(g)) {
    kfree(g); // no-warning: not named yet, the release would free nothing more
    return -EINVAL;
  }
  return gadget_add_or_put(g);
}

int gadget_kfree_before_init(void) {
  struct gadget *g = kzalloc(sizeof(*g), GFP_KERNEL);
  if (!g)
    return -ENOMEM;
  if (gadget_setup(g)) {
    kfree(g);
    return -EINVAL; // no-warning: freed before its count was set up
  }
  device_initialize(&g->dev);
  return gadget_add_or_put(g);
}

int stats_dir_kfree(struct kobject *parent) {
  struct stats_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);
  int err;
  if (!d) // on-note{{Assuming 'd' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  err = kobject_init_and_add(&d->kobj, &stats_ktype, parent, "stats"); // on-note{{The call to kobject_init_and_add() fails: it set the count of 'd' to one and kept nothing, so this path holds its first reference}}
  if (err) // on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
    kfree(d); // on-warning{{The new object 'd', whose count kobject_init_and_add() set to one, is freed by kfree() instead of put: only kobject_put() runs its release, which frees what the object owns (its name)}} on-note{{The new object 'd', whose count kobject_init_and_add() set to one, is freed by kfree() instead of put: only kobject_put() runs its release, which frees what the object owns (its name)}}
  return err;
}

/* kobject_init() and kobject_add(): the same two steps for a bare kobject
 * (hdac_sysfs.c add_widget_node()): "If this function returns an error,
 * kobject_put() must be called". */
struct kobj_type;
extern const struct kobj_type widget_ktype;

int widget_add_bad(struct kobject *parent, struct kobject **res) {
  struct kobject *kobj = kzalloc(sizeof(*kobj), GFP_KERNEL);
  int err;
  if (!kobj) // on-note{{Assuming 'kobj' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kobject_init(kobj, &widget_ktype); // on-note{{The call to kobject_init() sets the count of the new object 'kobj' to one: this path holds its first reference}}
  err = kobject_add(kobj, parent, "%02x", 1); // on-note{{The call to kobject_add() fails: it keeps nothing, and 'kobj' is still this path's to put}}
  if (err < 0) // on-note{{'err' is < 0}} on-note{{Taking true branch}}
    return err; // on-warning{{The new object 'kobj', whose count kobject_init() set to one, is neither put nor freed on this path (missing kobject_put())}} on-note{{The new object 'kobj', whose count kobject_init() set to one, is neither put nor freed on this path (missing kobject_put())}}
  *res = kobj;
  return 0;
}

int widget_add_good(struct kobject *parent, struct kobject **res) {
  struct kobject *kobj = kzalloc(sizeof(*kobj), GFP_KERNEL);
  int err;
  if (!kobj)
    return -ENOMEM;
  kobject_init(kobj, &widget_ktype);
  err = kobject_add(kobj, parent, "%02x", 1);
  if (err < 0) {
    kobject_put(kobj);
    return err; // no-warning
  }
  *res = kobj;
  return 0; // no-warning
}
