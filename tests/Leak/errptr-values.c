// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,cnt %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,cnt %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,cnt %s -analyzer-config refcount:DisableRules=errptr-values
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,offproto,cnt %s -analyzer-config refcount:DisableRules=errptr-values
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,nocount %s -analyzer-config refcount:DisableRules=counted-not-errptr
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,nocount %s -analyzer-config refcount:DisableRules=counted-not-errptr

/* refcount.Leak, rule errptr-values: IS_ERR(p) of any pointer splits the
 * path into an ERR_PTR() and a real pointer, remembered for p, and
 * PTR_ERR(p) after IS_ERR(p) was true is a negative errno. Without it
 * (prefix `off`) the analyzer reads the inline bodies, whose casts lose the
 * range: `if (IS_ERR(p)) return PTR_ERR(p);` may return 0 or a positive
 * value. That hides a leak on the error return (a get still held when the
 * function returns PTR_ERR()) and invents paths on which a callee failed
 * early but its caller goes on as if it had succeeded. With IS_ERR() a
 * prototype (`offproto`), two tests of one pointer could even disagree.
 * Rule counted-not-errptr keeps the split off pointers the path took a
 * count through (prefix `nocount`: the rule off). */

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
  if (IS_ERR(buf)) // off-note{{Taking true branch}} offproto-note{{Assuming the condition is true}}
    return PTR_ERR(buf);
  b->buf = buf;
  b->obj = obj;
  return 0;
}

int bind_map(struct gem *obj) {
  struct bind b = {0};
  int err = bind_init(&b, obj); // off-note{{Calling 'bind_init'}} off-note{{Returning from 'bind_init'}}
  if (err) // off-note{{Assuming 'err' is 0}} off-note{{Taking false branch}}
    return err;
  kref_get(&obj->ref); // off-note{{Reference to '&obj->ref' taken by kref_get()}}
  err = hw_start();
  if (err) // off-note{{Assuming 'err' is not equal to 0}} off-note{{Taking true branch}}
    goto out; // off-note{{Control jumps to line 74}}
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

/* The shape of emit_oa_config() (drivers/gpu/drm/i915/i915_perf.c): the
 * getter takes a count on vma->obj and returns vma, which the caller tests
 * with IS_ERR(). The path read vma->obj, so vma is no ERR_PTR(): the true
 * branch, on which the count would leak, is infeasible (rule
 * counted-not-errptr). */
struct vma { struct gem *obj; };
struct cfg_bo { struct vma *vma; };
struct cfg_bo *find_cfg_bo(int id);

static struct vma *vma_get(struct vma *vma) {
  kref_get(&vma->obj->ref); // expected-note{{Reference to '&vma->obj->ref' taken by kref_get()}} nocount-note{{Reference to '&vma->obj->ref' taken by kref_get()}}
  return vma;
}

static struct vma *get_cfg_vma(int id) {
  struct cfg_bo *bo = find_cfg_bo(id);
  if (IS_ERR(bo)) // expected-note{{Taking false branch}} nocount-note{{Taking false branch}} offproto-note{{Assuming the condition is false}}
    return (struct vma *)bo;
  return vma_get(bo->vma); // expected-note{{Calling 'vma_get'}} expected-note{{Returning from 'vma_get'}} nocount-note{{Calling 'vma_get'}} nocount-note{{Returning from 'vma_get'}}
}

int emit_cfg(int id) {
  struct vma *vma = get_cfg_vma(id); // nocount-note{{Calling 'get_cfg_vma'}} nocount-note{{Returning from 'get_cfg_vma'}}
  int err;
  if (IS_ERR(vma)) // nocount-note{{Taking true branch}}
    return PTR_ERR(vma); // no-warning: vma was dereferenced for the get // nocount-warning{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}} nocount-note{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  err = hw_start();
  kref_put(&vma->obj->ref, gem_release);
  return err;
}

int emit_cfg_bad(int id) {
  struct vma *vma = get_cfg_vma(id); // expected-note{{Calling 'get_cfg_vma'}} expected-note{{Returning from 'get_cfg_vma'}}
  int err;
  if (IS_ERR(vma)) // cnt-note{{Taking false branch}} nocount-note{{Taking true branch}}
    return PTR_ERR(vma); // nocount-warning{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}} nocount-note{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  err = hw_start();
  if (err) // cnt-note{{Assuming 'err' is not equal to 0}} cnt-note{{Taking true branch}}
    return err; // cnt-note{{Returning the nonzero status of hw_start(): a failure, by the kernel's 0-or-errno convention}} cnt-warning{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}} cnt-note{{Reference to '&vma->obj->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  kref_put(&vma->obj->ref, gem_release);
  return 0;
}

/* compose_entry_fh() (fs/nfsd/nfs3xdr.c): dget_parent() never fails, so its
 * result is never an ERR_PTR() (its row has no failure convention): the
 * IS_ERR() branch is not a path. The twin leaks on a later return. */
int entry_parent(struct dentry *d, struct dentry *root) {
  struct dentry *child = dget_parent(d);
  if (IS_ERR(child))
    return -ENOENT; // no-warning
  if (child == root) {
    dput(child);
    return 0;
  }
  dput(child);
  return 1;
}

int entry_parent_leaks(struct dentry *d, struct dentry *root) {
  struct dentry *child = dget_parent(d); // expected-note{{The call to dget_parent() returns a counted reference (+1): 'child' must be released}}
  if (IS_ERR(child)) // expected-note{{Taking false branch}}
    return -ENOENT;
  if (child == root) // expected-note{{Assuming 'child' is equal to 'root'}} expected-note{{Taking true branch}}
    return 0; // expected-warning{{Reference to 'child' acquired by dget_parent() is not released on this path (missing dput())}} expected-note{{Reference to 'child' acquired by dget_parent() is not released on this path (missing dput())}}
  dput(child);
  return 1;
}
