// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify %s

/* refcount.UseAfterPut: the error message that names the object after the
 * put (a common shape of the bug), and its twin that prints before the put. */

int setup(void);

int put_before_error_message(struct device_node *dn) {
  struct device_node *remote = of_parse_phandle(dn, "remote", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'remote' must be released}}
  if (!remote) // expected-note{{Assuming 'remote' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  if (!of_device_is_available(remote)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    of_node_put(remote); // expected-note{{Reference to 'remote' released by of_node_put(): this path holds no more references to it}}
    printk("%s disabled", remote->full_name); // UAP // expected-warning{{Read through 'remote' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'remote' after of_node_put() released the last reference this path held; the object may already be freed}}
    return -ENODEV;
  }
  of_node_put(remote);
  return 0;
}

int error_path_use(struct device_node *dn) {
  struct device_node *np = of_get_child_by_name(dn, "ports"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  int ret;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  ret = setup();
  of_node_put(np); // expected-note{{Reference to 'np' released by of_node_put(): this path holds no more references to it}}
  if (ret) { // expected-note{{Assuming 'ret' is not equal to 0}} expected-note{{Taking true branch}}
    printk("%s: setup failed", np->full_name); // UAP // expected-warning{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}} expected-note{{Read through 'np' after of_node_put() released the last reference this path held; the object may already be freed}}
    return ret;
  }
  return 0;
}

int error_message_before_put(struct device_node *dn) {
  struct device_node *np = of_get_child_by_name(dn, "ports");
  int ret;
  if (!np)
    return -ENODEV;
  ret = setup();
  if (ret)
    printk("%s: setup failed", np->full_name); // no-warning: still held
  of_node_put(np);
  return ret;
}
