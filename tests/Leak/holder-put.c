// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=holder-put
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=holder-put

/* refcount.Leak, rule holder-put: a get on a pointer read out of a field
 * of object H (`kobject_get(p->kobj.parent)`) is a count H holds, and a put
 * of H (`kobject_put(&p->kobj)`) may run H's release, which drops it
 * (fs/char_dev.c cdev_device_add(): cdev_add() takes the parent, cdev_del()
 * on device_add()'s failure puts the cdev's kobject, whose release puts
 * the parent). With the rule on (`on`) the put of the holder ends the
 * path's claim on that count. Positives in both modes: an error path that
 * puts nothing, and one that puts another object. */

struct cdev_like {
  struct kobject kobj;
  int id;
};
int cd_map(struct cdev_like *p);
int cd_register(struct cdev_like *p);

static int cd_add(struct cdev_like *p) {
  int err = cd_map(p);
  if (err) // expected-note 2 {{Assuming 'err' is 0}} expected-note 2 {{Taking false branch}} off-note {{Assuming 'err' is 0}} off-note {{Taking false branch}}
    return err;
  kobject_get(p->kobj.parent); // expected-note 2 {{Reference to 'p->kobj.parent' taken by kobject_get()}} off-note {{Reference to 'p->kobj.parent' taken by kobject_get()}}
  return 0;
}

int cd_device_add(struct cdev_like *p, struct kobject *parent) {
  int rc;

  p->kobj.parent = parent;
  rc = cd_add(p); // off-note {{Calling 'cd_add'}} off-note {{Returning from 'cd_add'}}
  if (rc) // off-note {{'rc' is 0}} off-note {{Taking false branch}}
    return rc;
  rc = cd_register(p);
  if (rc) // off-note {{Assuming 'rc' is not equal to 0}} off-note {{Taking true branch}}
    kobject_put(&p->kobj); // off-note {{The call to kobject_put() puts '&p->kobj', not 'p->kobj.parent'}}
  return rc; // off-note {{Returning the nonzero status of cd_register(): a failure, by the kernel's 0-or-errno convention}} off-warning {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}} off-note {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}} (on: no-warning)
}

int cd_device_add_no_put(struct cdev_like *p, struct kobject *parent) {
  int rc;

  p->kobj.parent = parent;
  rc = cd_add(p); // expected-note {{Calling 'cd_add'}} expected-note {{Returning from 'cd_add'}}
  if (rc) // expected-note {{'rc' is 0}} expected-note {{Taking false branch}}
    return rc;
  rc = cd_register(p);
  if (rc) // expected-note {{Assuming 'rc' is not equal to 0}} expected-note {{Taking true branch}}
    return rc; // expected-note {{Returning the nonzero status of cd_register(): a failure, by the kernel's 0-or-errno convention}} expected-warning {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}} expected-note {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}}
  return 0;
}

int cd_device_add_other_put(struct cdev_like *p, struct cdev_like *q,
                            struct kobject *parent) {
  int rc;

  p->kobj.parent = parent;
  rc = cd_add(p); // expected-note {{Calling 'cd_add'}} expected-note {{Returning from 'cd_add'}}
  if (rc) // expected-note {{'rc' is 0}} expected-note {{Taking false branch}}
    return rc;
  rc = cd_register(p);
  if (rc) // expected-note {{Assuming 'rc' is not equal to 0}} expected-note {{Taking true branch}}
    kobject_put(&q->kobj); // expected-note {{The call to kobject_put() puts '&q->kobj', not 'p->kobj.parent'}}
  return rc; // expected-note {{Returning the nonzero status of cd_register(): a failure, by the kernel's 0-or-errno convention}} expected-warning {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}} expected-note {{Reference to 'p->kobj.parent' taken by kobject_get() is not released on this error path (missing kobject_put())}}
}
