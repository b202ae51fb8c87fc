// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=off %s -analyzer-config refcount:DisableRules=nonzero-status-error
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=off %s -analyzer-config refcount:DisableRules=nonzero-status-error
// off-no-diagnostics

/* refcount.Leak, rule nonzero-status-error: a get on a pointer the function
 * was given leaks only on a path that returns an error. An int status a
 * call returned, which the path assumed nonzero without telling its sign
 * (`if (ret) return ret;`, `if (ret) goto err;`), is that call's failure:
 * kernel functions return 0 or a negative errno. With the rule off (no
 * prefix `on`) such a return is not known to be an error and these leaks
 * are missed. A status known positive stays a success, and a status the
 * path never tested may be 0. */

int hw_powerup(void);
int hw_setup(struct device *dev);

/* The shape of imgu_s_stream() (drivers/staging/media/ipu3): a power-up
 * helper inlined, returning another file's status. */
static int powerup(void) {
  int r = hw_powerup();
  if (r)
    return r;
  return 0;
}

int stream_on(struct device *dev) {
  int r = pm_runtime_resume_and_get(dev); // on-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (r < 0) // on-note{{'r' is >= 0}} on-note{{Taking false branch}}
    return r;
  r = powerup();
  if (r) // on-note{{'r' is not equal to 0}} on-note{{Taking true branch}}
    return r; // on-note{{Returning the nonzero status of hw_powerup(): a failure, by the kernel's 0-or-errno convention}} on-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return 0;
}

int stream_on_ok(struct device *dev) {
  int r = pm_runtime_resume_and_get(dev);
  if (r < 0)
    return r;
  r = powerup();
  if (r) {
    pm_runtime_put(dev);
    return r; // no-warning: put before the error return
  }
  return 0;
}

struct ctx { struct device *dev; int state; };

int ctx_attach(struct ctx *c, struct device *dev) {
  int ret;
  c->state = 0;
  get_device(dev); // on-note{{Reference to 'dev' taken by get_device()}}
  ret = hw_setup(dev);
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto err; // on-note{{Control jumps to line 62}}
  c->dev = dev;
  return 0;
err:
  return ret; // on-note{{Returning the nonzero status of hw_setup(): a failure, by the kernel's 0-or-errno convention}} on-warning{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}} on-note{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}}
}

int ctx_attach_ok(struct ctx *c, struct device *dev) {
  int ret;
  get_device(dev);
  ret = hw_setup(dev);
  if (ret)
    goto err;
  c->dev = dev;
  return 0;
err:
  put_device(dev);
  return ret; // no-warning: put on the error path
}

/* A status the path knows positive is a success (a count, a "done"). */
int ctx_positive_status(struct device *dev) {
  int ret;
  get_device(dev);
  ret = hw_setup(dev);
  if (ret > 0)
    return ret; // no-warning: not an error; the get is paired elsewhere
  if (ret < 0) {
    put_device(dev);
    return ret;
  }
  return 0;
}

/* A status never tested may be 0: the function may succeed. */
int ctx_untested_status(struct device *dev) {
  get_device(dev);
  return hw_setup(dev); // no-warning: may be 0, a success that keeps the count
}
