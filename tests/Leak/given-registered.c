// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=given-object-registered
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=given-object-registered
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,through %s -analyzer-config refcount:DisableRules=failure-passed-through
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,through %s -analyzer-config refcount:DisableRules=failure-passed-through

/* refcount.Leak, rule given-object-registered: kobject_init_and_add() and
 * device_register() set up an object's first reference even when the
 * object lives in memory the function was given (a kobject embedded in the
 * superblock's info) or in a global; when they fail, the caller must put
 * it ("If this function returns an error, kobject_put() must be called to
 * properly clean up the memory associated with the object"), or the name
 * they allocated leaks. ext4_register_sysfs() and f2fs_init_sysfs() with
 * their kobject_put() deleted were missed (held-out sets 10 and 11). With
 * the rule off (prefix off) nothing here is reported. A function whose
 * failure path makes no call but logging leaves the failure, and the put,
 * to its caller (rule failure-passed-through: rio_add_net(), whose caller
 * puts; prefix through: reported with that rule off). */
// off-no-diagnostics

struct sb_info { struct kobject s_kobj; int flags; };
struct port { struct device dev; int id; };
struct kobj_type;
extern const struct kobj_type sb_ktype;
extern struct kobject *fs_root;
static struct kobject tune_kobj;
void publish(struct sb_info *sbi);
void sb_teardown(struct sb_info *sbi);
void release_id(int id);

int fs_register_sysfs_bad(struct sb_info *sbi) {
  int err = kobject_init_and_add(&sbi->s_kobj, &sb_ktype, fs_root, "%s", "sda"); // on-note{{The call to kobject_init_and_add() fails: it set the count of 'sbi' to one and kept nothing, so this path holds its first reference}}
  if (err) { // on-note{{'err' is not equal to 0}} on-note{{Taking true branch}}
    sb_teardown(sbi);
    return err; // LEAK on-warning{{The first reference kobject_init_and_add() set up on 'sbi', an object this function did not allocate, is not put on this path (missing kobject_put())}} on-note{{The first reference kobject_init_and_add() set up on 'sbi', an object this function did not allocate, is not put on this path (missing kobject_put())}}
  }
  publish(sbi);
  return 0;
}

int fs_init_tune_bad(void) {
  int ret = kobject_init_and_add(&tune_kobj, &sb_ktype, fs_root, "tuning"); // on-note{{The call to kobject_init_and_add() fails: it set the count of '&tune_kobj' to one and kept nothing, so this path holds its first reference}}
  if (ret) // on-note{{'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto unwind; // on-note{{Control jumps to line 48}}
  return 0;
unwind:
  sb_teardown(0);
  return ret; // LEAK on-warning{{The first reference kobject_init_and_add() set up on '&tune_kobj', an object this function did not allocate, is not put on this path (missing kobject_put())}} on-note{{The first reference kobject_init_and_add() set up on '&tune_kobj', an object this function did not allocate, is not put on this path (missing kobject_put())}}
}

int port_add_bad(struct port *p) {
  int ret = device_register(&p->dev); // on-note{{The call to device_register() fails: it set the count of 'p' to one and kept nothing, so this path holds its first reference}}
  if (ret) { // on-note{{'ret' is not equal to 0}} on-note{{Taking true branch}}
    release_id(p->id);
    return ret; // LEAK on-warning{{The first reference device_register() set up on 'p', an object this function did not allocate, is not put on this path (missing put_device())}} on-note{{The first reference device_register() set up on 'p', an object this function did not allocate, is not put on this path (missing put_device())}}
  }
  return 0;
}

/* no-warning twins */

int fs_register_sysfs_ok(struct sb_info *sbi) {
  int err = kobject_init_and_add(&sbi->s_kobj, &sb_ktype, fs_root, "%s", "sda");
  if (err) {
    kobject_put(&sbi->s_kobj);
    return err; // no-warning: put after the failure
  }
  publish(sbi);
  return 0; // no-warning: kept by the registration
}

int fs_init_tune_ok(void) {
  int ret = kobject_init_and_add(&tune_kobj, &sb_ktype, fs_root, "tuning");
  if (ret)
    kobject_put(&tune_kobj);
  return ret; // no-warning: put after the failure
}

int port_add_ok(struct port *p) {
  int ret = device_register(&p->dev);
  if (ret) {
    put_device(&p->dev);
    return ret; // no-warning: put after the failure
  }
  return 0;
}

/* A wrapper that returns the register call's own status leaves the put to
 * its caller, as the call itself does (drm_class_device_register()). */
int port_register_wrapper(struct port *p) {
  return device_register(&p->dev); // no-warning: the caller puts on failure
}

/* The failure passed through untouched (but logged): the caller puts. */
int port_add_passthrough(struct port *p) {
  int ret = device_register(&p->dev); // through-note{{The call to device_register() fails: it set the count of 'p' to one and kept nothing, so this path holds its first reference}}
  if (ret) { // through-note{{'ret' is not equal to 0}} through-note{{Taking true branch}}
    dev_err(&p->dev, "cannot register: %d\n", ret);
    return ret; // no-warning: the caller's to put (reported with failure-passed-through off) through-warning{{The first reference device_register() set up on 'p', an object this function did not allocate, is not put on this path (missing put_device())}} through-note{{The first reference device_register() set up on 'p', an object this function did not allocate, is not put on this path (missing put_device())}}
  }
  p->id = 1;
  return 0;
}

/* The same in a void function whose failure is only logged, through a
 * macro that, like printk's index, calls a compiler builtin first: the
 * object's teardown puts the kobject (nfs_sysfs_add_server(), whose
 * nfs_free_server() puts server->kobj once initialized). */
#define log_warn(fmt, arg)                                                     \
  ({                                                                           \
    if (__builtin_constant_p(fmt))                                             \
      printk(fmt, arg);                                                        \
  })
void sb_add_sysfs(struct sb_info *sbi) {
  int ret = kobject_init_and_add(&sbi->s_kobj, &sb_ktype, fs_root, "%s", "sdb"); // through-note{{The call to kobject_init_and_add() fails: it set the count of 'sbi' to one and kept nothing, so this path holds its first reference}}
  if (ret < 0) { // through-note{{'ret' is < 0}} through-note{{Taking true branch}}
    log_warn("sysfs add failed (%d)\n", ret); // through-note{{Taking true branch}}
    return; // no-warning: the failure is only logged (reported with failure-passed-through off) through-warning{{The first reference kobject_init_and_add() set up on 'sbi', an object this function did not allocate, is not put on this path (missing kobject_put())}} through-note{{The first reference kobject_init_and_add() set up on 'sbi', an object this function did not allocate, is not put on this path (missing kobject_put())}}
  }
  publish(sbi);
}
