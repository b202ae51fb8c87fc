// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,dflt,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,dflt,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,dflt,noheld,%vprefix %s -analyzer-config refcount:DisableRules=held-field-not-null
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,dflt,noheld,%vprefix %s -analyzer-config refcount:DisableRules=held-field-not-null
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,noident,%vprefix %s -analyzer-config 'refcount:DisableRules=unknown-put-target;unknown-get-target'
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,noident,%vprefix %s -analyzer-config 'refcount:DisableRules=unknown-put-target;unknown-get-target'

/* refcount.Leak: object identity across calls the analyzer cannot see
 * into (issue 21). A getter whose contract is same-result
 * (regmap_get_device()) names the same device on every call with the same
 * map; a put on a pointer read again after an opaque call (rule
 * unknown-put-target) or a get that gives back a count the path dropped
 * (rule unknown-get-target) is matched to the one count the path cannot
 * tell it apart from. Index inserts (idr_alloc(), xa_store()) keep what
 * they store, and for_each_acpi_dev_match()'s step puts the previous
 * match. Each case has a twin that still leaks (two of them were missed
 * while rule reloaded-field forgot a get on a field a call may have
 * changed: the rule is gone, docs/validation-sweep.md section 10); with
 * rules unknown-put-target and unknown-get-target off (prefix noident) the
 * no-warning cases that need them report; with rule held-field-not-null
 * off (prefix noheld), a get through `sor->aux->dev` is lost when the code
 * reads `sor->aux` again after a call. */

int setup(void);
int configure(void *state);

struct foo_data {
  struct regmap *regmap;
  struct platform_device *pdev;
  int on;
};

/* The runtime-PM helper: the device is recomputed on each call. */
static int foo_set_power_state(struct foo_data *data, int on) {
  struct device *dev = regmap_get_device(data->regmap);
  if (on) // expected-note{{'on' is 1}} expected-note{{Taking true branch}}
    return pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  pm_runtime_mark_last_busy(dev);
  return pm_runtime_put_autosuspend(dev);
}

int foo_read_raw(struct foo_data *data, unsigned int *val) {
  int ret = foo_set_power_state(data, 1);
  if (ret < 0)
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) {
    foo_set_power_state(data, 0);
    return ret; // no-warning: the helper puts the device it got
  }
  return foo_set_power_state(data, 0);
}

int foo_read_raw_leaks(struct foo_data *data, unsigned int *val) {
  int ret = foo_set_power_state(data, 1); // expected-note{{Calling 'foo_set_power_state'}} expected-note{{Returning from 'foo_set_power_state'}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: the error path skips the helper's put // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return foo_set_power_state(data, 0);
}

/* The field is read again after a call that may have changed it. */
int foo_reread(struct foo_data *data) {
  struct device *dev = &data->pdev->dev;
  int ret = pm_runtime_resume_and_get(dev);
  if (ret)
    return ret;
  ret = configure(data);
  pm_runtime_put(&data->pdev->dev);
  return ret; // no-warning: the put is the get's, through a re-read field
}

int foo_reread_leaks(struct foo_data *data) {
  struct device *dev = &data->pdev->dev;
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  ret = configure(data);
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: no put on this path // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  pm_runtime_put(&data->pdev->dev);
  return 0;
}

/* Two counts held on devices of the same type: a put on a re-read pointer
 * cannot say whose it is, and the leak is still reported. */
int foo_two_devices(struct foo_data *data, struct device *other) {
  int ret = pm_runtime_resume_and_get(&data->pdev->dev);
  if (ret) // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    return ret;
  ret = pm_runtime_resume_and_get(other); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'other': it succeeded}}
  if (ret) { // expected-note{{'ret' is 0}} expected-note{{Taking false branch}}
    pm_runtime_put(&data->pdev->dev);
    return ret;
  }
  ret = configure(data);
  pm_runtime_put(&data->pdev->dev); // matched by its load origin: the count of &data->pdev->dev
  if (ret) // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // LEAK: 'other' is never put on this path // expected-warning{{The runtime-PM usage count of 'other' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'other' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  pm_runtime_put(other);
  return 0;
}

/* A count given back: the alloc path drops the bus core's count, and its
 * error path takes it back through a pointer read again. */
int foo_alloc(struct foo_data *data) {
  int ret;
  pm_runtime_put(&data->pdev->dev);
  ret = configure(data);
  if (ret) { // noident-note{{Assuming 'ret' is not equal to 0}} noident-note{{Taking true branch}}
    pm_runtime_get_sync(&data->pdev->dev); // noident-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of '&data->pdev->dev', even when it fails}}
    return ret; // no-warning: the caller's count given back (a nonzero status is an error: rule nonzero-status-error) // noident-note{{Returning the nonzero status of configure(): a failure, by the kernel's 0-or-errno convention}} noident-warning{{The runtime-PM usage count of '&data->pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} noident-note{{The runtime-PM usage count of '&data->pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  }
  return 0;
}

int foo_alloc_leaks(struct foo_data *data) {
  int ret = configure(data);
  if (ret) { // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    pm_runtime_get_sync(&data->pdev->dev); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of '&data->pdev->dev', even when it fails}}
    return -EIO; // LEAK: nothing was put before this get // expected-warning{{The runtime-PM usage count of '&data->pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of '&data->pdev->dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  }
  return 0;
}

/* The IDR keeps the node: the get after idr_alloc() is the index's. */
int foo_register_children(struct device_node *np, struct idr *idr) {
  struct device_node *child;
  for_each_child_of_node(np, child) {
    int id = idr_alloc(idr, child, 0, 0, 0);
    if (id < 0) {
      of_node_put(child);
      return id;
    }
    of_node_get(child); // no-warning: the IDR's reference
  }
  return 0;
}

int foo_count_children_leaks(struct device_node *np) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(np, child) { // expected-warning{{Reference to 'child' in the loop over of_get_next_child() leaks: the loop moves to the next one while this path still holds a count on it taken in the loop body (missing of_node_put())}} expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}} expected-note{{The call to of_get_next_child() puts the previous reference 'child'}} expected-note{{Reference to 'child' in the loop over of_get_next_child() leaks: the loop moves to the next one while this path still holds a count on it taken in the loop body (missing of_node_put())}}
    of_node_get(child); // expected-note{{Reference to 'child' taken by of_node_get()}}
    n++;
  } // each extra count is kept by nobody: reported at the loop's step
  return n;
}

/* The XArray keeps the reference the caller held. */
int foo_publish(struct xarray *xa, struct device_node *np) {
  struct device_node *dn = of_find_node_by_name(np, "port");
  if (!dn)
    return -ENODEV;
  xa_store(xa, 1, dn, 0);
  return 0; // no-warning: handed to the XArray
}

int foo_publish_leaks(struct xarray *xa, struct device_node *np) {
  struct device_node *dn = of_find_node_by_name(np, "port"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'dn' must be released}}
  if (!dn) // expected-note{{Assuming 'dn' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  return setup(); // LEAK: never stored, never put // expected-warning{{Reference to 'dn' acquired by of_find_node_by_name() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'dn' acquired by of_find_node_by_name() is not released on this path (missing of_node_put())}}
}

/* for_each_acpi_dev_match(): each step puts the previous match. */
int foo_count_acpi(void) {
  struct acpi_device *adev;
  int n = 0;
  for_each_acpi_dev_match(adev, "FOO0001", 0, -1)
    n++;
  return n; // no-warning: the last step returned NULL
}

int foo_first_ready_leaks(void) {
  struct acpi_device *adev;
  for_each_acpi_dev_match(adev, "FOO0001", 0, -1) // expected-note{{The call to acpi_dev_get_first_match_dev() returns a counted reference (+1): 'adev' must be released}} expected-note{{Loop condition is true.  Entering loop body}}
    if (acpi_dev_ready(adev)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return 1; // LEAK: the loop is left holding 'adev' // expected-warning{{Reference to 'adev' held by the loop over acpi_dev_get_next_match_dev() leaks: the loop is left without acpi_dev_put()}} expected-note{{Reference to 'adev' held by the loop over acpi_dev_get_next_match_dev() leaks: the loop is left without acpi_dev_put()}}
  return 0;
}


/* The same through a free helper the alloc function's error path calls,
 * both finding the device with an opaque getter that has no contract: the
 * helper takes back the count the alloc function dropped. */
struct device *foo_dev(struct foo_data *data);

static void foo_free(struct foo_data *data) {
  pm_runtime_get_sync(foo_dev(data)); // expected-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'foo_dev(data)', even when it fails}} noident-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'foo_dev(data)', even when it fails}}
  data->on = 0;
}

int foo_alloc_with_helper(struct foo_data *data) {
  int ret;
  pm_runtime_put(foo_dev(data));
  ret = configure(data);
  if (ret < 0) { // noident-note{{Assuming 'ret' is < 0}} noident-note{{Taking true branch}}
    foo_free(data); // noident-note{{Calling 'foo_free'}} noident-note{{Returning from 'foo_free'}}
    return ret; // no-warning: the helper gave the caller's count back // noident-warning{{The runtime-PM usage count of 'foo_dev(data)' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} noident-note{{The runtime-PM usage count of 'foo_dev(data)' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  }
  return 0;
}

int foo_free_without_put(struct foo_data *data) {
  int ret = configure(data);
  if (ret < 0) { // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    foo_free(data); // expected-note{{Calling 'foo_free'}} expected-note{{Returning from 'foo_free'}}
    return ret; // LEAK: the helper's get gives nothing back here // expected-warning{{The runtime-PM usage count of 'foo_dev(data)' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} expected-note{{The runtime-PM usage count of 'foo_dev(data)' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  }
  return 0;
}

/* A call given the held node returns a neighbour of it (an endpoint, a
 * child, the next element), never the node itself: code that holds the
 * node needs no call to find it. The put of that result is not the node's
 * put (audio-graph-card2.c's graph_parse_node(), whose endpoint helper is
 * given the port). */
struct device_node *foo_get_endpoint(struct device_node *port);

int foo_parse_endpoint(struct device_node *port) {
  struct device_node *ep;
  int ret;
  of_node_get(port);
  ep = foo_get_endpoint(port);
  ret = configure(ep);
  of_node_put(ep);
  of_node_put(port);
  return ret; // no-warning
}

int foo_parse_endpoint_leaks(struct device_node *port) {
  struct device_node *ep;
  int ret;
  of_node_get(port); // expected-note{{Reference to 'port' taken by of_node_get()}}
  ep = foo_get_endpoint(port);
  ret = configure(ep);
  of_node_put(ep); // expected-note{{The call to of_node_put() puts 'ep', not 'port': 'ep' here comes from foo_get_endpoint()}}
  if (ret < 0) // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    return ret; // LEAK: the endpoint's put is not the port's // expected-warning{{Reference to 'port' taken by of_node_get() is not released on this error path (missing of_node_put())}} expected-note{{Reference to 'port' taken by of_node_get() is not released on this error path (missing of_node_put())}}
  of_node_put(port);
  return 0;
}

/* A count taken through a field chain (`sor->aux->dev`) and put, after a
 * call given `sor`, under `if (sor->aux)` through the same chain read
 * again: the field is not NULL (the path took the count through it), and
 * the re-read device is the held one (rule held-field-not-null;
 * tegra_sor_probe()). */
struct foo_aux {
  struct device *dev;
};
struct foo_sor {
  struct foo_aux *aux;
  int mode;
};
struct foo_aux *foo_find_aux(struct device_node *np);

int foo_sor_probe(struct foo_sor *sor, struct device_node *np) {
  int err;
  sor->aux = foo_find_aux(np);
  if (!sor->aux) // noheld-note{{Assuming field 'aux' is non-null}} noheld-note{{Taking false branch}} noident-note{{Assuming field 'aux' is non-null}} noident-note{{Taking false branch}}
    return -EIO;
  get_device(sor->aux->dev); // noheld-note{{Reference to 'sor->aux->dev' taken by get_device()}} noident-note{{Reference to 'sor->aux->dev' taken by get_device()}}
  err = configure(sor);
  if (err < 0) // noheld-note{{Assuming 'err' is < 0}} noheld-note{{Taking true branch}} noident-note{{Assuming 'err' is < 0}} noident-note{{Taking true branch}}
    goto put_aux; // noheld-note{{Control jumps to line}} noident-note{{Control jumps to line}}
  return 0;
put_aux:
  if (sor->aux) // noheld-note{{Assuming field 'aux' is null}} noheld-note{{Taking false branch}} noident-note{{Assuming field 'aux' is non-null}} noident-note{{Taking true branch}}
    put_device(sor->aux->dev); // noident-note{{The call to put_device() puts 'sor->aux->dev' read again after a call, which the path cannot tell is the object it took the count on}}
  return err; // no-warning: the same device, through the same fields // noheld-warning{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}} noheld-note{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}} noident-warning{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}} noident-note{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}}
}

int foo_sor_probe_leaks(struct foo_sor *sor, struct device_node *np) {
  int err;
  sor->aux = foo_find_aux(np);
  if (!sor->aux) // expected-note{{Assuming field 'aux' is non-null}} expected-note{{Taking false branch}}
    return -EIO;
  get_device(sor->aux->dev); // expected-note{{Reference to 'sor->aux->dev' taken by get_device()}}
  err = configure(sor);
  if (err < 0) // expected-note{{Assuming 'err' is < 0}} expected-note{{Taking true branch}}
    return err; // LEAK: no put on this path // expected-warning{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'sor->aux->dev' taken by get_device() is not released on this error path (missing put_device())}}
  put_device(sor->aux->dev);
  return 0;
}
