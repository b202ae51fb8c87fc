// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %proto -verify %s
//
// refcount.UnsafePromotion: an internal reference (found through an index)
// promoted with a plain get where the put style forbids it.

void *radix_tree_delete(struct radix_tree_root *root, unsigned long index);

/* ==== kref style: the release takes the object off the index ==== */

struct item {
  struct kref ref;
  struct list_head node;
  int id;
};
static LIST_HEAD(items);
static DEFINE_MUTEX(items_lock);

static void item_release(struct kref *ref) {
  struct item *it = container_of(ref, struct item, ref);
  mutex_lock(&items_lock);
  list_del(&it->node); // expected-note 2 {{The release of 'struct item::ref' takes the object off its index here, after the count reached zero}}
  mutex_unlock(&items_lock);
  kfree(it);
}
void item_put(struct item *it) {
  kref_put(&it->ref, item_release); // expected-note 2 {{The final put of 'struct item::ref' is a bare decrement-and-test here: kref style}}
}

struct item *item_find(int id) {
  struct item *it;
  mutex_lock(&items_lock);
  list_for_each_entry(it, &items, node) { // expected-note{{Internal reference obtained from a list walk: it holds no count}} expected-note{{Loop condition is true}}
    if (it->id == id) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a list walk}}
      mutex_unlock(&items_lock);
      return it;
    }
  }
  mutex_unlock(&items_lock);
  return NULL;
}

struct item *item_find_safe(int id) {
  struct item *it;
  mutex_lock(&items_lock);
  list_for_each_entry(it, &items, node) {
    if (it->id == id && kref_get_unless_zero(&it->ref)) {
      kref_get(&it->ref); // no-warning: the path holds a counted reference
      mutex_unlock(&items_lock);
      return it;
    }
  }
  mutex_unlock(&items_lock);
  return NULL;
}

struct item *item_first(void) {
  struct item *it;
  mutex_lock(&items_lock);
  it = list_first_entry_or_null(&items, struct item, node); // expected-note{{Internal reference obtained from a list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}}
  if (it) // expected-note{{'it' is non-null}} expected-note{{Taking true branch}}
    kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk}} expected-note{{Plain kref_get() on an internal reference from a list walk}}
  mutex_unlock(&items_lock);
  return it;
}

struct item *item_first_safe(void) {
  struct item *it;
  mutex_lock(&items_lock);
  it = list_first_entry_or_null(&items, struct item, node);
  if (it && !kref_get_unless_zero(&it->ref))
    it = NULL; // no-warning
  mutex_unlock(&items_lock);
  return it;
}

void item_get(struct item *it) {
  kref_get(&it->ref); // no-warning: an external reference (the caller's)
}

/* the object id is in an IDR; its release removes it */
struct session {
  struct kref ref;
  int id;
};
static struct idr sessions;
static DEFINE_SPINLOCK(sessions_lock);
static void session_release(struct kref *ref) {
  struct session *s = container_of(ref, struct session, ref);
  spin_lock(&sessions_lock);
  idr_remove(&sessions, s->id); // expected-note{{The release of 'struct session::ref' takes the object off its index here}}
  spin_unlock(&sessions_lock);
  kfree(s);
}
void session_put(struct session *s) {
  kref_put(&s->ref, session_release); // expected-note{{The final put of 'struct session::ref' is a bare decrement-and-test here: kref style}}
}
struct session *session_lookup(int id) {
  struct session *s;
  spin_lock(&sessions_lock);
  s = idr_find(&sessions, id); // expected-note{{Internal reference obtained from an IDR lookup (idr_find()): it holds no count}}
  if (s) // expected-note{{Assuming 's' is non-null}} expected-note{{Taking true branch}}
    kref_get(&s->ref); // expected-warning{{Plain kref_get() on an internal reference from an IDR lookup}} expected-note{{Plain kref_get() on an internal reference from an IDR lookup}}
  spin_unlock(&sessions_lock);
  return s;
}
struct session *session_lookup_safe(int id) {
  struct session *s;
  spin_lock(&sessions_lock);
  s = idr_find(&sessions, id);
  if (s && !kref_get_unless_zero(&s->ref)) // no-warning
    s = NULL;
  spin_unlock(&sessions_lock);
  return s;
}

/* refcount_t in an XArray, put with refcount_dec_and_test */
struct port {
  refcount_t users;
  unsigned long index;
};
static struct xarray ports;
void port_put(struct port *p) {
  if (refcount_dec_and_test(&p->users)) { // expected-note{{The final put of 'struct port::users' is a bare decrement-and-test here: kref style}}
    xa_erase(&ports, p->index); // expected-note{{The release of 'struct port::users' takes the object off its index here}}
    kfree(p);
  }
}
struct port *port_get(unsigned long index) {
  struct port *p = xa_load(&ports, index); // expected-note{{Internal reference obtained from an XArray lookup (xa_load())}}
  if (p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&p->users); // expected-warning{{Plain refcount_inc() on an internal reference from an XArray lookup: the final put of 'struct port::users' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use refcount_inc_not_zero() and check its result}} expected-note{{Plain refcount_inc() on an internal reference}}
  return p;
}
struct port *port_get_safe(unsigned long index) {
  struct port *p = xa_load(&ports, index);
  if (p && !refcount_inc_not_zero(&p->users)) // no-warning
    return NULL;
  return p;
}

/* atomic_t in a radix tree, put with atomic_dec_and_test */
struct page_ish {
  atomic_t count;
  unsigned long index;
};
static struct radix_tree_root pages;
void page_ish_put(struct page_ish *p) {
  if (atomic_dec_and_test(&p->count)) { // expected-note{{The final put of 'struct page_ish::count' is a bare decrement-and-test here: kref style}}
    radix_tree_delete(&pages, p->index); // expected-note{{The release of 'struct page_ish::count' takes the object off its index here}}
    kfree(p);
  }
}
struct page_ish *page_ish_lookup(unsigned long index) {
  struct page_ish *p = radix_tree_lookup(&pages, index); // expected-note{{Internal reference obtained from a radix-tree lookup (radix_tree_lookup())}}
  if (p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking true branch}}
    atomic_inc(&p->count); // expected-warning{{Plain atomic_inc() on an internal reference from a radix-tree lookup}} expected-note{{Plain atomic_inc() on an internal reference}}
  return p;
}
struct page_ish *page_ish_lookup_safe(unsigned long index) {
  struct page_ish *p = radix_tree_lookup(&pages, index);
  if (p && !atomic_inc_not_zero(&p->count)) // no-warning
    return NULL;
  return p;
}
struct page_ish *page_ish_lookup_add_unless(unsigned long index) {
  struct page_ish *p = radix_tree_lookup(&pages, index);
  if (p && !atomic_add_unless(&p->count, 1, 0)) // no-warning
    return NULL;
  return p;
}

/* rb-tree, hash list */
struct extent {
  struct kref ref;
  struct rb_node rb;
  struct hlist_node hash;
  unsigned long start;
};
static struct rb_root extents;
static struct hlist_head extent_hash;
static void extent_release(struct kref *ref) {
  struct extent *e = container_of(ref, struct extent, ref);
  rb_erase(&e->rb, &extents); // expected-note 2 {{The release of 'struct extent::ref' takes the object off its index here}}
  hlist_del(&e->hash);
  kfree(e);
}
void extent_put(struct extent *e) {
  kref_put(&e->ref, extent_release); // expected-note 2 {{The final put of 'struct extent::ref' is a bare decrement-and-test here: kref style}}
}
struct extent *extent_first(void) {
  struct rb_node *n = extents.rb_node;
  struct extent *e;
  if (!n) // expected-note{{Assuming 'n' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  e = rb_entry(n, struct extent, rb); // expected-note{{Internal reference obtained from an rb-tree walk}}
  kref_get(&e->ref); // expected-warning{{Plain kref_get() on an internal reference from an rb-tree walk}} expected-note{{Plain kref_get() on an internal reference from an rb-tree walk}}
  return e;
}
struct extent *extent_first_safe(void) {
  struct rb_node *n = extents.rb_node;
  struct extent *e;
  if (!n)
    return NULL;
  e = rb_entry(n, struct extent, rb);
  return kref_get_unless_zero(&e->ref) ? e : NULL; // no-warning
}
struct extent *extent_hash_find(unsigned long start) {
  struct extent *e;
  hlist_for_each_entry(e, &extent_hash, hash) { // expected-note{{Internal reference obtained from a hash-list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}} expected-note{{Loop condition is true}}
    if (e->start == start) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      kref_get(&e->ref); // expected-warning{{Plain kref_get() on an internal reference from a hash-list walk}} expected-note{{Plain kref_get() on an internal reference from a hash-list walk}}
      return e;
    }
  }
  return NULL;
}
struct extent *extent_hash_find_safe(unsigned long start) {
  struct extent *e;
  hlist_for_each_entry(e, &extent_hash, hash)
    if (e->start == start && kref_get_unless_zero(&e->ref)) // no-warning
      return e;
  return NULL;
}

/* ==== kref style, RCU-only lookups ==== */

struct peer {
  refcount_t refcnt;
  struct list_head list;
  int key;
};
static struct list_head peers;
static struct peer *current_peer;
void peer_put(struct peer *p) {
  if (refcount_dec_and_test(&p->refcnt)) { // expected-note 3 {{The final put of 'struct peer::refcnt' is a bare decrement-and-test here: kref style}}
    list_del_rcu(&p->list); // expected-note 3 {{The release of 'struct peer::refcnt' takes the object off its index here}}
    kfree_rcu_ptr(p);
  }
}
struct peer *peer_find_rcu(int key) {
  struct peer *p;
  rcu_read_lock();
  list_for_each_entry_rcu(p, &peers, list) { // expected-note{{Internal reference obtained from a list walk}} expected-note{{Loop condition is true}}
    if (p->key == key) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      refcount_inc(&p->refcnt); // expected-warning{{Plain refcount_inc() on an internal reference from a list walk under rcu_read_lock() only: the final put of 'struct peer::refcnt' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use refcount_inc_not_zero() and check its result}} expected-note{{Plain refcount_inc() on an internal reference from a list walk under rcu_read_lock() only}}
      rcu_read_unlock();
      return p;
    }
  }
  rcu_read_unlock();
  return NULL;
}
struct peer *peer_find_rcu_safe(int key) {
  struct peer *p;
  rcu_read_lock();
  list_for_each_entry_rcu(p, &peers, list) {
    if (p->key == key && refcount_inc_not_zero(&p->refcnt)) { // no-warning
      rcu_read_unlock();
      return p;
    }
  }
  rcu_read_unlock();
  return NULL;
}
struct peer *peer_current(void) {
  struct peer *p;
  rcu_read_lock();
  p = rcu_dereference(current_peer); // expected-note{{Internal reference obtained from an RCU-protected pointer}}
  if (p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&p->refcnt); // expected-warning{{Plain refcount_inc() on an internal reference from an RCU-protected pointer under rcu_read_lock() only}} expected-note{{Plain refcount_inc() on an internal reference from an RCU-protected pointer}}
  rcu_read_unlock();
  return p;
}
struct peer *peer_current_safe(void) {
  struct peer *p;
  rcu_read_lock();
  p = rcu_dereference(current_peer);
  if (p && !refcount_inc_not_zero(&p->refcnt)) // no-warning
    p = NULL;
  rcu_read_unlock();
  return p;
}

/* An RCU pointer in a field of an object the caller holds is that object's
   own counted reference (auth_gss.c's gss_cred_get_ctx()): not an index. */
struct peer_holder {
  struct peer *peer;
};
struct peer *holder_get_peer(struct peer_holder *h) {
  struct peer *p;
  rcu_read_lock();
  p = rcu_dereference(h->peer);
  if (p)
    refcount_inc(&p->refcnt); // no-warning
  rcu_read_unlock();
  return p;
}
static struct peer *peer_table[16];
struct peer *peer_slot(int i) {
  struct peer *p;
  rcu_read_lock();
  p = rcu_dereference(peer_table[i]); // expected-note{{Internal reference obtained from an RCU-protected pointer}}
  if (p) // expected-note{{Assuming 'p' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&p->refcnt); // expected-warning{{Plain refcount_inc() on an internal reference from an RCU-protected pointer under rcu_read_lock() only}} expected-note{{Plain refcount_inc() on an internal reference from an RCU-protected pointer}}
  rcu_read_unlock();
  return p;
}

/* ==== kref style where the index holds its own count: no report ==== */

/* af_netlink.c's netlink_lookup(): the hash holds a counted reference (taken
   before insert, dropped after removal), and the lookup runs under RCU. */
struct nsock {
  refcount_t refcnt;
  struct hlist_node node;
  int portid;
};
static struct hlist_head nsocks;
void nsock_put(struct nsock *s) {
  if (refcount_dec_and_test(&s->refcnt))
    kfree_rcu_ptr(s);
}
void nsock_unhash(struct nsock *s) {
  hlist_del(&s->node);
  refcount_dec(&s->refcnt); /* the hash's reference; never the last */
}
struct nsock *nsock_lookup(int portid) {
  struct nsock *s;
  rcu_read_lock();
  hlist_for_each_entry(s, &nsocks, node)
    if (s->portid == portid) {
      refcount_inc(&s->refcnt); // no-warning
      rcu_read_unlock();
      return s;
    }
  rcu_read_unlock();
  return NULL;
}

struct job {
  struct kref ref;
  struct list_head node;
};
static LIST_HEAD(jobs);
static DEFINE_SPINLOCK(jobs_lock);
static void job_release(struct kref *ref) { kfree(container_of(ref, struct job, ref)); }
void job_put(struct job *j) { kref_put(&j->ref, job_release); }
struct job *job_first(void) {
  struct job *j;
  spin_lock(&jobs_lock);
  j = list_first_entry_or_null(&jobs, struct job, node);
  if (j)
    kref_get(&j->ref); // no-warning: the list may hold a count of its own
  spin_unlock(&jobs_lock);
  return j;
}

/* ==== kcref style: every final put takes the lock ==== */

struct inode_ish {
  atomic_t i_count;
  struct hlist_node i_hash;
  unsigned long ino;
};
static struct hlist_head inode_hash;
static DEFINE_SPINLOCK(inode_hash_lock);
static DEFINE_SPINLOCK(other_lock);
void iput_ish(struct inode_ish *inode) {
  if (atomic_dec_and_lock(&inode->i_count, &inode_hash_lock)) { // expected-note 3 {{The final put of 'struct inode_ish::i_count' takes 'inode_hash_lock' as the count hits zero here: kcref style}}
    hlist_del(&inode->i_hash);
    spin_unlock(&inode_hash_lock);
    kfree(inode);
  }
}
struct inode_ish *ilookup_ish(unsigned long ino) {
  struct inode_ish *inode;
  spin_lock(&inode_hash_lock);
  hlist_for_each_entry(inode, &inode_hash, i_hash) {
    if (inode->ino == ino) {
      atomic_inc(&inode->i_count); // no-warning: under the put's lock
      spin_unlock(&inode_hash_lock);
      return inode;
    }
  }
  spin_unlock(&inode_hash_lock);
  return NULL;
}
/* No lock at all: the caller may hold inode_hash_lock (fib_create_info() runs
   under RTNL); not reported. */
struct inode_ish *ilookup_ish_unlocked(unsigned long ino) {
  struct inode_ish *inode;
  hlist_for_each_entry(inode, &inode_hash, i_hash) {
    if (inode->ino == ino) {
      atomic_inc(&inode->i_count); // no-warning
      return inode;
    }
  }
  return NULL;
}
/* Found under the lock, promoted after dropping it. */
struct inode_ish *ilookup_ish_unlock_early(unsigned long ino) {
  struct inode_ish *inode;
  spin_lock(&inode_hash_lock);
  hlist_for_each_entry(inode, &inode_hash, i_hash) { // expected-note{{Internal reference obtained from a hash-list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}} expected-note{{Loop condition is true}}
    if (inode->ino == ino) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      spin_unlock(&inode_hash_lock);
      atomic_inc(&inode->i_count); // expected-warning{{Plain atomic_inc() promotes an internal reference from a hash-list walk after releasing 'inode_hash_lock', the lock the final put of 'struct inode_ish::i_count' takes (kcref style): the count may already be zero}} expected-note{{after releasing 'inode_hash_lock'}}
      return inode;
    }
  }
  spin_unlock(&inode_hash_lock);
  return NULL;
}
struct inode_ish *ilookup_ish_wrong_lock(unsigned long ino) {
  struct inode_ish *inode;
  spin_lock(&other_lock);
  hlist_for_each_entry(inode, &inode_hash, i_hash) { // expected-note{{Internal reference obtained from a hash-list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}} expected-note{{Loop condition is true}}
    if (inode->ino == ino) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      atomic_inc(&inode->i_count); // expected-warning{{Plain atomic_inc() promotes an internal reference from a hash-list walk while holding 'other_lock' but not 'inode_hash_lock'}} expected-note{{while holding 'other_lock' but not 'inode_hash_lock'}}
      spin_unlock(&other_lock);
      return inode;
    }
  }
  spin_unlock(&other_lock);
  return NULL;
}
struct inode_ish *ilookup_ish_rcu(unsigned long ino) {
  struct inode_ish *inode;
  rcu_read_lock();
  hlist_for_each_entry(inode, &inode_hash, i_hash) { // expected-note{{Internal reference obtained from a hash-list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}} expected-note{{Loop condition is true}}
    if (inode->ino == ino) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      atomic_inc(&inode->i_count); // expected-warning{{Plain atomic_inc() promotes an internal reference from a hash-list walk under rcu_read_lock() only, without 'inode_hash_lock'}} expected-note{{under rcu_read_lock() only}}
      rcu_read_unlock();
      return inode;
    }
  }
  rcu_read_unlock();
  return NULL;
}
struct inode_ish *ilookup_ish_rcu_safe(unsigned long ino) {
  struct inode_ish *inode;
  rcu_read_lock();
  hlist_for_each_entry(inode, &inode_hash, i_hash) {
    if (inode->ino == ino && atomic_inc_not_zero(&inode->i_count)) { // no-warning
      rcu_read_unlock();
      return inode;
    }
  }
  rcu_read_unlock();
  return NULL;
}
/* The caller holds inode_hash_lock. */
struct inode_ish *__ilookup_ish(unsigned long ino) {
  struct inode_ish *inode;
  hlist_for_each_entry(inode, &inode_hash, i_hash)
    if (inode->ino == ino) {
      atomic_inc(&inode->i_count); // no-warning
      return inode;
    }
  return NULL;
}

/* kref_put_mutex: kcref with a mutex */
struct node_ish {
  struct kref kref;
  struct list_head list;
  int nid;
};
static LIST_HEAD(nodes);
static DEFINE_MUTEX(nodes_mutex);
static DEFINE_MUTEX(unrelated_mutex);
static void node_release(struct kref *k) {
  struct node_ish *n = container_of(k, struct node_ish, kref);
  list_del(&n->list);
  mutex_unlock(&nodes_mutex);
  kfree(n);
}
void node_put(struct node_ish *n) {
  kref_put_mutex(&n->kref, node_release, &nodes_mutex); // expected-note{{The final put of 'struct node_ish::kref' takes 'nodes_mutex' as the count hits zero here: kcref style}}
}
struct node_ish *node_find(int nid) {
  struct node_ish *n;
  mutex_lock(&nodes_mutex);
  list_for_each_entry(n, &nodes, list)
    if (n->nid == nid) {
      kref_get(&n->kref); // no-warning: under nodes_mutex
      mutex_unlock(&nodes_mutex);
      return n;
    }
  mutex_unlock(&nodes_mutex);
  return NULL;
}
struct node_ish *node_find_wrong_mutex(int nid) {
  struct node_ish *n;
  mutex_lock(&unrelated_mutex);
  list_for_each_entry(n, &nodes, list) // expected-note{{Internal reference obtained from a list walk}} expected-note{{Loop condition is true}}
    if (n->nid == nid) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      kref_get(&n->kref); // expected-warning{{Plain kref_get() promotes an internal reference from a list walk while holding 'unrelated_mutex' but not 'nodes_mutex'}} expected-note{{while holding 'unrelated_mutex' but not 'nodes_mutex'}}
      mutex_unlock(&unrelated_mutex);
      return n;
    }
  mutex_unlock(&unrelated_mutex);
  return NULL;
}

/* dput()-like: the put takes the lock, then drops the count under it */
struct dentry_ish {
  refcount_t d_count;
  spinlock_t d_lock;
  struct list_head d_child;
};
static struct list_head d_children;
void dput_ish(struct dentry_ish *d) {
  spin_lock(&d->d_lock);
  if (refcount_dec_and_test(&d->d_count)) { // expected-note{{The final put of 'struct dentry_ish::d_count' takes 'dentry_ish::d_lock' as the count hits zero here: kcref style}}
    list_del(&d->d_child);
    spin_unlock(&d->d_lock);
    kfree(d);
    return;
  }
  spin_unlock(&d->d_lock);
}
struct dentry_ish *d_first_child(void) {
  struct dentry_ish *d;
  spin_lock(&other_lock);
  d = list_first_entry_or_null(&d_children, struct dentry_ish, d_child); // expected-note{{Internal reference obtained from a list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}}
  if (d) // expected-note{{'d' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&d->d_count); // expected-warning{{Plain refcount_inc() promotes an internal reference from a list walk while holding 'other_lock' but not 'dentry_ish::d_lock'}} expected-note{{while holding 'other_lock' but not 'dentry_ish::d_lock'}}
  spin_unlock(&other_lock);
  return d;
}
struct dentry_ish *d_first_child_locked(void) {
  struct dentry_ish *d = list_first_entry_or_null(&d_children, struct dentry_ish, d_child);
  if (!d)
    return NULL;
  spin_lock(&d->d_lock);
  refcount_inc(&d->d_count); // no-warning: under the put's lock
  spin_unlock(&d->d_lock);
  return d;
}

/* drivers/base/core.c's device links: the lock is taken through wrappers and
   the put helper is only ever called with it held: kcref. */
struct dlink {
  struct kref kref;
  struct list_head node;
  int flags;
};
static LIST_HEAD(dlinks);
static DEFINE_MUTEX(dlinks_lock);
static void dlinks_write_lock(void) { mutex_lock(&dlinks_lock); }
static void dlinks_write_unlock(void) { mutex_unlock(&dlinks_lock); }
static void dlink_release(struct kref *kref) {
  struct dlink *l = container_of(kref, struct dlink, kref);
  list_del(&l->node);
  kfree(l);
}
static void dlink_put_kref(struct dlink *l) {
  kref_put(&l->kref, dlink_release); // expected-note{{The final put of 'struct dlink::kref' takes 'dlinks_lock' as the count hits zero here: kcref style}}
}
void dlink_del(struct dlink *l) {
  dlinks_write_lock();
  dlink_put_kref(l);
  dlinks_write_unlock();
}
/* Two levels up: __dlinks_drop() is only called under the lock. */
static void dlink_drop_managed(struct dlink *l) {
  l->flags = 0;
  kref_put(&l->kref, dlink_release);
}
static void __dlinks_drop(struct dlink *l) { dlink_drop_managed(l); }
void dlinks_drop(struct dlink *l) {
  dlinks_write_lock();
  __dlinks_drop(l);
  dlinks_write_unlock();
}
void dlinks_drop_again(struct dlink *l) {
  dlinks_write_lock();
  __dlinks_drop(l);
  dlinks_write_unlock();
}
struct dlink *dlink_add(int flags) {
  struct dlink *l;
  dlinks_write_lock();
  list_for_each_entry(l, &dlinks, node)
    if (l->flags == flags) {
      kref_get(&l->kref); // no-warning: dlinks_lock is the put's lock
      dlinks_write_unlock();
      return l;
    }
  dlinks_write_unlock();
  return NULL;
}
struct dlink *dlink_peek(int flags) {
  struct dlink *l;
  dlinks_write_lock();
  list_for_each_entry(l, &dlinks, node) // expected-note{{Internal reference obtained from a list walk}} expected-note{{Loop condition is true}}
    if (l->flags == flags) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      dlinks_write_unlock();
      kref_get(&l->kref); // expected-warning{{Plain kref_get() promotes an internal reference from a list walk after releasing 'dlinks_lock'}} expected-note{{after releasing 'dlinks_lock'}}
      return l;
    }
  dlinks_write_unlock();
  return NULL;
}

/* lib/klist.c: the put runs under spin_lock_irqsave(&k->k_lock) (a macro
   over spinlock_check()), in a helper every caller calls under the lock. */
struct knode {
  struct kref n_ref;
  struct list_head n_node;
};
struct klist_ish {
  spinlock_t k_lock;
  struct list_head k_list;
};
static void knode_release(struct kref *kref) {
  struct knode *n = container_of(kref, struct knode, n_ref);
  list_del(&n->n_node);
  kfree(n);
}
static int knode_dec_and_del(struct knode *n) {
  return kref_put(&n->n_ref, knode_release); // expected-note{{The final put of 'struct knode::n_ref' takes 'klist_ish::k_lock' as the count hits zero here: kcref style}}
}
void knode_put(struct klist_ish *k, struct knode *n) {
  unsigned long flags;
  spin_lock_irqsave(&k->k_lock, flags);
  knode_dec_and_del(n);
  spin_unlock_irqrestore(&k->k_lock, flags);
}
struct knode *knode_first(struct klist_ish *k) {
  unsigned long flags;
  struct knode *n;
  spin_lock_irqsave(&k->k_lock, flags);
  n = list_first_entry_or_null(&k->k_list, struct knode, n_node);
  if (n)
    kref_get(&n->n_ref); // no-warning: under k_lock
  spin_unlock_irqrestore(&k->k_lock, flags);
  return n;
}
struct knode *knode_first_rcu(struct klist_ish *k) {
  struct knode *n;
  rcu_read_lock();
  n = list_first_entry_or_null(&k->k_list, struct knode, n_node); // expected-note{{Internal reference obtained from a list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}}
  if (n) // expected-note{{'n' is non-null}} expected-note{{Taking true branch}}
    kref_get(&n->n_ref); // expected-warning{{Plain kref_get() promotes an internal reference from a list walk under rcu_read_lock() only, without 'klist_ish::k_lock'}} expected-note{{under rcu_read_lock() only}}
  rcu_read_unlock();
  return n;
}

/* cgroup's css_set: the final put is in a *_locked function that asserts the
   lock; it is only called with css_set_lock held. */
struct cset {
  refcount_t refcount;
  struct list_head node;
};
static LIST_HEAD(csets);
static DEFINE_SPINLOCK(cset_lock);
void put_cset_locked(struct cset *c) {
  lockdep_assert_held(&cset_lock);
  if (!refcount_dec_and_test(&c->refcount)) // expected-note{{The final put of 'struct cset::refcount' takes 'cset_lock' as the count hits zero here: kcref style}}
    return;
  list_del(&c->node);
  kfree(c);
}
struct cset *cset_first(void) {
  struct cset *c;
  spin_lock(&cset_lock);
  c = list_first_entry_or_null(&csets, struct cset, node);
  if (c)
    refcount_inc(&c->refcount); // no-warning: under cset_lock
  spin_unlock(&cset_lock);
  return c;
}
struct cset *cset_first_asserted(void) {
  struct cset *c;
  lockdep_assert_held(&cset_lock);
  c = list_first_entry_or_null(&csets, struct cset, node);
  if (c)
    refcount_inc(&c->refcount); // no-warning: the caller holds cset_lock
  return c;
}
struct cset *cset_first_rcu(void) {
  struct cset *c;
  rcu_read_lock();
  c = list_first_entry_or_null(&csets, struct cset, node); // expected-note{{Internal reference obtained from a list walk}} expected-note{{Assuming}} expected-note{{'?' condition is true}}
  if (c) // expected-note{{'c' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&c->refcount); // expected-warning{{Plain refcount_inc() promotes an internal reference from a list walk under rcu_read_lock() only, without 'cset_lock'}} expected-note{{under rcu_read_lock() only}}
  rcu_read_unlock();
  return c;
}

/* The same with CONFIG_LOCKDEP, where lockdep_assert_held(l) is a call of
   lock_is_held(&(l)->dep_map) inside the macro (Linux 6.12 lockdep builds:
   kernel/trace/trace_events_user.c), skipped when lockdep is off: the
   lock a function's leading assertion names is held from its entry. */
int lock_is_held(const void *map);
extern int debug_locks;
#define lockdep_assert_held_lockdep(l)                                         \
  do {                                                                         \
    if (debug_locks && !lock_is_held(&(l)->dep_map))                           \
      printk("not held");                                                      \
  } while (0)
struct cset2 {
  refcount_t refcount;
  struct list_head node;
};
static LIST_HEAD(csets2);
static DEFINE_SPINLOCK(cset2_lock);
void put_cset2_locked(struct cset2 *c) {
  lockdep_assert_held_lockdep(&cset2_lock);
  if (!refcount_dec_and_test(&c->refcount)) // expected-note{{The final put of 'struct cset2::refcount' takes 'cset2_lock' as the count hits zero here: kcref style}}
    return;
  list_del(&c->node);
  kfree(c);
}
struct cset2 *cset2_first(void) {
  struct cset2 *c;
  spin_lock(&cset2_lock);
  c = list_first_entry_or_null(&csets2, struct cset2, node);
  if (c)
    refcount_inc(&c->refcount); // no-warning: under cset2_lock
  spin_unlock(&cset2_lock);
  return c;
}
struct cset2 *cset2_first_asserted(void) {
  struct cset2 *c;
  lockdep_assert_held_lockdep(&cset2_lock);
  c = list_first_entry_or_null(&csets2, struct cset2, node);
  if (c)
    refcount_inc(&c->refcount); // no-warning: the caller holds cset2_lock
  return c;
}
struct cset2 *cset2_first_rcu(void) {
  struct cset2 *c;
  rcu_read_lock();
  c = list_first_entry_or_null(&csets2, struct cset2, node); // expected-note{{Assuming 'pos__' is not equal to 'head__'}} expected-note{{'?' condition is true}} expected-note{{Internal reference obtained from a list walk: it holds no count}}
  if (c) // expected-note{{Assuming 'c' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&c->refcount); // expected-warning{{Plain refcount_inc() promotes an internal reference from a list walk under rcu_read_lock() only, without 'cset2_lock', the lock the final put of 'struct cset2::refcount' takes (kcref style): the count may already be zero}} expected-note{{Plain refcount_inc() promotes an internal reference from a list walk under rcu_read_lock() only, without 'cset2_lock', the lock the final put of 'struct cset2::refcount' takes (kcref style): the count may already be zero}}
  rcu_read_unlock();
  return c;
}

/* A put helper called only from an error ladder that follows
   `spin_unlock(&l); return 0;` in source order, reached by gotos taken
   under l (dpll_pin_on_pin_register(), Linux 6.12): the put is under l. */
struct pinref {
  refcount_t refcount;
  struct list_head node;
};
static LIST_HEAD(pinrefs);
static DEFINE_SPINLOCK(pinref_lock);
static void pinref_put(struct pinref *r) {
  if (!refcount_dec_and_test(&r->refcount)) // expected-note{{The final put of 'struct pinref::refcount' takes 'pinref_lock' as the count hits zero here: kcref style}}
    return;
  list_del(&r->node);
  kfree(r);
}
int pinref_setup(struct pinref *r);
int pinref_register(struct pinref *r) {
  int ret;
  spin_lock(&pinref_lock);
  ret = pinref_setup(r);
  if (ret)
    goto undo;
  spin_unlock(&pinref_lock);
  return 0;
undo:
  pinref_put(r);
  spin_unlock(&pinref_lock);
  return ret;
}
struct pinref *pinref_first(void) {
  struct pinref *r;
  spin_lock(&pinref_lock);
  r = list_first_entry_or_null(&pinrefs, struct pinref, node);
  if (r)
    refcount_inc(&r->refcount); // no-warning: under pinref_lock
  spin_unlock(&pinref_lock);
  return r;
}
struct pinref *pinref_first_rcu(void) {
  struct pinref *r;
  rcu_read_lock();
  r = list_first_entry_or_null(&pinrefs, struct pinref, node); // expected-note{{Assuming 'pos__' is not equal to 'head__'}} expected-note{{'?' condition is true}} expected-note{{Internal reference obtained from a list walk: it holds no count}}
  if (r) // expected-note{{Assuming 'r' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&r->refcount); // expected-warning{{Plain refcount_inc() promotes an internal reference from a list walk under rcu_read_lock() only, without 'pinref_lock', the lock the final put of 'struct pinref::refcount' takes (kcref style): the count may already be zero}} expected-note{{Plain refcount_inc() promotes an internal reference from a list walk under rcu_read_lock() only, without 'pinref_lock', the lock the final put of 'struct pinref::refcount' takes (kcref style): the count may already be zero}}
  rcu_read_unlock();
  return r;
}

/* net/sched/act_api.c: the final put runs under the lock after an early
   `unlock; return` branch, which does not release it for the rest. */
struct action {
  refcount_t refcnt;
  unsigned long index;
};
struct action_table {
  struct mutex lock;
  struct idr idr;
};
int action_delete(struct action_table *t, unsigned long index) {
  struct action *a;
  mutex_lock(&t->lock);
  a = idr_find(&t->idr, index);
  if (!a) {
    mutex_unlock(&t->lock);
    return -ENOENT;
  }
  if (refcount_dec_and_test(&a->refcnt)) {
    idr_remove(&t->idr, a->index);
    mutex_unlock(&t->lock);
    kfree(a);
    return 0;
  }
  mutex_unlock(&t->lock);
  return -EBUSY;
}
struct action *action_search(struct action_table *t, unsigned long index) {
  struct action *a;
  mutex_lock(&t->lock);
  a = idr_find(&t->idr, index);
  if (a)
    refcount_inc(&a->refcnt); // no-warning: under the put's lock
  mutex_unlock(&t->lock);
  return a;
}

/* ==== plain and unknown styles: never reported ==== */
struct bh_ish {
  atomic_t b_count;
  struct list_head b_list;
};
static struct list_head bhs;
void put_bh_ish(struct bh_ish *bh) { atomic_dec(&bh->b_count); }
struct bh_ish *first_bh(void) {
  struct bh_ish *bh = list_first_entry_or_null(&bhs, struct bh_ish, b_list);
  if (bh)
    atomic_inc(&bh->b_count); // no-warning: plain style
  return bh;
}
struct unknown_obj {
  struct kref ref;
  struct list_head node;
};
static struct list_head unknowns;
struct unknown_obj *first_unknown(void) {
  struct unknown_obj *u = list_first_entry_or_null(&unknowns, struct unknown_obj, node);
  if (u)
    kref_get(&u->ref); // no-warning: no put in this TU, style unknown
  return u;
}

/* ==== test-for-zero gets whose result is ignored ==== */
void ignore_kref_get_unless_zero(struct item *it) {
  kref_get_unless_zero(&it->ref); // expected-warning{{ignoring return value}} expected-warning{{The result of kref_get_unless_zero() is ignored: when it fails the object is being freed and no reference was taken}} expected-note{{The result of kref_get_unless_zero() is ignored}}
}
void ignore_refcount_inc_not_zero(struct port *p) {
  (void)refcount_inc_not_zero(&p->users); // expected-warning{{The result of refcount_inc_not_zero() is ignored}} expected-note{{The result of refcount_inc_not_zero() is ignored}}
}
void ignore_atomic_inc_not_zero(struct page_ish *p) {
  if (p->index) // expected-note{{Assuming field 'index' is not equal to 0}} expected-note{{Taking true branch}}
    atomic_inc_not_zero(&p->count); // expected-warning{{The result of atomic_inc_not_zero() is ignored}} expected-note{{The result of atomic_inc_not_zero() is ignored}}
}
int use_kref_get_unless_zero(struct item *it) {
  return kref_get_unless_zero(&it->ref); // no-warning
}
bool use_refcount_inc_not_zero(struct port *p) {
  bool ok = refcount_inc_not_zero(&p->users); // no-warning
  return ok;
}
void use_atomic_inc_not_zero(struct page_ish *p) {
  while (!atomic_inc_not_zero(&p->count)) // no-warning
    might_sleep();
}

/* ---- an id allocator is not an index (fs/proc/generic.c pde_put()) ---- */
/* The release gives back the entry's inode number (an IDA holds numbers,
   no pointers: nothing is looked up in it) and frees the entry; the entry
   leaves the tree in remove_pentry(), under the write lock, before its put.
   A walk of the tree under the lock finds only entries the tree holds. */
struct ida { unsigned int next; };
void ida_free(struct ida *ida, unsigned int id);
struct pentry {
  refcount_t refcnt;
  unsigned int ino;
  struct rb_node node;
};
static struct ida pentry_inos;
static struct rb_root pentries;
void pentry_put(struct pentry *e) {
  if (refcount_dec_and_test(&e->refcnt)) {
    ida_free(&pentry_inos, e->ino);
    kfree(e);
  }
}
struct pentry *pentry_first(void) {
  struct rb_node *n = pentries.rb_node;
  struct pentry *e;
  if (!n)
    return NULL;
  e = rb_entry(n, struct pentry, node);
  refcount_inc(&e->refcnt); // no-warning: the release takes it off no index
  return e;
}

/* Its twin whose release also erases it from the tree is reported. */
struct pentry2 {
  refcount_t refcnt;
  unsigned int ino;
  struct rb_node node;
};
static struct rb_root pentries2;
void pentry2_put(struct pentry2 *e) {
  if (refcount_dec_and_test(&e->refcnt)) { // expected-note{{The final put of 'struct pentry2::refcnt' is a bare decrement-and-test here: kref style}}
    ida_free(&pentry_inos, e->ino);
    rb_erase(&e->node, &pentries2); // expected-note{{The release of 'struct pentry2::refcnt' takes the object off its index here}}
    kfree(e);
  }
}
struct pentry2 *pentry2_first(void) {
  struct rb_node *n = pentries2.rb_node;
  struct pentry2 *e;
  if (!n) // expected-note{{Assuming 'n' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  e = rb_entry(n, struct pentry2, node); // expected-note{{Internal reference obtained from an rb-tree walk}}
  refcount_inc(&e->refcnt); // expected-warning{{Plain refcount_inc() on an internal reference from an rb-tree walk}} expected-note{{Plain refcount_inc() on an internal reference from an rb-tree walk}}
  return e;
}

/* A lock declared extern in a header and defined in the .c file is one lock
 * (drivers/mtd/mtdcore.h and mtdcore.c: mtd_table_mutex). */
extern struct mutex table_mutex;
DEFINE_MUTEX(table_mutex);
struct tnode {
  struct kref kref;
  struct list_head list;
  int id;
};
static LIST_HEAD(tnodes);
static void tnode_release(struct kref *k) {
  struct tnode *n = container_of(k, struct tnode, kref);
  list_del(&n->list);
  mutex_unlock(&table_mutex);
  kfree(n);
}
void tnode_put(struct tnode *n) {
  kref_put_mutex(&n->kref, tnode_release, &table_mutex); // expected-note{{The final put of 'struct tnode::kref' takes 'table_mutex' as the count hits zero here: kcref style}}
}
struct tnode *tnode_find(int id) {
  struct tnode *n;
  mutex_lock(&table_mutex);
  list_for_each_entry(n, &tnodes, list)
    if (n->id == id) {
      kref_get(&n->kref); // no-warning: under table_mutex
      mutex_unlock(&table_mutex);
      return n;
    }
  mutex_unlock(&table_mutex);
  return NULL;
}
struct tnode *tnode_find_wrong_mutex(int id) {
  struct tnode *n;
  mutex_lock(&unrelated_mutex);
  list_for_each_entry(n, &tnodes, list) // expected-note{{Internal reference obtained from a list walk}} expected-note{{Loop condition is true}}
    if (n->id == id) { // expected-note{{Assuming}} expected-note{{Taking true branch}}
      kref_get(&n->kref); // expected-warning{{Plain kref_get() promotes an internal reference from a list walk while holding 'unrelated_mutex' but not 'table_mutex'}} expected-note{{while holding 'unrelated_mutex' but not 'table_mutex'}}
      mutex_unlock(&unrelated_mutex);
      return n;
    }
  mutex_unlock(&unrelated_mutex);
  return NULL;
}
