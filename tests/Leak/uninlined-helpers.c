// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,dflt,%vprefix %s -analyzer-config max-inlinable-size=8
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,dflt,%vprefix %s -analyzer-config max-inlinable-size=8
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,norule,%vprefix %s -analyzer-config max-inlinable-size=8 -analyzer-config refcount:DisableRules=uninlined-body-puts
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,norule,%vprefix %s -analyzer-config max-inlinable-size=8 -analyzer-config refcount:DisableRules=uninlined-body-puts

/* refcount.Leak: calls to functions of this translation unit that the
 * analyzer does not inline. Its budgets (here: no function of more than 8 CFG
 * blocks is inlined; in a kernel TU: a helper with dev_err() in it, after 32
 * inlinings) make such a call opaque although its body is here. Rule
 * uninlined-body-puts: if the body puts a count of the held count's family,
 * and the call can reach the object (given it, given the structure it was
 * read out of, or given what a same-result getter found it with), the count
 * may have been dropped and is not reported. Twins: a body that puts
 * nothing, or another family, or is not given the object, still leaks.
 * With the rule off (prefix norule) the no-warning cases report. */


struct bar_data {
  struct regmap *regmap;
  struct device *dev;
  struct device_node *np;
  int mode;
};

/* Large enough not to be inlined with the RUN lines' budget. */
static int bar_set_power_state(struct bar_data *data, int on) {
  struct device *dev = regmap_get_device(data->regmap);
  int ret;
  if (on)
    ret = pm_runtime_resume_and_get(dev);
  else
    ret = pm_runtime_put_autosuspend(dev);
  if (ret < 0) {
    if (data->mode == 1)
      dev_err(dev, "power %d", on);
    else if (data->mode == 2)
      dev_err(dev, "power! %d", on);
    return ret;
  }
  return 0;
}

/* The same size, but it only logs. */
static int bar_log_state(struct bar_data *data, int on) {
  struct device *dev = regmap_get_device(data->regmap);
  if (data->mode == 1)
    dev_err(dev, "state %d", on);
  else if (data->mode == 2)
    dev_err(dev, "state! %d", on);
  else if (data->mode == 3)
    dev_err(dev, "state!! %d", on);
  return 0;
}

/* The same size, but it puts a device-node count. */
static int bar_check_node(struct bar_data *data) {
  if (data->mode == 1)
    of_node_put(data->np);
  else if (data->mode == 2)
    dev_err(data->dev, "mode 2");
  else if (data->mode == 3)
    dev_err(data->dev, "mode 3");
  return 0;
}

/* A put of the device, given the device itself. */
static void bar_idle_dev(struct device *dev, int mode) {
  if (mode == 1)
    pm_runtime_put(dev);
  else if (mode == 2)
    pm_runtime_put_noidle(dev);
  else if (mode == 3)
    dev_err(dev, "mode 3");
  else if (mode == 4)
    dev_err(dev, "mode 4");
  else if (mode == 5)
    dev_err(dev, "mode 5");
}

int bar_read(struct bar_data *data, unsigned int *val) {
  struct device *dev = regmap_get_device(data->regmap);
  int ret = pm_runtime_resume_and_get(dev); // norule-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // norule-note{{'ret' is >= 0}} norule-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) { // norule-note{{Assuming 'ret' is < 0}} norule-note{{Taking true branch}}
    bar_set_power_state(data, 0);
    return ret; // dflt-no-warning: the helper puts what regmap_get_device() finds // norule-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} norule-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  return bar_set_power_state(data, 0);
}

int bar_read_logs(struct bar_data *data, unsigned int *val) {
  struct device *dev = regmap_get_device(data->regmap);
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) { // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    bar_log_state(data, 0);
    return ret; // LEAK: the helper puts nothing // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  return bar_set_power_state(data, 0);
}

int bar_read_other_family(struct bar_data *data, unsigned int *val) {
  struct device *dev = regmap_get_device(data->regmap);
  int ret = pm_runtime_resume_and_get(dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) { // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    bar_check_node(data);
    return ret; // LEAK: the helper puts a node, not a runtime-PM count // expected-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  return bar_set_power_state(data, 0);
}

int bar_field_dev(struct bar_data *data, unsigned int *val) {
  int ret = pm_runtime_resume_and_get(data->dev); // norule-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'data->dev': it succeeded}}
  if (ret < 0) // norule-note{{'ret' is >= 0}} norule-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) { // norule-note{{Assuming 'ret' is < 0}} norule-note{{Taking true branch}}
    bar_idle_dev(data->dev, data->mode);
    return ret; // dflt-no-warning: given the device // norule-warning{{The runtime-PM usage count of 'data->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} norule-note{{The runtime-PM usage count of 'data->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  pm_runtime_put(data->dev);
  return 0;
}

int bar_other_device(struct bar_data *data, struct device *other,
                     unsigned int *val) {
  int ret = pm_runtime_resume_and_get(data->dev); // expected-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'data->dev': it succeeded}}
  if (ret < 0) // expected-note{{'ret' is >= 0}} expected-note{{Taking false branch}}
    return ret;
  ret = regmap_read(data->regmap, 0x10, val);
  if (ret < 0) { // expected-note{{Assuming 'ret' is < 0}} expected-note{{Taking true branch}}
    bar_idle_dev(other, data->mode);
    return ret; // LEAK: the helper is given another device // expected-warning{{The runtime-PM usage count of 'data->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} expected-note{{The runtime-PM usage count of 'data->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  }
  pm_runtime_put(data->dev);
  return 0;
}
