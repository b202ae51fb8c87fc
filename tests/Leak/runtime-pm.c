// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: the runtime-PM usage count. pm_runtime_get_sync() and
 * pm_runtime_get() take it even when they fail, pm_runtime_resume_and_get()
 * only when it returns 0 (it never returns a positive value). A wrapper that
 * returns the get's own status (-EINPROGRESS included), a get in probe() or
 * in a list walk, a get owned by a bit (test_and_set_bit()), a guard tested
 * again after a call, and a power cycle (a put of the caller's count, then
 * a get) are not leaks.
 * #N in a comment: run-1 report N of docs/validation-lifetime.md. */

int setup(void);

int pm_get_sync_error(struct device *dev) {
  int ret = pm_runtime_get_sync(dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: usage count taken even on failure // // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  ret = setup();
  pm_runtime_put(dev);
  return ret;
}

int pm_get_sync_later_error(struct platform_device *pdev) {
  int ret;
  pm_runtime_get_sync(&pdev->dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of '&pdev->dev', even when it fails}}
  ret = setup();
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // // expected-warning{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  pm_runtime_put(&pdev->dev);
  return 0;
}

int pm_resume_and_get_later_error(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  pm_runtime_put_autosuspend(dev);
  return 0;
}

int pm_get_sync_ok(struct device *dev) {
  int ret = pm_runtime_get_sync(dev);
  if (ret < 0) {
    pm_runtime_put_noidle(dev);
    return ret; // no-warning
  }
  pm_runtime_put(dev);
  return 0;
}

int pm_resume_and_get_fail(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret; // no-warning: nothing taken on failure
  pm_runtime_put(dev);
  return 0;
}

int pm_get_in_probe(struct platform_device *pdev) {
  pm_runtime_enable(&pdev->dev);
  pm_runtime_get_sync(&pdev->dev);
  dev_info(&pdev->dev, "probed");
  return 0; // no-warning: put in remove()
}

int pm_get_wrapper(struct device *dev) {
  return pm_runtime_get_sync(dev); // no-warning: the caller gets the contract
}

struct link { struct list_head node; struct device *supplier; };

int list_walk_pm(struct list_head *head) {
  struct link *l;
  list_for_each_entry(l, head, node)
    if (pm_runtime_get_sync(l->supplier) < 0)
      return -EIO; // no-warning: put by a later walk (rpm_put_suppliers)
  return 0;
}

/* Rule given-vote-own: a vote an inlined callee takes on what its caller
 * gave it is the callee's to drop, even when the caller walked a list to
 * find it (tegra_client_open() from tegra_open_channel(), Linux 6.12). */
struct client { struct list_head list; struct device *dev; int class; };
static int client_open_bad(struct client *client) {
  int err = pm_runtime_resume_and_get(client->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'client->dev': it succeeded}}
  if (err) // expected-note{{'err' is 0}} expected-note{{Taking false branch}}
    return err;
  if (setup() < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // expected-note{{client_open_bad() returns an error here without dropping the count it took on 'client->dev'}}
  return 0;
}
int open_walk_bad(struct list_head *clients, int class) {
  struct client *client;
  list_for_each_entry(client, clients, list) // expected-note{{Entering loop body}}
    if (client->class == class) // expected-note{{Assuming}} expected-note{{Taking true branch}}
      return client_open_bad(client); // expected-note{{Calling 'client_open_bad'}} expected-note{{Returning from 'client_open_bad'}} expected-warning{{The runtime-PM usage count of 'client->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'client->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return -ENODEV;
}
static int client_open_ok(struct client *client) {
  int err = pm_runtime_resume_and_get(client->dev);
  if (err)
    return err;
  if (setup() < 0) {
    pm_runtime_put(client->dev);
    return -EIO; // no-warning: the callee drops its own vote
  }
  return 0;
}
int open_walk_ok(struct list_head *clients, int class) {
  struct client *client;
  list_for_each_entry(client, clients, list)
    if (client->class == class)
      return client_open_ok(client); // no-warning: kept open until close
  return -ENODEV;
}

/* #19 */
struct hub { unsigned long bits[1]; struct device *port; };
int port_resume_ok(struct hub *hub, int port1) {
  struct device *port = hub->port;
  if (!test_and_set_bit(port1, hub->bits)) {
    int status = pm_runtime_resume_and_get(port);
    if (status < 0)
      return status;
  }
  if (setup())
    return -EIO; // no-warning
  return 0;
}
int port_resume_bad(struct hub *hub, int port1) {
  struct device *port = hub->port;
  if (!test_bit(port1, hub->bits)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    int status = pm_runtime_resume_and_get(port); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'port': it succeeded}}
    if (status < 0) // expected-note{{'status' is >= 0}} expected-note{{Taking false branch}}
      return status;
  }
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{The runtime-PM usage count of 'port' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'port' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return 0;
}

/* #23 */
int flagged_ok(struct i2c_client *client, struct device *adap) {
  int status;
  if (client->flags & 1)
    pm_runtime_get_sync(adap);
  status = i2c_client_setup(client);
  if (status < 0)
    goto out;
  return 0;
out:
  if (client->flags & 1)
    pm_runtime_put_sync(adap);
  return status; // no-warning
}
int flagged_bad(struct i2c_client *client, struct device *adap) {
  int status;
  if (client->flags & 1) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    pm_runtime_get_sync(adap); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'adap', even when it fails}}
  status = i2c_client_setup(client);
  if (status < 0) // expected-note{{Assuming 'status' is < 0}} expected-note{{Taking true branch}}
    goto out; // expected-note{{Control jumps to line 168}}
  return 0;
out:
  if (client->flags & 2) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    pm_runtime_put_sync(adap);
  return status; // LEAK // expected-warning{{The runtime-PM usage count of 'adap' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'adap' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
}

/* pm_runtime_resume_and_get() returns 0 or a negative errno, never a
 * positive value (drivers/memory/renesas-rpc-if.c rpcif_hw_init()). */
int hw_xfer(struct device *dev);
void hw_setup(struct device *dev);

static int hw_reinit(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret)
    return ret;
  hw_setup(dev);
  pm_runtime_put(dev);
  return 0;
}

int xfer_reinit_ok(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret;
  ret = hw_xfer(dev);
  if (ret < 0)
    hw_reinit(dev);
  pm_runtime_put(dev);
  return ret; // no-warning
}

static int hw_reinit_leaky(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  hw_setup(dev);
  return 0;
}

int xfer_reinit_bad(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = hw_xfer(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    hw_reinit_leaky(dev); // expected-note{{Calling 'hw_reinit_leaky'}} expected-note{{Returning from 'hw_reinit_leaky'}}
  pm_runtime_put(dev); // expected-note{{Reference to 'dev' released by pm_runtime_put()}}
  return ret; // LEAK // // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
}

/* A wrapper that returns the get's own status passes the count that goes
 * with it to its caller (drivers/phy/phy-core.c phy_pm_runtime_get():
 * -EINPROGRESS still holds the count). */
int pm_get_forward_ok(struct device *dev) {
  int ret = pm_runtime_get(dev);
  if (ret < 0 && ret != -EINPROGRESS)
    pm_runtime_put_noidle(dev);
  return ret; // no-warning: the caller gets pm_runtime_get()'s own status
}

int pm_get_forward_bad(struct device *dev) {
  int ret = pm_runtime_get(dev); // expected-note{{The call to pm_runtime_get() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0 && ret != -EINPROGRESS) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Left side of '&&' is true}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get() is not dropped on this error path (missing pm_runtime_put_noidle())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get() is not dropped on this error path (missing pm_runtime_put_noidle())}}
  return ret;
}

/* A put of the caller's runtime-PM count and a later get give it back
 * (drivers/pci/controller/cadence/pci-j721e.c j721e_pcie_ctrl_init(): the
 * controller is power-cycled to latch its strap settings; the caller's error
 * label drops the count). */
int pm_cycle_ok(struct device *dev) {
  int ret = pm_runtime_put_sync(dev);
  if (ret < 0)
    return ret;
  ret = setup();
  if (ret)
    dev_err(dev, "setup: %d\n", ret);
  if (ret < 0)
    return ret;
  ret = pm_runtime_get_sync(dev);
  if (ret < 0)
    return ret; // no-warning: the get gives back the count the put dropped
  return 0;
}

int pm_cycle_get_bad(struct device *dev, struct device *phy) {
  int ret = pm_runtime_put_sync(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(dev);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(phy); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'phy', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: 'phy' was never put // expected-warning{{The runtime-PM usage count of 'phy' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'phy' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  return 0;
}

int pm_cycle_other_bad(struct device *dev, struct device *phy) {
  int ret = pm_runtime_put_sync(phy);
  if (ret < 0) // expected-note{{Assuming 'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_get_sync(dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'dev', even when it fails}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: 'dev' was not the device put above // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  return 0;
}

/* The missing put is in a helper's error return: the report, at the
 * caller's return, has a note inside the helper where the put is missing. */
static int helper_power_on(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = setup();
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // expected-note{{helper_power_on() returns an error here without dropping the count it took on 'dev'}}
  return 0;
}

int probe_with_power_helper(struct platform_device *pdev) {
  int ret = helper_power_on(&pdev->dev); // expected-note{{Calling 'helper_power_on'}} expected-note{{Returning from 'helper_power_on'}}
  if (ret < 0) // expected-note{{'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  pm_runtime_put(&pdev->dev);
  return 0;
}

static int helper_power_on_ok(struct device *dev) {
  int ret = pm_runtime_resume_and_get(dev);
  if (ret < 0)
    return ret;
  ret = setup();
  if (ret < 0) {
    pm_runtime_put(dev);
    return ret;
  }
  return 0;
}

int probe_with_power_helper_ok(struct platform_device *pdev) {
  int ret = helper_power_on_ok(&pdev->dev);
  if (ret < 0)
    return ret; // no-warning: the helper undid its get
  pm_runtime_put(&pdev->dev);
  return 0;
}


/* intel_th_alloc(): the alloc function gives up the bus core's usage count
 * (pm_runtime_put(dev)) after storing dev in the object; on a later error
 * its free helper takes it back through th->dev, read again after a call
 * that may have changed *th. The field holds the same device (rule
 * field-copy-identity), so the get gives the count back (power-cycle). */
struct thx { struct device *dev; int n; };
int th_populate(struct thx *th);
static void th_free(struct thx *th) {
  pm_runtime_get_sync(th->dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'th->dev', even when it fails}}
  kfree(th);
}
struct thx *th_alloc(struct device *dev) {
  struct thx *th = kzalloc(sizeof(*th), GFP_KERNEL);
  int err;
  if (!th)
    return ERR_PTR(-ENOMEM);
  th->dev = dev;
  pm_runtime_put(dev);
  err = th_populate(th);
  if (err) {
    th_free(th);
    return ERR_PTR(err); // no-warning
  }
  return th;
}
/* The PCI driver pattern around the PM core's balanced vote: probe drops
 * the bus core's count and allows runtime PM; its error path forbids it
 * again and takes the count back (intel_th_alloc()/intel_th_free(), most
 * PCI probes). pm_runtime_allow()/pm_runtime_forbid() keep nothing of the
 * device (keeps-nothing rows): the put before them is still given back. */
int pci_rpm_probe(struct pci_dev *pdev) {
  int ret;
  pm_runtime_put_noidle(&pdev->dev);
  pm_runtime_allow(&pdev->dev);
  ret = setup();
  if (ret) {
    pm_runtime_forbid(&pdev->dev);
    pm_runtime_get_noresume(&pdev->dev);
    return ret; // no-warning: the bus core's count is given back
  }
  return 0;
}
/* The same error path in a probe that never dropped the count. */
int pci_rpm_probe_bad(struct pci_dev *pdev) {
  int ret;
  pm_runtime_allow(&pdev->dev);
  ret = setup();
  if (ret) { // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    pm_runtime_forbid(&pdev->dev);
    pm_runtime_get_noresume(&pdev->dev); // expected-note{{The call to pm_runtime_get_noresume() takes a runtime-PM usage count of '&pdev->dev'}}
    return ret; // LEAK expected-note{{Returning the nonzero status of setup(): a failure, by the kernel's 0-or-errno convention}} expected-warning{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_noresume() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of '&pdev->dev' taken by pm_runtime_get_noresume() is not dropped on this error path (missing pm_runtime_put())}}
  }
  return 0;
}
/* the same free helper on a path that never gave the count up */
struct thx *th_alloc_no_put(struct device *dev) {
  struct thx *th = kzalloc(sizeof(*th), GFP_KERNEL);
  int err;
  if (!th) // expected-note{{Assuming 'th' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-ENOMEM);
  th->dev = dev;
  err = th_populate(th);
  if (err) { // expected-note{{Assuming 'err' is not equal to 0}} expected-note{{Taking true branch}}
    th_free(th); // expected-note{{Calling 'th_free'}} expected-note{{Returning from 'th_free'}}
    return ERR_PTR(err); // LEAK expected-warning{{The runtime-PM usage count of 'th->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'th->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  }
  return th;
}
