// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=handle-dev-field
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=handle-dev-field

/* refcount.Leak, rule handle-dev-field: a `dev` field of the held object's
 * own type, read out of a private area inside the object's allocation
 * (netdev_priv(dev), inlined: `(char *)dev + ALIGN(...)`), is the object's
 * back pointer, so `dev_put(wg->dev)` puts the device the lookup found
 * (drivers/net/wireguard/netlink.c wg_set_device() and lookup_interface();
 * reported with the rule off, `off`). Reported in both modes: a return
 * before the put. */

struct wg_priv { struct net_device *dev; int gen; };

static inline void *priv_of(struct net_device *dev) { return (char *)dev + 64; }

static struct wg_priv *lookup_priv(struct net *net) {
  struct net_device *dev = dev_get_by_name(net, "wg0"); // expected-note{{The call to dev_get_by_name() returns a counted reference (+1): 'dev' must be released}} off-note{{The call to dev_get_by_name() returns a counted reference (+1): 'dev' must be released}}
  if (!dev) // expected-note{{Assuming 'dev' is non-null}} expected-note{{Taking false branch}} off-note{{Assuming 'dev' is non-null}} off-note{{Taking false branch}}
    return ERR_PTR(-ENODEV);
  return priv_of(dev);
}

int set_device_ok(struct net *net) {
  struct wg_priv *wg = lookup_priv(net); // off-note{{Calling 'lookup_priv'}} off-note{{Returning from 'lookup_priv'}}
  if (IS_ERR(wg)) // off-note{{Taking false branch}}
    return PTR_ERR(wg);
  wg->gen++;
  dev_put(wg->dev); // off-warning{{Reference to 'dev' acquired by dev_get_by_name() is not released on this path (missing dev_put())}} off-note{{Reference to 'dev' acquired by dev_get_by_name() is not released on this path (missing dev_put())}}
  return 0; // no-warning: wg->dev is the device lookup_priv() found
}

int set_device_bad(struct net *net) {
  struct wg_priv *wg = lookup_priv(net); // expected-note{{Calling 'lookup_priv'}} expected-note{{Returning from 'lookup_priv'}}
  if (IS_ERR(wg)) // expected-note{{Taking false branch}}
    return PTR_ERR(wg);
  if (wg->gen) // expected-note{{Assuming field 'gen' is not equal to 0}} expected-note{{Taking true branch}}
    return -EBUSY; // LEAK: before the put expected-warning{{Reference to 'dev' acquired by dev_get_by_name() is not released on this path (missing dev_put())}} expected-note{{Reference to 'dev' acquired by dev_get_by_name() is not released on this path (missing dev_put())}}
  dev_put(wg->dev);
  return 0;
}
