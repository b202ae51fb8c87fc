// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=other-list-walk
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=other-list-walk
//
// refcount.UnsafePromotion, rule other-list-walk: a channel is on its
// connection's list (`list`) and on a global list (`global_l`); the kref
// release takes it off the global list only. A plain get on a channel found
// walking the connection's list under the connection's lock is safe: the
// channel must leave that list, under that lock, before its last count is
// dropped (net/bluetooth/l2cap_core.c l2cap_security_cfm()). A walk of the
// list the release empties, or of the other list under RCU alone, is still
// reported; with the rule off (prefix off) the first walk is reported too.

struct chan {
  struct kref kref;
  struct list_head list;
  struct list_head global_l;
  int id;
};
struct conn {
  struct mutex lock;
  struct list_head chans;
};
static LIST_HEAD(chan_list);
static DEFINE_MUTEX(chan_list_lock);

static void chan_destroy(struct kref *kref) {
  struct chan *c = container_of(kref, struct chan, kref);
  mutex_lock(&chan_list_lock);
  list_del(&c->global_l); // expected-note 2 {{The release of 'struct chan::kref' takes the object off its index here, after the count reached zero}} off-note {{The release of 'struct chan::kref' takes the object off its index here, after the count reached zero}}
  mutex_unlock(&chan_list_lock);
  kfree(c);
}
void chan_put(struct chan *c) {
  kref_put(&c->kref, chan_destroy); // expected-note 2 {{The final put of 'struct chan::kref' is a bare decrement-and-test here: kref style}} off-note {{The final put of 'struct chan::kref' is a bare decrement-and-test here: kref style}}
}

struct chan *conn_find(struct conn *conn, int id) {
  struct chan *c;
  mutex_lock(&conn->lock);
  list_for_each_entry(c, &conn->chans, list) { // off-note{{Internal reference obtained from a list walk: it holds no count}} off-note{{Loop condition is true.  Entering loop body}}
    if (c->id == id) { // off-note{{Assuming 'id' is equal to field 'id'}} off-note{{Taking true branch}}
      kref_get(&c->kref); // no-warning: the channel leaves conn->chans before its last put // off-warning{{Plain kref_get() on an internal reference from a list walk}} off-note{{Plain kref_get() on an internal reference from a list walk}}
      mutex_unlock(&conn->lock);
      return c;
    }
  }
  mutex_unlock(&conn->lock);
  return 0;
}

struct chan *global_find(int id) {
  struct chan *c;
  mutex_lock(&chan_list_lock);
  list_for_each_entry(c, &chan_list, global_l) { // expected-note{{Internal reference obtained from a list walk: it holds no count}} expected-note{{Loop condition is true.  Entering loop body}}
    if (c->id == id) { // expected-note{{Assuming 'id' is equal to field 'id'}} expected-note{{Taking true branch}}
      kref_get(&c->kref); // expected-warning{{Plain kref_get() on an internal reference from a list walk}} expected-note{{Plain kref_get() on an internal reference from a list walk}}
      mutex_unlock(&chan_list_lock);
      return c;
    }
  }
  mutex_unlock(&chan_list_lock);
  return 0;
}

struct chan *conn_find_rcu(struct conn *conn, int id) {
  struct chan *c;
  rcu_read_lock();
  list_for_each_entry(c, &conn->chans, list) { // expected-note{{Internal reference obtained from a list walk: it holds no count}} expected-note{{Loop condition is true.  Entering loop body}}
    if (c->id == id) { // expected-note{{Assuming 'id' is equal to field 'id'}} expected-note{{Taking true branch}}
      kref_get(&c->kref); // expected-warning{{Plain kref_get() on an internal reference from a list walk under rcu_read_lock() only}} expected-note{{Plain kref_get() on an internal reference from a list walk under rcu_read_lock() only}}
      rcu_read_unlock();
      return c;
    }
  }
  rcu_read_unlock();
  return 0;
}
