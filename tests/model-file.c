// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs %inline -analyzer-config refcount:ModelFile=%S/Inputs/models/subsys.yaml -verify=expected,model %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs %proto -analyzer-config refcount:ModelFile=%S/Inputs/models/subsys.yaml -verify=expected,model %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs %inline -verify=expected,builtin %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount -I %inputs %proto -verify=expected,builtin %s
//
// A model file (Inputs/models/subsys.yaml) teaches krefcheck a subsystem's
// APIs: `model-` expectations hold with it, `builtin-` ones with the
// built-in kernel model alone, `expected-` ones with both.

struct widget { struct kref ref; int id; };
struct widget *widget_get(struct widget *w);
void widget_put(struct widget *w);
struct widget *widget_lookup(int id);
struct widget *widget_open(const char *name);
int widget_start(struct widget *w);
struct widget *widget_next(struct widget *prev);
void widget_enroll(struct widget *w);
void widget_add_stats(struct widget *w);
int use(void *p);

/* ===== acquire of a new reference, fails: null ===== */
int lookup_leak(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -ENOENT;
  if (use(w))
    return -EIO; // model-warning{{Reference to 'w' acquired by widget_lookup() is not released on this path (missing widget_put())}}
  widget_put(w);
  return 0;
}
int lookup_balanced(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -ENOENT; // no-warning: NULL is no reference
  use(w);
  widget_put(w); // no-warning
  return 0;
}

/* ===== fails: err-ptr ===== */
int open_leak(void) {
  struct widget *w = widget_open("x");
  if (IS_ERR(w))
    return PTR_ERR(w); // no-warning: an ERR_PTR() holds no reference
  return use(w); // model-warning{{Reference to 'w' acquired by widget_open() is not released on this path (missing widget_put())}}
}

/* ===== release twice ===== */
void lookup_put_twice(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return;
  widget_put(w);
  widget_put(w); // model-warning{{The call to widget_put() puts 'w' again: this path already released every reference it took}}
}

/* ===== acquire of an argument (returns-arg), fails: negative ===== */
int start_leak(struct widget *w) {
  int err = widget_start(w);
  if (err < 0)
    return err; // no-warning: failed, nothing acquired
  if (use(w))
    return -EIO; // model-warning{{Reference to 'w' taken by widget_start() is not released on this error path (missing widget_put())}}
  widget_put(w);
  return 0;
}
int start_balanced(struct widget *w) {
  int err = widget_start(w);
  if (err < 0)
    return err;
  use(widget_get(w)); /* returns-arg: the result is w */
  widget_put(w);
  widget_put(w); // no-warning
  return 0;
}

/* ===== acquire-next: puts argument 1 ===== */
int next_then_put_prev(struct widget *start) {
  struct widget *n = widget_next(start);
  widget_put(start); // model-warning{{The call to widget_put() puts 'start' a second time on this path, which never took a reference to it}}
  if (n)
    widget_put(n);
  return 0;
}

/* ===== consume and borrow ===== */
int enroll_hands_over(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -ENOENT;
  widget_enroll(w); // no-warning: the callee owns the reference now
  return 0;
}
int add_stats_only_borrows(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -ENOENT;
  widget_add_stats(w); // an "add" name would hand it over, the model says it only borrows
  return 0; // model-warning{{Reference to 'w' acquired by widget_lookup() is not released on this path (missing widget_put())}}
}

/* ===== a built-in row replaced, one disabled ===== */
int alias_replaced(struct inode *inode) {
  struct dentry *d = d_find_alias(inode);
  if (!d)
    return -ENOENT;
  return use(d); // builtin-warning{{Reference to 'd' acquired by d_find_alias() is not released on this path (missing dput())}}
}
int parent_disabled(struct device_node *child) {
  struct device_node *np = of_get_parent(child);
  if (!np)
    return -ENODEV;
  return use(np); // builtin-warning{{Reference to 'np' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
}

/* ===== a counting API of the model ===== */
struct gadget { refcount_t ref; };
void gadget_ref_init(struct gadget *g, int n);
bool gadget_ref_tryget(refcount_t *r);
void gadget_reuse(struct gadget *g) {
  if (!gadget_ref_tryget(&g->ref)) {
    refcount_inc(&g->ref); // model-warning{{Call to refcount_inc() on 'g->ref' after a test-for-zero get on it failed: the count is zero}}
  }
}

/* ===== counters: a declared refcount ===== */
struct conn { atomic_t active; };
struct conn *conn_new(void) {
  struct conn *c = kzalloc(sizeof(*c), GFP_KERNEL);
  if (!c)
    return NULL;
  atomic_inc(&c->active); // model-warning{{Call to atomic_inc() on 'c->active' of a zero-filled object whose count was never initialized}}
  return c;
}

/* ===== counters: styles the TU cannot show (the puts live elsewhere) ===== */
struct cache_ent { refcount_t users; struct hlist_node node; int key; };
static struct hlist_head cache_hash;
static DEFINE_SPINLOCK(cache_lock);
static DEFINE_SPINLOCK(stats_lock);
struct cache_ent *cache_find_wrong_lock(int key) {
  struct cache_ent *e;
  spin_lock(&stats_lock);
  hlist_for_each_entry(e, &cache_hash, node) {
    if (e->key == key) {
      refcount_inc(&e->users); // model-warning{{Plain refcount_inc() promotes an internal reference from a hash-list walk while holding 'stats_lock' but not 'cache_lock'}}
      spin_unlock(&stats_lock);
      return e;
    }
  }
  spin_unlock(&stats_lock);
  return NULL;
}
struct cache_ent *cache_find(int key) {
  struct cache_ent *e;
  spin_lock(&cache_lock);
  hlist_for_each_entry(e, &cache_hash, node) {
    if (e->key == key) {
      refcount_inc(&e->users); // no-warning: under the lock of the final put
      spin_unlock(&cache_lock);
      return e;
    }
  }
  spin_unlock(&cache_lock);
  return NULL;
}

struct ring { refcount_t refs; struct list_head list; int id; };
static LIST_HEAD(rings);
struct ring *ring_find_rcu(int id) {
  struct ring *r;
  rcu_read_lock();
  list_for_each_entry_rcu(r, &rings, list) {
    if (r->id == id) {
      refcount_inc(&r->refs); // model-warning{{Plain refcount_inc() on an internal reference from a list walk under rcu_read_lock() only: the final put of 'struct ring::refs' is a bare decrement-and-test (kref style, as configured), so the count may already be zero; use refcount_inc_not_zero() and check its result}}
      rcu_read_unlock();
      return r;
    }
  }
  rcu_read_unlock();
  return NULL;
}
struct ring *ring_find_rcu_safe(int id) {
  struct ring *r;
  rcu_read_lock();
  list_for_each_entry_rcu(r, &rings, list) {
    if (r->id == id && refcount_inc_not_zero(&r->refs)) { // no-warning
      rcu_read_unlock();
      return r;
    }
  }
  rcu_read_unlock();
  return NULL;
}

/* ===== counters: plain style on purpose; the bias allow-list ===== */
struct stats { atomic_t hits; };
void stats_free(struct stats *s) {
  if (atomic_dec_and_test(&s->hits)) // builtin-note{{The final put of 'struct stats::hits' tests for zero here}}
    kfree(s);
}
void stats_drop(struct stats *s) {
  atomic_dec(&s->hits); // builtin-warning{{The call to atomic_dec() is a plain decrement of 's->hits', whose other puts are decrement-and-test (kref style)}}
}

#define RING_DEAD_BIAS (1 << 30)
void ring_kill(struct ring *r) {
  refcount_add(RING_DEAD_BIAS, &r->refs); // builtin-warning{{Reference count 'r->refs' is offset by a bias (RING_DEAD_BIAS = 1073741824)}}
}
