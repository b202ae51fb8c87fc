// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=errptr-values
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,offproto %s -analyzer-config refcount:DisableRules=errptr-values

/* refcount.Leak, rule errptr-values: IS_ERR(p) of any pointer splits the
 * path into an ERR_PTR() and a real pointer, remembered for p, and
 * PTR_ERR(p) after IS_ERR(p) was true is a negative errno. Without it
 * (prefix `off`) the analyzer reads the inline bodies, whose casts lose the
 * range: `if (IS_ERR(p)) return PTR_ERR(p);` may return 0 or a positive
 * value. That hides a leak on the error return (a get still held when the
 * function returns PTR_ERR()) and invents paths on which a callee failed
 * early but its caller goes on as if it had succeeded. With IS_ERR() a
 * prototype (`offproto`), two tests of one pointer could even disagree. */

void *make_buf(void);
int hw_start(void);
struct gem { int size; struct kref ref; };
void gem_release(struct kref *kref);

int attach_buf(struct device *dev) {
  void *buf;
  get_device(dev); // on-note{{Reference to 'dev' taken by get_device()}}
  buf = make_buf();
  if (IS_ERR(buf)) // on-note{{Taking true branch}}
    return PTR_ERR(buf); // on-warning{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}} on-note{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}}
  put_device(dev);
  return 0;
}

int attach_buf_ok(struct device *dev) {
  void *buf;
  get_device(dev);
  buf = make_buf();
  if (IS_ERR(buf)) {
    put_device(dev);
    return PTR_ERR(buf); // no-warning: put before the error return
  }
  put_device(dev);
  return 0;
}

/* The shape of pvr_vm_map() (drivers/gpu/drm/imagination/pvr_vm.c): the
 * init helper fails early with PTR_ERR() before it records the object;
 * the caller returns on any failure, so its cleanup never runs without
 * the record. Without the rule, a path on which the helper's PTR_ERR()
 * was 0 went on and read the skipped put as a leak. */
struct bind { struct gem *obj; void *buf; };

static int bind_init(struct bind *b, struct gem *obj) {
  void *buf = make_buf();
  if (IS_ERR(buf))
    return PTR_ERR(buf);
  b->buf = buf;
  b->obj = obj;
  return 0;
}

int bind_map(struct gem *obj) {
  struct bind b = {0};
  int err = bind_init(&b, obj);
  if (err) // off-note{{Assuming 'err' is 0}} off-note{{Taking false branch}}
    return err;
  kref_get(&obj->ref); // off-note{{Reference to '&obj->ref' taken by kref_get()}}
  err = hw_start();
  if (err) // off-note{{Assuming 'err' is not equal to 0}} off-note{{Taking true branch}}
    goto out; // off-note{{Control jumps to line 70}}
  return 0;
out:
  if (b.obj) // off-note{{Field 'obj' is null}} off-note{{Taking false branch}}
    kref_put(&b.obj->ref, gem_release);
  return err; // no-warning: b.obj is obj on every feasible path // off-note{{Returning the nonzero status of hw_start(): a failure, by the kernel's 0-or-errno convention}} off-warning{{Reference to '&obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}} off-note{{Reference to '&obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
}

/* A second test of the same pointer agrees with the first. */
int attach_twice(struct device *dev) {
  void *buf = make_buf();
  if (IS_ERR(buf)) // offproto-note{{Assuming the condition is false}} offproto-note{{Taking false branch}}
    return PTR_ERR(buf);
  get_device(dev); // offproto-note{{Reference to 'dev' taken by get_device()}}
  if (IS_ERR(buf)) // offproto-note{{Assuming the condition is true}} offproto-note{{Taking true branch}}
    return -EINVAL; // no-warning: buf was found a real pointer above // offproto-warning{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}} offproto-note{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}}
  put_device(dev);
  return 0;
}
