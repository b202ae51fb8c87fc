// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s -analyzer-config refcount:EnableRules=registered-until-success
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s -analyzer-config refcount:EnableRules=registered-until-success
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s

/* refcount.Leak, rule registered-until-success: device_register() and
 * kobject_init_and_add() that succeeded hand the object to the
 * registration only once the function returns success. A later failure
 * that returns an error without device_unregister() (kobject_put() for a
 * kobject), without handing the object over, leaves it registered for
 * nobody to remove (f2fs_init_sysfs() with the kobject_put() of f2fs_tune
 * on a later failure deleted: held-out set 10's seed). Positives: a later
 * failing call, a goto ladder whose label skips the unregister, a kobject
 * in memory the function was given and a global one, a loop, a call's
 * nonzero status, an inlined helper that registers, an ERR_PTR() return.
 * Twins: the later failure unregisters (device_unregister(), kobject_put(),
 * device_del() + put_device()), success, the device stored for the
 * caller's cleanup, a void function, the register's own failure put, the
 * device returned. With the rule off (prefix off) nothing here is
 * reported. The rule is off by default (docs/validation-sweep.md section 22:
 * drivers that put what they registered by walking the kset it joined);
 * `on` enables it. */
// off-no-diagnostics

struct port { struct device dev; int id; };
struct sb_info { struct kobject s_kobj; int flags; };
struct kobj_type;
extern const struct kobj_type sb_ktype;
extern struct kobject *fs_root;
static struct kobject tune_kobj;
struct holder { struct port *port; };
int port_setup(struct port *p);
int fill_attrs(struct kobject *kobj);
void port_release(struct device *dev);

int port_add_bad(struct port *p) {
  int err = device_register(&p->dev); // on-note{{The call to device_register() registers 'p': the registration keeps it once this function returns success}}
  if (err) { // on-note{{'err' is 0}} on-note{{Taking false branch}}
    put_device(&p->dev);
    return err;
  }
  err = port_setup(p);
  if (err) // on-note{{Assuming 'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // on-warning{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}} on-note{{Returning the nonzero status of port_setup(): it failed and kept nothing, so 'p' is still this path's to put}} on-note{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}}
  return 0;
}

int port_add_good(struct port *p) {
  int err = device_register(&p->dev);
  if (err) {
    put_device(&p->dev);
    return err;
  }
  err = port_setup(p);
  if (err) {
    device_unregister(&p->dev);
    return err; // no-warning
  }
  return 0;
}

struct port *port_create_bad(int id) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p) // on-note{{Assuming 'p' is non-null}} on-note{{Taking false branch}}
    return ERR_PTR(-ENOMEM);
  p->id = id;
  p->dev.release = port_release;
  if (device_register(&p->dev)) { // on-note{{The call to device_register() registers 'p': the registration keeps it once this function returns success}} on-note{{Taking false branch}}
    put_device(&p->dev);
    return ERR_PTR(-ENODEV);
  }
  if (port_setup(p)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    goto err; // on-note{{Control jumps to line 76}}
  return p;
err:
  return ERR_PTR(-EIO); // on-warning{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}} on-note{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}}
}

struct port *port_create_good(int id) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p)
    return ERR_PTR(-ENOMEM);
  p->id = id;
  p->dev.release = port_release;
  if (device_register(&p->dev)) {
    put_device(&p->dev);
    return ERR_PTR(-ENODEV);
  }
  if (port_setup(p))
    goto err_unreg;
  return p; // no-warning
err_unreg:
  device_del(&p->dev);
  put_device(&p->dev);
  return ERR_PTR(-EIO); // no-warning
}

int sb_sysfs_bad(struct sb_info *sbi) {
  int err = kobject_init_and_add(&sbi->s_kobj, &sb_ktype, fs_root, "%s", "sda"); // on-note{{The call to kobject_init_and_add() registers 'sbi': the registration keeps it once this function returns success}}
  if (err) { // on-note{{'err' is 0}} on-note{{Taking false branch}}
    kobject_put(&sbi->s_kobj);
    return err;
  }
  if (fill_attrs(&sbi->s_kobj)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -ENOMEM; // on-warning{{'sbi' was registered by kobject_init_and_add(), and this path returns an error without undoing the registration (missing kobject_put())}} on-note{{'sbi' was registered by kobject_init_and_add(), and this path returns an error without undoing the registration (missing kobject_put())}}
  return 0;
}

int sb_sysfs_good(struct sb_info *sbi) {
  int err = kobject_init_and_add(&sbi->s_kobj, &sb_ktype, fs_root, "%s", "sda");
  if (err) {
    kobject_put(&sbi->s_kobj);
    return err;
  }
  if (fill_attrs(&sbi->s_kobj)) {
    kobject_put(&sbi->s_kobj);
    return -ENOMEM; // no-warning
  }
  return 0;
}

int tune_init_bad(void) {
  int err = kobject_init_and_add(&tune_kobj, &sb_ktype, fs_root, "tune"); // on-note{{The call to kobject_init_and_add() registers '&tune_kobj': the registration keeps it once this function returns success}}
  if (err) { // on-note{{'err' is 0}} on-note{{Taking false branch}}
    kobject_put(&tune_kobj);
    return err;
  }
  err = fill_attrs(&tune_kobj);
  if (err) // on-note{{Assuming 'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // on-warning{{'&tune_kobj' was registered by kobject_init_and_add(), and this path returns an error without undoing the registration (missing kobject_put())}} on-note{{Returning the nonzero status of fill_attrs(): it failed and kept nothing, so the object is still this path's to put}} on-note{{'&tune_kobj' was registered by kobject_init_and_add(), and this path returns an error without undoing the registration (missing kobject_put())}}
  return 0;
}

int tune_init_good(void) {
  int err = kobject_init_and_add(&tune_kobj, &sb_ktype, fs_root, "tune");
  if (err) {
    kobject_put(&tune_kobj);
    return err;
  }
  err = fill_attrs(&tune_kobj);
  if (err)
    kobject_put(&tune_kobj);
  return err; // no-warning
}

int ports_add_bad(struct port *ports, int n) {
  for (int i = 0; i < n; i++) { // on-note{{Assuming 'i' is < 'n'}} on-note{{Loop condition is true.  Entering loop body}}
    int err = device_register(&ports[i].dev); // on-note{{The call to device_register() registers '&ports[i].dev': the registration keeps it once this function returns success}}
    if (err) { // on-note{{'err' is 0}} on-note{{Taking false branch}}
      put_device(&ports[i].dev);
      return err;
    }
    if (port_setup(&ports[i])) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
      return -EIO; // on-warning{{'&ports[i].dev' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}} on-note{{'&ports[i].dev' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}}
  }
  return 0;
}

/* The failure of the second pass leaves the first pass's device
 * registered. */
int ports_add_partial(struct port *ports, int n) {
  for (int i = 0; i < n; i++) { // on-note 2 {{Assuming 'i' is < 'n'}} on-note 2 {{Loop condition is true.  Entering loop body}}
    int err = device_register(&ports[i].dev); // on-note{{The call to device_register() registers '&ports[i].dev': the registration keeps it once this function returns success}} on-note{{The call to device_register() fails: it set the count of '&ports[i].dev' to one and kept nothing, so this path holds its first reference}}
    if (err) { // on-note{{'err' is 0}} on-note{{Taking false branch}} on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
      put_device(&ports[i].dev); // on-note{{Reference to '&ports[i].dev' released by put_device()}}
      return err; // on-warning{{'&ports[i].dev' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}} on-note{{'&ports[i].dev' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}}
    }
    if (port_setup(&ports[i])) { // on-note{{Assuming the condition is false}} on-note{{Taking false branch}}
      device_unregister(&ports[i].dev);
      return -EIO;
    }
  }
  return 0;
}

int ports_add_good(struct port *ports, int n) {
  int i, err;
  for (i = 0; i < n; i++) {
    err = device_register(&ports[i].dev);
    if (err) {
      put_device(&ports[i].dev);
      goto unwind;
    }
  }
  return 0;
unwind:
  while (--i >= 0)
    device_unregister(&ports[i].dev);
  return err; // no-warning
}

static int port_register(struct port *p) {
  int err = device_register(&p->dev); // on-note{{The call to device_register() registers 'p': the registration keeps it once this function returns success}}
  if (err) // on-note{{'err' is 0}} on-note{{Taking false branch}}
    put_device(&p->dev);
  return err;
}

int port_probe_bad(struct port *p) {
  int ret = port_register(p); // on-note{{Calling 'port_register'}} on-note{{Returning from 'port_register'}}
  if (ret) // on-note{{'ret' is 0}} on-note{{Taking false branch}}
    return ret;
  ret = port_setup(p);
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    return ret; // on-warning{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}} on-note{{Returning the nonzero status of port_setup(): it failed and kept nothing, so 'p' is still this path's to put}} on-note{{'p' was registered by device_register(), and this path returns an error without undoing the registration (missing device_unregister())}}
  return 0;
}

int port_probe_stored(struct port *p, struct holder *h) {
  int ret = port_register(p);
  if (ret)
    return ret;
  h->port = p;
  ret = port_setup(p);
  if (ret)
    return ret; // no-warning: the holder's cleanup unregisters it
  return 0;
}

void port_attach(struct port *p) {
  if (device_register(&p->dev)) {
    put_device(&p->dev);
    return;
  }
  if (port_setup(p))
    return; // no-warning: nothing failed that the caller is told of
}

int port_add_once(struct port *p) {
  int err = device_register(&p->dev);
  if (err)
    put_device(&p->dev);
  return err; // no-warning
}
