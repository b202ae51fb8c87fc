// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: what counts as a use of the pointer after the last
 * put: a get is one; comparing it, testing it for NULL or IS_ERR() is not. */

int get_after_last_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x"); // expected-note{{The call to of_find_node_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return 0;
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  of_node_get(np); // UAP // expected-warning{{'np' is passed to of_node_get() after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{'np' is passed to of_node_get() after of_node_put() released the last reference this path held; the object may already be freed}}
  return 0;
}

int compare_after_put(struct device_node *other) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_put(np);
  return np == other; // no-warning: pointer comparison
}

int null_check_after_put(void) {
  struct device_node *np = of_find_node_by_name(NULL, "x");
  of_node_put(np);
  return np ? 0 : -ENODEV; // no-warning
}

int is_err_after_put(struct dentry *base) {
  struct dentry *d = lookup_one_len("x", base, 1);
  if (IS_ERR(d))
    return PTR_ERR(d);
  dput(d);
  return IS_ERR(d); // no-warning
}

/* A function that only compares and stores the pointer (a value-only row:
 * the CEC notifier keys its connectors by the HDMI device's address,
 * drivers/media/cec/i2c/ch7322.c ch7322_get_port() puts the device it found
 * and returns it for cec_notifier_cec_adap_register()). */
struct cec_adapter;
struct cec_notifier;
struct cec_notifier *cec_notifier_cec_adap_register(struct device *hdmi_dev, const char *port_name, struct cec_adapter *adap);
int cec_dev_attach(struct device *hdmi_dev, struct cec_adapter *adap);

struct cec_notifier *notifier_key_after_put(struct cec_adapter *adap) {
  struct device *d = bus_find_device(NULL, NULL, NULL, NULL);
  if (!d)
    return NULL;
  put_device(d);
  return cec_notifier_cec_adap_register(d, "HDMI-A-1", adap); // no-warning: the address is a key
}

int attach_after_put(struct cec_adapter *adap) {
  struct device *d = bus_find_device(NULL, NULL, NULL, NULL); // expected-note{{The call to bus_find_device() returns a counted reference (+1): 'd' must be released}}
  if (!d) // expected-note{{Assuming 'd' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  put_device(d); // expected-note{{Reference to 'd' released by put_device(): this path holds no more references to it}}
  return cec_dev_attach(d, adap); // UAP expected-warning{{'d' is passed to cec_dev_attach() after put_device() released the last reference this path held; the object may already be freed}} expected-note{{'d' is passed to cec_dev_attach() after put_device() released the last reference this path held; the object may already be freed}}
}
