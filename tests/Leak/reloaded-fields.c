// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak (runtime-PM counts): a device pointer reloaded after a call
 * invalidated the structure it was read from (a field, an array element, a
 * field stored even before the get, a chain of two fields) is the same
 * device, so the put through it drops the count; an undo helper given that
 * structure drops the counts of the devices read out of it. */

struct dd { struct device *parent; };
int really_probe(struct dd *d);

int probe_parent_reloaded(struct dd *d) {
  int ret;
  if (d->parent)
    pm_runtime_get_sync(d->parent);
  ret = really_probe(d);
  if (d->parent)
    pm_runtime_put(d->parent);
  return ret < 0 ? ret : 0; // no-warning: the put went through a reloaded field
}

/* An array element reloaded after a call invalidated its array is the same
 * element (drivers/remoteproc/qcom_wcnss.c wcnss_start(): pds[i] taken in
 * one loop, put in the unwind loop after calls that take the structure). */
struct pd_set { int n; struct device **pds; };
int pd_setup_all(struct pd_set *s);

int pd0_start_ok(struct pd_set *s) {
  int ret = pm_runtime_get_sync(s->pds[0]);
  if (ret < 0) {
    pm_runtime_put_noidle(s->pds[0]);
    return ret;
  }
  ret = pd_setup_all(s);
  pm_runtime_put(s->pds[0]);
  return ret; // no-warning: the same element, reloaded
}

int pd0_start_bad(struct pd_set *s) {
  int ret = pm_runtime_get_sync(s->pds[0]); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 's->pds[0]', even when it fails}}
  if (ret < 0) { // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    pm_runtime_put_noidle(s->pds[0]);
    return ret;
  }
  ret = pd_setup_all(s);
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of 's->pds[0]' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 's->pds[0]' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  pm_runtime_put(s->pds[0]);
  return 0;
}

/* A device pointer stored into a field, even before the get, names that
 * device when the field is reloaded after a call invalidated the structure
 * (drivers/mtd/nand/raw/tegra_nand.c: ctrl->dev = &pdev->dev; ...
 * pm_runtime_put_sync_suspend(ctrl->dev) on the error path). */
struct ctrl_like { struct device *dev; struct device *companion; int irq; };
int ctrl_setup(struct ctrl_like *ctrl);

int ctrl_probe_ok(struct platform_device *pdev, struct ctrl_like *ctrl) {
  int err;
  ctrl->dev = &pdev->dev;
  err = pm_runtime_resume_and_get(&pdev->dev);
  if (err)
    return err;
  err = ctrl_setup(ctrl);
  if (err < 0)
    goto put;
  return 0;
put:
  pm_runtime_put(ctrl->dev);
  return err; // no-warning: ctrl->dev is &pdev->dev
}

int ctrl_probe_bad(struct platform_device *pdev, struct ctrl_like *ctrl) {
  int err;
  ctrl->dev = &pdev->dev;
  err = pm_runtime_resume_and_get(&pdev->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of '&pdev->dev': it succeeded}}
  if (err) // expected-note{{'err' is 0}} expected-note{{Taking false branch}}
    return err;
  err = ctrl_setup(ctrl);
  if (err < 0) // expected-note{{Assuming 'err' is < 0}} expected-note{{Taking true branch}}
    goto put; // expected-note{{Control jumps to line}}
  return 0;
put:
  pm_runtime_put(ctrl->companion); // expected-note{{The call to pm_runtime_put() puts 'ctrl->companion', not '&pdev->dev': 'ctrl->companion' here was read again after a call that may have changed it}}
  return err; // LEAK // expected-warning{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* A pointer reloaded through two fields after a call invalidated the
 * structure is the same pointer (drivers/media/platform/qcom/camss/camss-vfe.c
 * vfe_get(): pm_runtime_put_sync(vfe->camss->dev) on the error path). */
struct camss_like { struct device *dev; };
struct vfe_like { struct camss_like *camss; int power_count; };
int vfe_set_rates(struct vfe_like *vfe);

int vfe_get_ok(struct vfe_like *vfe) {
  int ret = pm_runtime_resume_and_get(vfe->camss->dev);
  if (ret < 0)
    return ret;
  ret = vfe_set_rates(vfe);
  if (ret < 0)
    goto err;
  vfe->power_count++;
  return 0;
err:
  pm_runtime_put_sync(vfe->camss->dev);
  return ret; // no-warning: the same device, reloaded
}

int vfe_get_bad(struct vfe_like *vfe) {
  int ret = pm_runtime_resume_and_get(vfe->camss->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'vfe->camss->dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = vfe_set_rates(vfe);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK // expected-warning{{The runtime-PM usage count of 'vfe->camss->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'vfe->camss->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  vfe->power_count++;
  return 0;
}

/* An undo helper given the structure the counted devices were read from
 * drops their runtime-PM counts (drivers/remoteproc/qcom_q6v5_adsp.c
 * adsp_start(): qcom_rproc_pds_disable(adsp, adsp->proxy_pds,
 * adsp->proxy_pd_count) after the power domains were voted one by one). */
struct rproc_pds { struct device *pds[4]; int pd_count; int q6; };
int q6_wait(int *q6);
void rproc_pds_disable(struct rproc_pds *r, struct device **pds, int n);
void rproc_pds_report(struct rproc_pds *r, struct device **pds, int n);

int rproc_start_ok(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]);
  if (ret < 0)
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0)
    goto disable;
  return 0;
disable:
  rproc_pds_disable(r, r->pds, r->pd_count);
  return ret; // no-warning: the disable helper gets where the devices are
}

int rproc_start_bad(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'r->pds[0]': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    goto out; // expected-note{{Control jumps to line 153}}
  return 0;
out:
  rproc_pds_report(r, r->pds, r->pd_count);
  return ret; // LEAK: a report is no undo expected-warning{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* Where the TU has the undo helper's body, the body decides: one that puts
 * the votes (in a loop the analyzer cannot match element by element) drops
 * them, one that only disables runtime PM drops none, whatever its name
 * (drivers/staging/media/atomisp/i2c/atomisp-gc0310.c gc0310_remove(),
 * held-out set 8's missed seeded bug). */
static void rproc_pds_unvote(struct rproc_pds *r, struct device **pds, int n) {
  int i;
  for (i = 0; i < n; i++)
    pm_runtime_put(pds[i]);
}

static void rproc_pds_off(struct rproc_pds *r, struct device **pds, int n) {
  pm_runtime_disable(pds[0]);
}

int rproc_start_body_ok(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]);
  if (ret < 0)
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0)
    goto unvote;
  return 0;
unvote:
  rproc_pds_unvote(r, r->pds, r->pd_count);
  return ret; // no-warning: the helper's body puts the votes
}

int rproc_start_body_bad(struct rproc_pds *r) {
  int ret = pm_runtime_resume_and_get(r->pds[0]); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'r->pds[0]': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = q6_wait(&r->q6);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    goto off; // expected-note{{Control jumps to line 194}}
  return 0;
off:
  rproc_pds_off(r, r->pds, r->pd_count);
  return ret; // LEAK: the body only disables runtime PM expected-warning{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'r->pds[0]' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}
