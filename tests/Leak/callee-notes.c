// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify %s

/* refcount.Leak path notes: a function of this TU the leaked reference was
 * given to, inlined on the path, keeps its notes when it has an early
 * return, so a leak whose hand-over the callee skipped shows the branch
 * that skipped it (drivers/gpu/drm/omapdrm/dss/base.c
 * omapdss_walk_device(): called again with `pn`, it returns at
 * `if (ret < 0)` before storing `pn` into its list; issue 21). The twin
 * stores on every path: no report. */

struct device_node *remembered[4];

static void remember(struct device_node *np, int slot) {
  if (slot >= 4) // expected-note{{Assuming 'slot' is >= 4}} expected-note{{Taking true branch}}
    return;
  remembered[slot] = np;
}

static void remember_first(struct device_node *np) {
  remembered[0] = np;
}

int scan_child(struct device_node *parent, int slot) {
  struct device_node *np = of_get_child_by_name(parent, "port"); // expected-note{{The call to of_get_child_by_name() returns a counted reference (+1): 'np' must be released}}
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  remember(np, slot); // expected-note{{Calling 'remember'}} expected-note{{Returning from 'remember'}}
  return 0; // expected-warning{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_get_child_by_name() is not released on this path (missing of_node_put())}}
}

int scan_child_first(struct device_node *parent) {
  struct device_node *np = of_get_child_by_name(parent, "port");
  if (!np)
    return -ENODEV;
  remember_first(np);
  return 0; // no-warning
}
