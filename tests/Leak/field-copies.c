// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=field-copy-identity
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=field-copy-identity

/* refcount.Leak, rule field-copy-identity: a held object stored into a field
 * (`md->port = port`, the body of dev_set_drvdata()) is the object a later
 * reload of that field names, also as the start of a field path: the
 * `port->dev.parent` a reset action reads through the reloaded field is the
 * `port->dev.parent` the function took a count on
 * (drivers/cxl/core/port.c cxl_endpoint_autoremove(): the counts on the
 * host and on the endpoint are put by delete_endpoint(), which
 * devm_add_action_or_reset() runs at once when it fails). With the rule off
 * (prefix off) the put is not matched and the failure path reports. The
 * same holds for a copy of the pointer a held object was read out of
 * (`m->cli = c` after get_device(&c->client->dev)). */

struct port { struct device dev; };
struct memdev { struct device dev; struct port *port; };
int add_action(struct device *dev, void (*action)(void *), void *data);

static void delete_port(void *data) {
  struct memdev *md = data;
  struct port *p = md->port;
  struct device *host = p->dev.parent;

  put_device(&p->dev); // off-note{{The call to put_device() puts '&p->dev', not 'host': '&p->dev' here was read again after a call that may have changed it}}
  put_device(host); // off-note{{The call to put_device() puts 'host' read again after a call, which the path cannot tell is the object it took the count on}}
}

static void delete_port_only(void *data) {
  struct memdev *md = data;
  struct port *p = md->port;

  put_device(&p->dev); // off-note{{The call to put_device() puts '&p->dev', not 'host': '&p->dev' here was read again after a call that may have changed it}}
}

static int add_action_or_reset(struct device *dev, void (*action)(void *),
                               void *data) {
  int ret = add_action(dev, action, data);
  if (ret) // off-note 2 {{Assuming 'ret' is not equal to 0}} off-note 2 {{Taking true branch}}
    action(data); // off-note{{Calling 'delete_port'}} off-note{{Returning from 'delete_port'}} off-note{{Calling 'delete_port_only'}} off-note{{Returning from 'delete_port_only'}}
  return ret;
}

int port_autoremove_ok(struct memdev *md, struct port *p) {
  struct device *host = p->dev.parent;

  get_device(host); // off-note{{Reference to 'host' taken by get_device()}}
  get_device(&p->dev);
  md->port = p;
  return add_action_or_reset(&md->dev, delete_port, md); // off-note{{Calling 'add_action_or_reset'}} off-note{{Returning from 'add_action_or_reset'}} off-note{{Returning the nonzero status of add_action(): a failure, by the kernel's 0-or-errno convention}} off-warning{{Reference to 'host' taken by get_device() is not released on this error path (missing put_device())}} off-note{{Reference to 'host' taken by get_device() is not released on this error path (missing put_device())}}
}

int port_autoremove_bad(struct memdev *md, struct port *p) {
  struct device *host = p->dev.parent;

  get_device(host); // expected-note{{Reference to 'host' taken by get_device()}}
  get_device(&p->dev);
  md->port = p;
  return add_action_or_reset(&md->dev, delete_port_only, md); // off-note{{Calling 'add_action_or_reset'}} off-note{{Returning from 'add_action_or_reset'}} expected-note{{Returning the nonzero status of add_action(): a failure, by the kernel's 0-or-errno convention}} expected-warning{{Reference to 'host' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'host' taken by get_device() is not released on this error path (missing put_device())}}
}

/* The pointer the held object was read out of, stored into a field: a
 * later `c = m->cli; put_device(&c->client->dev)` reads the held object
 * again through the copy (drivers/net/mctp/mctp-i2c.c: get_device(
 * &mcli->client->dev); midev->client = mcli; mctp_i2c_midev_free() puts
 * it through midev->client; held-out set 13). */
struct i2c_cl { struct device dev; };
struct cli { struct i2c_cl *client; int sel; };
struct mdev { struct cli *cli; int busy; };
void stop_mdev(struct mdev *m);
int setup_mdev(struct mdev *m);

static void mdev_free(struct mdev *m) {
  struct cli *c = m->cli;
  stop_mdev(m);
  put_device(&c->client->dev); // off-note{{The call to put_device() puts '&c->client->dev' read again after a call, which the path cannot tell is the object it took the count on}}
}

static void mdev_free_other(struct mdev *m, struct cli *other) {
  stop_mdev(m);
  put_device(&other->client->dev); // expected-note{{The call to put_device() puts '&other->client->dev', not '&c->client->dev'}}
}

int mdev_init_ok(struct mdev *m, struct cli *c) {
  get_device(&c->client->dev); // off-note{{Reference to '&c->client->dev' taken by get_device()}}
  m->cli = c;
  stop_mdev(m);
  if (setup_mdev(m)) { // off-note{{Assuming the condition is true}} off-note{{Taking true branch}}
    mdev_free(m); // off-note{{Calling 'mdev_free'}} off-note{{Returning from 'mdev_free'}}
    return -EIO; // no-warning off-warning{{Reference to '&c->client->dev' taken by get_device() is not released on this error path (missing put_device())}} off-note{{Reference to '&c->client->dev' taken by get_device() is not released on this error path (missing put_device())}}
  }
  return 0;
}

int mdev_init_bad(struct mdev *m, struct cli *c, struct cli *other) {
  get_device(&c->client->dev); // expected-note{{Reference to '&c->client->dev' taken by get_device()}}
  m->cli = c;
  stop_mdev(m);
  if (setup_mdev(m)) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    mdev_free_other(m, other); // expected-note{{Calling 'mdev_free_other'}} expected-note{{Returning from 'mdev_free_other'}}
    return -EIO; // LEAK expected-warning{{Reference to '&c->client->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to '&c->client->dev' taken by get_device() is not released on this error path (missing put_device())}}
  }
  return 0;
}
