// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: other views of a held object. The result of a conversion
 * that takes the reference (i2c_verify_adapter()) is the same object:
 * returning it or putting through it hands the reference over; a call that
 * returns another object (a new client) does not. A held device's driver
 * data is the handle a get function gives out: returning it, handing it to
 * devm_add_action_or_reset(), or putting the handle's dev pointer releases
 * the device.
 * #N in a comment: run-1 report N of docs/validation-lifetime.md. */

int use(void *p);

/* #22 (the notes are those of new_client() below, which inlines this) */
struct i2c_adapter *adapter_ok(struct bus_type *bus, void *h) {
  struct device *dev = bus_find_device(bus, NULL, h, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  struct i2c_adapter *adapter;
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  adapter = i2c_verify_adapter(dev);
  if (!adapter) // expected-note{{Assuming 'adapter' is non-null}} expected-note{{Taking false branch}}
    put_device(dev);
  return adapter; // no-warning
}

int adapter_nr(struct bus_type *bus, void *h) {
  struct device *dev = bus_find_device(bus, NULL, h, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'dev' must be released}}
  struct i2c_adapter *adapter;
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  adapter = i2c_verify_adapter(dev);
  if (!adapter) { // expected-note{{Assuming 'adapter' is non-null}} expected-note{{Taking false branch}}
    put_device(dev);
    return -EINVAL;
  }
  return adapter->nr; // LEAK expected-warning{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}}
}

/* The caller of a converting lookup puts through the converted pointer
 * (drivers/i2c/i2c-core-acpi.c i2c_acpi_notify); a call that takes the
 * adapter and returns another object (a new client) hands nothing over. */
struct i2c_client *i2c_new_client_device(struct i2c_adapter *adap, void *info);

int notify_add(struct bus_type *bus, void *h) {
  struct i2c_adapter *adapter = adapter_ok(bus, h);
  if (!adapter)
    return 0;
  use(adapter);
  put_device(&adapter->dev);
  return 0; // no-warning
}

struct i2c_client *new_client(struct bus_type *bus, void *h) {
  struct i2c_adapter *adapter = adapter_ok(bus, h); // expected-note{{Calling 'adapter_ok'}} expected-note{{Returning from 'adapter_ok'}}
  if (!adapter) // expected-note{{'adapter' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-EPROBE_DEFER);
  return i2c_new_client_device(adapter, NULL); // LEAK expected-warning{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}} expected-note{{Reference to 'dev' acquired by bus_find_device() is not released on this path (missing put_device())}}
}

/* The driver data of a held device is the handle a "get" function gives
 * out; its "put" drops the device through it (drivers/soc/qcom/qcom_aoss.c
 * qmp_get()/qmp_put(), drivers/memory/tegra/mc.c). */
struct qmp_handle { struct device *dev; int ready; };
void handle_put_action(void *data);

struct qmp_handle *handle_get_ok(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  struct qmp_handle *qmp;
  if (!pdev)
    return ERR_PTR(-ENODEV);
  qmp = platform_get_drvdata(pdev);
  if (!qmp) {
    put_device(&pdev->dev);
    return ERR_PTR(-EPROBE_DEFER);
  }
  return qmp; // no-warning: handed over with the handle
}

struct qmp_handle *handle_devm_ok(struct device *dev, struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np);
  struct qmp_handle *qmp;
  int err;
  if (!pdev)
    return ERR_PTR(-ENODEV);
  qmp = platform_get_drvdata(pdev);
  if (!qmp) {
    put_device(&pdev->dev);
    return ERR_PTR(-EPROBE_DEFER);
  }
  err = devm_add_action_or_reset(dev, handle_put_action, qmp);
  if (err)
    return ERR_PTR(err); // no-warning: the action (run on failure too) puts it
  return qmp;
}

int handle_not_returned(struct device_node *np) {
  struct platform_device *pdev = of_find_device_by_node(np); // expected-note{{The call to of_find_device_by_node() returns a counted reference (+1): 'pdev' must be released}}
  struct qmp_handle *qmp;
  if (!pdev) // expected-note{{Assuming 'pdev' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  qmp = platform_get_drvdata(pdev);
  if (!qmp) { // expected-note{{Assuming 'qmp' is non-null}} expected-note{{Taking false branch}}
    put_device(&pdev->dev);
    return -EPROBE_DEFER;
  }
  return qmp->ready; // LEAK // expected-warning{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}} expected-note{{Reference to 'pdev' acquired by of_find_device_by_node() is not released on this path (missing put_device())}}
}

/* The handle's `dev` pointer is the device it was taken from: putting it
 * drops the reference (drivers/leds/led-class.c of_led_get()). */
struct led_like { struct device *dev; int busy; };

struct led_like *led_get_ok(struct class *cls, struct device_node *np) {
  struct device *led_dev = class_find_device_by_of_node(cls, np);
  struct led_like *led;
  if (!led_dev)
    return ERR_PTR(-EPROBE_DEFER);
  led = dev_get_drvdata(led_dev);
  if (led->busy) {
    put_device(led->dev);
    return ERR_PTR(-EBUSY); // no-warning: put through the handle
  }
  return led;
}

struct led_like *led_get_bad(struct class *cls, struct device_node *np) {
  struct device *led_dev = class_find_device_by_of_node(cls, np); // expected-note{{The call to class_find_device_by_of_node() returns a counted reference (+1): 'led_dev' must be released}}
  struct led_like *led;
  if (!led_dev) // expected-note{{Assuming 'led_dev' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-EPROBE_DEFER);
  led = dev_get_drvdata(led_dev);
  if (led->busy) // expected-note{{Assuming field 'busy' is not equal to 0}} expected-note{{Taking true branch}}
    return ERR_PTR(-EBUSY); // LEAK // expected-warning{{Reference to 'led_dev' acquired by class_find_device_by_of_node() is not released on this path (missing put_device())}} expected-note{{Reference to 'led_dev' acquired by class_find_device_by_of_node() is not released on this path (missing put_device())}}
  return led;
}
