// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,nolink,%vprefix %s -analyzer-config refcount:DisableRules=stored-linked-get
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,nolink,%vprefix %s -analyzer-config refcount:DisableRules=stored-linked-get

/* refcount.Leak: a get on a pointer held in memory the path wrote is that
 * memory's count: a pointer stored into a field before the get, a tagged
 * pointer word copied into another object, a field of a copy this path
 * allocated (prepare_creds()), a struct copied into the caller's memory
 * (nd_jump_root()). A get on what the old object or the caller left in
 * place is the function's own. */

int setup(void);

struct hubx { struct usb_device *hdev; };

int hub_probe_like(struct usb_device *hdev, struct hubx *hub) {
  hub->hdev = hdev;
  usb_get_dev(hdev);
  if (setup())
    return -ENODEV; // no-warning: the reference belongs to hub->hdev
  return 0;
}

/* validation-sweep #8: a get on a tagged pointer whose word the path stored
 * into another object first belongs to that object (net/core/skbuff.c
 * pskb_extract(): __nf_copy() does `dst->_nfct = src->_nfct;
 * nf_conntrack_get(skb_nfct(src))`, and kfree_skb(clone) puts it). */
struct ct_obj { refcount_t use; };
struct pkt { unsigned long _nfct; };
#define CT_PTRMASK (~7UL)

int copy_ct_ok(struct pkt *dst, struct pkt *src) {
  struct ct_obj *ct;
  dst->_nfct = src->_nfct;
  ct = (struct ct_obj *)(src->_nfct & CT_PTRMASK);
  if (!ct)
    return 0;
  refcount_inc(&ct->use);
  if (setup())
    return -ENOMEM; // no-warning
  return 0;
}

int copy_ct_not_stored(struct pkt *dst, struct pkt *src) {
  struct ct_obj *ct;
  dst->_nfct = 0;
  ct = (struct ct_obj *)(src->_nfct & CT_PTRMASK);
  if (!ct) // expected-note{{Assuming 'ct' is non-null}} expected-note{{Taking false branch}}
    return 0;
  refcount_inc(&ct->use); // expected-note{{Reference to '&ct->use' taken by refcount_inc()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK expected-warning{{Reference to '&ct->use' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&ct->use' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* ---- a copy's pointers (kernel/cred.c prepare_creds()) ---- */
/* The new object is a copy of the old one, and takes a count on each object
   the copy points to: those counts are the copy's, dropped by its destructor
   (put_cred() -> __put_cred() -> put_cred_rcu()), not the function's. */
struct cuser { refcount_t count; };
struct ucred { atomic_t usage; struct cuser *user; };
int ucred_security(struct ucred *c);
void __put_ucred(struct ucred *c);
static inline void put_ucred(struct ucred *c) {
  if (atomic_dec_and_test(&c->usage))
    __put_ucred(c);
}
static inline struct cuser *get_cuser(struct cuser *u) {
  refcount_inc(&u->count); // expected-note{{Reference to '&u->count' taken by refcount_inc()}}
  return u;
}

struct ucred *prepare_ucred(const struct ucred *old) {
  struct ucred *new = kmalloc(sizeof(*new), GFP_KERNEL);
  if (!new)
    return NULL;
  *new = *old;
  atomic_set(&new->usage, 1);
  get_cuser(new->user);
  if (ucred_security(new) < 0)
    goto error;
  return new;
error:
  put_ucred(new);
  return NULL; // no-warning
}

/* A count on what the old object points to, which the copy does not hold,
   is the function's. */
struct ucred *prepare_ucred_old(const struct ucred *old) {
  struct ucred *new = kmalloc(sizeof(*new), GFP_KERNEL);
  if (!new) // expected-note{{Assuming 'new' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  atomic_set(&new->usage, 1);
  new->user = NULL;
  get_cuser(old->user); // expected-note{{Calling 'get_cuser'}} expected-note{{Returning from 'get_cuser'}}
  if (ucred_security(new) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    goto error; // expected-note{{Control jumps to line}}
  new->user = old->user;
  return new;
error:
  put_ucred(new);
  return NULL; // LEAK expected-warning{{Reference to '&u->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&u->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
}

/* A kmemdup() copy is new memory too (an allocator row): a count on what
   a field of a nested struct of the copy points to is the copy's, put by
   its destructor (vfs_dup_fs_context(): `fc = kmemdup(src_fc, ...);
   refcount_inc(&fc->log.log->usage)`, put_fs_context() on the error path,
   held-out set 12). A count on what only the source points to is the
   function's. */
struct flog { refcount_t usage; };
struct fctx { struct { struct flog *log; } log; int id; };
int fctx_dup_ops(struct fctx *fc, struct fctx *src);
void put_fctx(struct fctx *fc);

struct fctx *dup_fctx(struct fctx *src) {
  struct fctx *fc = kmemdup(src, sizeof(*fc), GFP_KERNEL);
  if (!fc)
    return NULL;
  if (fc->log.log)
    refcount_inc(&fc->log.log->usage);
  if (fctx_dup_ops(fc, src) < 0)
    goto err_fc;
  return fc;
err_fc:
  put_fctx(fc);
  return NULL; // no-warning: the copy's count, put_fctx() drops it
}

struct fctx *dup_fctx_src(struct fctx *src) {
  struct fctx *fc = kmemdup(src, sizeof(*fc), GFP_KERNEL);
  if (!fc) // expected-note{{Assuming 'fc' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  fc->log.log = NULL;
  if (src->log.log) // expected-note{{Assuming field 'log' is non-null}} expected-note{{Taking true branch}}
    refcount_inc(&src->log.log->usage); // expected-note{{Reference to '&src->log.log->usage' taken by refcount_inc()}}
  if (fctx_dup_ops(fc, src) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    goto err_fc; // expected-note{{Control jumps to line}}
  return fc;
err_fc:
  put_fctx(fc);
  return NULL; // LEAK expected-warning{{Reference to '&src->log.log->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&src->log.log->usage' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
}

/* ---- a struct copy into the caller's memory (fs/namei.c nd_jump_root()) ---- */
/* `nd->path = nd->root; path_get(&nd->path)`: the count is kept by the
   field the path just wrote (put by terminate_walk()), like a pointer stored
   before its get. */
struct npath { struct dentry *dentry; };
struct walk { struct npath path, root; int flags; };
static inline void npath_get(const struct npath *p) {
  dget(p->dentry); // expected-note{{Reference to 'p->dentry' taken by dget()}}
}
void npath_put(const struct npath *p);

static int jump_root(struct walk *w) {
  npath_put(&w->path);
  w->path = w->root;
  npath_get(&w->path);
  return 0;
}
const char *walk_pick(struct walk *w) {
  if (setup())
    return ERR_PTR(-EIO);
  jump_root(w);
  return NULL; // no-warning
}

/* A get on a field as the caller left it is the function's own count. */
const char *walk_pick_root(struct walk *w) {
  npath_get(&w->root); // expected-note{{Calling 'npath_get'}} expected-note{{Returning from 'npath_get'}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return ERR_PTR(-EIO); // LEAK expected-warning{{Reference to 'p->dentry' taken by dget() is not released on this error path (missing dput())}} expected-note{{Reference to 'p->dentry' taken by dget() is not released on this error path (missing dput())}}
  w->flags = 1;
  return "x";
}

/* ---- a get one field away from a stored pointer (rule stored-linked-get) ---- */
/* drivers/vfio/mdev/mdev_sysfs.c mdev_type_add(): `type->parent = parent;
   get_device(parent->dev)`, and the kobject release of `type` puts
   `type->parent->dev`: the count is the stored pointer's, kept by `type`. */
struct mparent { struct device *dev; struct mparent *up; };
struct mtype { struct mparent *parent; int n; };
struct mparent *find_mparent(int id);
int mtype_setup(struct mtype *type);

int mtype_add(struct mparent *parent, struct mtype *type) {
  type->parent = parent;
  get_device(parent->dev); // nolink-note{{Reference to 'parent->dev' taken by get_device()}}
  if (setup()) // nolink-note{{Assuming the condition is true}} nolink-note{{Taking true branch}}
    return -ENOMEM; // no-warning: type's release puts type->parent->dev // nolink-warning{{Reference to 'parent->dev' taken by get_device() is not released on this error path (missing put_device())}} nolink-note{{Reference to 'parent->dev' taken by get_device() is not released on this error path (missing put_device())}}
  return 0;
}

/* Nothing stored: the count is the function's. */
int mtype_add_unstored(struct mparent *parent, struct mtype *type) {
  type->n = 1;
  get_device(parent->dev); // expected-note{{Reference to 'parent->dev' taken by get_device()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK expected-warning{{Reference to 'parent->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'parent->dev' taken by get_device() is not released on this error path (missing put_device())}}
  return 0;
}

/* Stored, but the object is two fields away: not the stored pointer's. */
int mtype_add_far(struct mparent *parent, struct mtype *type) {
  type->parent = parent;
  get_device(parent->up->dev); // expected-note{{Reference to 'parent->up->dev' taken by get_device()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK expected-warning{{Reference to 'parent->up->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'parent->up->dev' taken by get_device() is not released on this error path (missing put_device())}}
  return 0;
}

/* The stored pointer is one this function looked up: its error path must
   drop the count it took (drivers/gpu/drm/tegra/sor.c tegra_sor_probe()). */
int mtype_add_found(struct mtype *type, int id) {
  type->parent = find_mparent(id);
  if (!type->parent) // expected-note{{Assuming field 'parent' is non-null}} expected-note{{Taking false branch}}
    return -ENODEV;
  get_device(type->parent->dev); // expected-note{{Reference to 'type->parent->dev' taken by get_device()}}
  if (mtype_setup(type)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK expected-warning{{Reference to 'type->parent->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'type->parent->dev' taken by get_device() is not released on this error path (missing put_device())}}
  return 0;
}

/* drivers/rapidio/devices/rio_mport_cdev.c get_dma_channel(): `priv->dmach =
   md->dma_chan; kref_get(&md->dma_ref)`: priv now uses md's channel, and
   the count on md is priv's, dropped when priv's channel is released. */
struct mmport { struct kref ref; void *chan; };
struct mpriv { struct mmport *md; void *chan; };

int mpriv_take_chan(struct mpriv *priv) {
  priv->chan = priv->md->chan;
  kref_get(&priv->md->ref); // nolink-note{{Reference to '&priv->md->ref' taken by kref_get()}}
  if (setup()) // nolink-note{{Assuming the condition is true}} nolink-note{{Taking true branch}}
    return -EIO; // no-warning: priv holds md's channel and its count // nolink-warning{{Reference to '&priv->md->ref' taken by kref_get() is not released on this error path (missing kref_put())}} nolink-note{{Reference to '&priv->md->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  return 0;
}

/* The channel was not stored: the count is the function's. */
int mpriv_take_chan_unstored(struct mpriv *priv, void **out) {
  void *chan = priv->md->chan;
  kref_get(&priv->md->ref); // expected-note{{Reference to '&priv->md->ref' taken by kref_get()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to '&priv->md->ref' taken by kref_get() is not released on this error path (missing kref_put())}} expected-note{{Reference to '&priv->md->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  *out = chan;
  return 0;
}
