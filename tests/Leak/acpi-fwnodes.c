// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: ACPI firmware nodes are not counted: the fwnode API inside
 * ACPI's own functions (acpi_*), or on a fwnode the path saw is_acpi_node()
 * accept, owes no put; the same calls on other fwnodes do. */

int use(void *p);

/* ACPI firmware nodes have no get/put ops: ACPI's own fwnode walks owe no
 * put (drivers/acpi/property.c acpi_fwnode_get_named_child_node). */
static struct fwnode_handle *acpi_named_child(const struct fwnode_handle *fw) {
  struct fwnode_handle *child;
  fwnode_for_each_child_node(fw, child) {
    if (use(child))
      return child;
  }
  return NULL;
}

int acpi_ref_args(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = acpi_named_child(fw);
  if (!ref)
    return -EINVAL;
  return 0; // no-warning
}

static struct fwnode_handle *named_child(const struct fwnode_handle *fw) {
  struct fwnode_handle *child;
  fwnode_for_each_child_node(fw, child) { // expected-note{{The call to fwnode_get_next_child_node() returns a counted reference (+1): 'child' must be released}} expected-note{{Loop condition is true.  Entering loop body}}
    if (use(child)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return child;
  }
  return NULL;
}

int ref_args(struct fwnode_handle *fw) {
  struct fwnode_handle *ref = named_child(fw); // expected-note{{Calling 'named_child'}} expected-note{{Returning from 'named_child'}}
  if (!ref) // expected-note{{'ref' is non-null}} expected-note{{Taking false branch}}
    return -EINVAL;
  return 0; // LEAK expected-warning{{Reference to 'child' held by the loop over fwnode_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}} expected-note{{Reference to 'child' held by the loop over fwnode_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}}
}

/* ACPI firmware nodes are not counted: a fwnode the path saw is_acpi_node()
 * accept owes no put (drivers/net/ethernet/marvell/mvpp2/mvpp2_main.c
 * mvpp2_use_acpi_compat_mode()). */
bool is_acpi_node(const struct fwnode_handle *fwnode);
struct fwnode_handle *fwnode_get_named_child_node(const struct fwnode_handle *fwnode, const char *childname);

bool port_acpi_compat_ok(struct fwnode_handle *port) {
  if (!is_acpi_node(port))
    return false;
  return !fwnode_get_named_child_node(port, "fixed-link"); // no-warning
}

bool port_of_compat_bad(struct fwnode_handle *port) {
  if (is_acpi_node(port)) // expected-note{{Taking false branch}}
    return false;
  return !fwnode_get_named_child_node(port, "fixed-link"); // LEAK // expected-note{{Assuming the condition is false}} expected-note{{The call to fwnode_get_named_child_node() returns a counted reference (+1): the result of fwnode_get_named_child_node() must be released}} expected-warning{{Reference to the result of fwnode_get_named_child_node() acquired by fwnode_get_named_child_node() is not released on this path (missing fwnode_handle_put())}} expected-note{{Reference to the result of fwnode_get_named_child_node() acquired by fwnode_get_named_child_node() is not released on this path (missing fwnode_handle_put())}}
}
