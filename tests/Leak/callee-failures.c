// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=callee-failed-holding
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=callee-failed-holding

/* refcount.Leak of a count held at an inlined callee's error return (rule
 * callee-failed-holding). A function of this TU that takes a runtime-PM
 * usage count (or a device reference) and returns an error without
 * dropping it leaks that count: its caller, told of the failure, owes no
 * put. Without the rule such a count was reported only when the analyzed
 * function itself returned an error, so a void callback, or a caller that
 * logs the failure and returns 0, hid it (mtk_crtc_ddp_hw_init() in the
 * void mtk_crtc_atomic_enable(), a seeded bug of held-out set 11). With the
 * rule off (no "on" prefix) none of the positives is reported. */
// off-no-diagnostics

struct comp { struct device *dev; int on; };
struct crtc { struct device *dev; struct comp *comp; int mutex; struct device *held; };
int mutex_prepare(int *m);
int clk_start(struct crtc *c);
void log_failure(struct crtc *c, int err);

static int crtc_hw_init(struct crtc *c) {
  int ret = pm_runtime_resume_and_get(c->dev); // on-note 2 {{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'c->dev': it succeeded}}
  if (ret < 0) // on-note 2 {{'ret' is >= 0}} on-note 2 {{Taking false branch}}
    return ret;
  ret = mutex_prepare(&c->mutex);
  if (ret < 0) // on-note 2 {{Assuming 'ret' is < 0}} on-note 2 {{Taking true branch}}
    goto err; // on-note 2 {{Control jumps to line 32}}
  return 0;
err:
  return ret; // on-note 2 {{crtc_hw_init() returns an error here without dropping the count it took on 'c->dev'}}
}

/* A void callback: nothing to return the failure through. */
void crtc_enable_bad(struct crtc *c) {
  if (crtc_hw_init(c)) // on-note{{Calling 'crtc_hw_init'}} on-note{{Returning from 'crtc_hw_init'}} on-note{{Taking true branch}}
    return; // LEAK on-warning{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* The caller logs the failure and reports success. */
int crtc_resume_bad(struct crtc *c) {
  int ret = crtc_hw_init(c); // on-note{{Calling 'crtc_hw_init'}} on-note{{Returning from 'crtc_hw_init'}}
  if (ret) // on-note{{'ret' is not equal to 0}} on-note{{Taking true branch}}
    log_failure(c, ret);
  return 0; // LEAK on-warning{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* The status of another call, nonzero (rule nonzero-status-error). */
static int crtc_clk_on(struct crtc *c) {
  int ret = pm_runtime_resume_and_get(c->dev); // on-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'c->dev': it succeeded}}
  if (ret < 0) // on-note{{'ret' is >= 0}} on-note{{Taking false branch}}
    return ret;
  ret = clk_start(c);
  if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    return ret; // on-note{{crtc_clk_on() returns an error here without dropping the count it took on 'c->dev'}}
  return 0;
}

void crtc_clk_bad(struct crtc *c) {
  crtc_clk_on(c); // on-note{{Calling 'crtc_clk_on'}} on-note{{Returning from 'crtc_clk_on'}}
  return; // LEAK on-warning{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'c->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* A device reference taken by a helper that then fails. */
static struct device *crtc_take(struct crtc *c) {
  struct device *d = get_device(c->dev); // on-note{{Reference to 'd' taken by get_device()}}
  if (mutex_prepare(&c->mutex)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return NULL; // on-note{{crtc_take() returns an error here without dropping the count it took on 'd'}}
  return d;
}

void crtc_take_bad(struct crtc *c) {
  struct device *d = crtc_take(c); // on-note{{Calling 'crtc_take'}} on-note{{Returning from 'crtc_take'}}
  if (!d) // on-note{{'d' is null}} on-note{{Taking true branch}}
    return; // LEAK on-warning{{Reference to 'd' taken by get_device() is not released on this error path (missing put_device())}} on-note{{Reference to 'd' taken by get_device() is not released on this error path (missing put_device())}}
  c->held = d;
}

/* no-warning twins */

static int crtc_hw_init_ok(struct crtc *c) {
  int ret = pm_runtime_resume_and_get(c->dev);
  if (ret < 0)
    return ret;
  ret = mutex_prepare(&c->mutex);
  if (ret < 0)
    goto err;
  return 0;
err:
  pm_runtime_put(c->dev);
  return ret;
}

void crtc_enable_ok(struct crtc *c) {
  if (crtc_hw_init_ok(c))
    return; // no-warning: the callee put before failing
}

/* The callee succeeds holding the count: the caller keeps the device
 * powered on purpose (an open() that its release() balances). */
void crtc_open_ok(struct crtc *c) {
  if (crtc_hw_init_ok(c) == 0)
    c->comp->on = 1; // no-warning: a success keeps the count
}

/* A caller that puts after the callee failed ends the count. */
void crtc_enable_put_ok(struct crtc *c) {
  if (crtc_hw_init(c)) {
    pm_runtime_put(c->dev);
    return; // no-warning: put by the caller
  }
}

static struct device *crtc_take_ok(struct crtc *c) {
  struct device *d = get_device(c->dev);
  if (mutex_prepare(&c->mutex)) {
    put_device(d);
    return NULL;
  }
  return d;
}

void crtc_take_ok_caller(struct crtc *c) {
  struct device *d = crtc_take_ok(c);
  if (!d)
    return; // no-warning: put in the callee
  c->held = d;
}

/* The callee hands the reference over before failing. */
static int crtc_keep(struct crtc *c) {
  c->held = get_device(c->dev);
  if (mutex_prepare(&c->mutex))
    return -5;
  return 0;
}

void crtc_keep_caller(struct crtc *c) {
  if (crtc_keep(c))
    return; // no-warning: stored in c->held before the failure
}
