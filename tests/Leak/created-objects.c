// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init

/* refcount.Leak, rule fresh-object-init (issue 16, class 1): an object the
 * function allocates and whose count kref_init(), refcount_set(r, 1) or
 * refcount_set_release(r, 1) sets to one holds its first reference: a path
 * that neither puts it, frees it nor hands it over leaks it (`on`).
 * Positives: error returns and goto ladders after the init, a branch that
 * puts in one arm, a loop that creates one per iteration, an out-parameter
 * set only on success, both refcount_t inits, kmalloc() and
 * kmem_cache_alloc() memory, a creator of this TU inlined into its caller,
 * an extra get with one put, a success path that never publishes, the
 * pointer overwritten, a refcount_add() on another field (a counting row is
 * no hand-over by its name), an anonymous-inode file given NULL, a
 * function pointer given another object before the init. Twins: a put or
 * a kfree() on the error path, a store into a global, into a field
 * of a parameter or an out-parameter, a list insert, a return, a
 * registration, a count set to two, device-managed memory, a re-init of an
 * object the function was given, the inlined creator's result stored, the
 * object given to an anonymous-inode file, the object published through a
 * function pointer before its init. With the rule disabled (`off`)
 * nothing is reported. */

// off-no-diagnostics

struct item {
  int id;
  struct kref ref;
  refcount_t users;
  struct list_head node;
};
struct holder {
  struct item *it;
};
int item_setup(struct item *it);
int item_register(struct item *it);
void item_unlink(struct item *it);
struct item *current_item;
static LIST_HEAD(item_list);
void *item_cache;

static void item_release(struct kref *k) {
  kfree(container_of(k, struct item, ref));
}

int leak_error_return(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  current_item = it;
  return 0;
}

int leak_goto_ladder(int n) {
  int ret;
  char *buf;
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  buf = kmalloc(n, GFP_KERNEL);
  if (!buf) { // on-note{{Assuming 'buf' is null}} on-note{{Taking true branch}}
    ret = -ENOMEM; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
    goto err_item;
  }
  ret = item_setup(it);
  if (ret)
    goto err_buf;
  current_item = it;
  return 0;
err_buf:
  kfree(buf);
err_item:
  return ret;
}

int leak_one_arm(int flags) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    if (flags) // on-note{{Assuming 'flags' is 0}} on-note{{Taking false branch}}
      kref_put(&it->ref, item_release);
    return -EIO; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  }
  current_item = it;
  return 0;
}

int leak_in_loop(int n) {
  for (int i = 0; i < n; i++) { // on-note{{Assuming 'i' is < 'n'}} on-note{{Loop condition is true.  Entering loop body}}
    struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
    if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
      return -ENOMEM;
    kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
    if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
      return -EIO; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
    list_add(&it->node, &item_list);
  }
  return 0;
}

int leak_out_param(struct item **out) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  *out = it;
  return 0;
}

int leak_refcount_set(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  current_item = it;
  return 0;
}

int leak_refcount_set_release(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set_release(&it->users, 1); // on-note{{The call to refcount_set_release() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count refcount_set_release() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The new object 'it', whose count refcount_set_release() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  current_item = it;
  return 0;
}

int leak_kmalloc(void) {
  struct item *it = kmalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  current_item = it;
  return 0;
}

int leak_cache(void) {
  struct item *it = kmem_cache_alloc(item_cache, GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  current_item = it;
  return 0;
}

static struct item *item_create(int id) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return NULL;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  it->id = id;
  return it;
}

int leak_inlined_creator(int id) {
  struct item *it = item_create(id); // on-note{{Calling 'item_create'}} on-note{{Returning from 'item_create'}}
  if (!it) // on-note{{'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  current_item = it;
  return 0;
}

int leak_extra_get(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_get(&it->ref); // on-note{{Reference to 'it' taken by kref_get()}}
  if (item_setup(it)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put()}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  }
  current_item = it;
  return 0;
}

void leak_never_published(int id) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  it->id = id;
} // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}

int leak_overwritten(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  current_item = it; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  return 0;
}

/* ---- twins ---- */

int ok_put_on_error(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  if (item_setup(it)) {
    kref_put(&it->ref, item_release);
    return -EINVAL;
  }
  current_item = it;
  return 0; // no-warning
}

int ok_kfree_never_published(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  if (item_setup(it)) {
    kfree(it);
    return -EINVAL;
  }
  current_item = it;
  return 0; // no-warning
}

int ok_goto_ladder(int n) {
  int ret;
  char *buf;
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  buf = kmalloc(n, GFP_KERNEL);
  if (!buf) {
    ret = -ENOMEM;
    goto err_item;
  }
  ret = item_setup(it);
  if (ret)
    goto err_buf;
  current_item = it;
  return 0;
err_buf:
  kfree(buf);
err_item:
  kref_put(&it->ref, item_release);
  return ret; // no-warning
}

void ok_field_of_param(struct holder *h) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  h->it = it; // no-warning
}

int ok_out_param(struct item **out) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  *out = it;
  return 0; // no-warning
}

void ok_list_insert(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  list_add(&it->node, &item_list); // no-warning
}

struct item *ok_returned(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return NULL;
  kref_init(&it->ref);
  return it; // no-warning
}

int ok_registered(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  return item_register(it); // no-warning
}

int ok_count_two(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  refcount_set(&it->users, 2);
  if (item_setup(it))
    return -EINVAL; // no-warning
  current_item = it;
  return 0;
}

int ok_device_managed(struct device *dev) {
  struct item *it = devm_kzalloc(dev, sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  if (item_setup(it))
    return -EINVAL; // no-warning
  current_item = it;
  return 0;
}

int ok_reinit_given(struct item *it) {
  kref_init(&it->ref);
  if (item_setup(it))
    return -EINVAL; // no-warning
  return 0;
}

int ok_inlined_creator_stored(int id) {
  struct item *it = item_create(id);
  if (!it)
    return -ENOMEM;
  current_item = it;
  return 0; // no-warning
}

int ok_inlined_creator_put(int id) {
  struct item *it = item_create(id);
  if (!it)
    return -ENOMEM;
  if (item_setup(it)) {
    kref_put(&it->ref, item_release);
    return -EINVAL; // no-warning
  }
  current_item = it;
  return 0;
}

/* The count of a struct kref set through its insides is the kref's (and
 * refcount.MixedStyle's to report): not a creation this rule follows. */
int ok_kref_insides(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  refcount_set(&it->ref.refcount, 1);
  if (item_setup(it))
    return -EINVAL; // no-warning
  current_item = it;
  return 0;
}

/* Published before its count is set (nbd_dev_add(): idr_alloc(), then
 * refcount_set(&nbd->refs, refs)): the count is the index's. */
struct idr item_idr;
static struct item *item_add_published(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return NULL;
  if (idr_alloc(&item_idr, it, 0, 0, GFP_KERNEL) < 0) {
    kfree(it);
    return NULL;
  }
  refcount_set(&it->users, 1);
  return it;
}
void ok_published_before_init(void) {
  item_add_published(); // no-warning
}

/* A created object is real memory, never an ERR_PTR(): the caller's
 * IS_ERR() branch is not taken with it (qdisc_alloc() inlined into
 * qdisc_create_dflt(), rule counted-not-errptr). */
static struct item *item_alloc_or_err(int n) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return ERR_PTR(-ENOMEM);
  if (n > 3) {
    kfree(it);
    return ERR_PTR(-EINVAL);
  }
  refcount_set(&it->users, 1);
  return it;
}
struct item *ok_created_not_err(int n) {
  struct item *it = item_alloc_or_err(n);
  if (IS_ERR(it))
    return NULL; // no-warning
  return it;
}

/* refcount_add() is a counting row: its name's word `add` is no hand-over
 * (counting APIs get no naming rule). */
int leak_after_refcount_add(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  refcount_add(2, &it->users);
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  current_item = it;
  return 0;
}

int twin_after_refcount_add(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  refcount_add(2, &it->users);
  if (item_setup(it)) {
    kref_put(&it->ref, item_release);
    return -EINVAL; // no-warning
  }
  current_item = it;
  return 0;
}

/* An anonymous-inode file keeps its priv argument (a `stores` row): the new
 * object's first count goes to the file (do_epoll_create()). */
extern const struct file_operations item_fops;
int twin_anon_inode_file(void) {
  struct file *file;
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  refcount_set(&it->users, 1);
  file = anon_inode_getfile("[item]", &item_fops, it, 0);
  if (IS_ERR(file))
    return PTR_ERR(file);
  return 0; // no-warning
}

int leak_anon_inode_other(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int fd;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  fd = anon_inode_getfd("[item]", &item_fops, NULL, 0); // on-warning{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  return fd;
}

/* An index insert that fails keeps nothing (`stores` rows with `fails`:
 * idr_alloc() < 0, xa_insert() != 0, anon_inode_getfd() < 0): on that path
 * the object is still the caller's (alloc_drm_dp_aux_dev(), whose
 * idr_alloc() failure path lost its kfree()). */
struct xarray item_xa;
int leak_idr_alloc_failed(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int id;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  id = idr_alloc(&item_idr, it, 0, 0, GFP_KERNEL); // on-note{{The call to idr_alloc() fails: it keeps nothing, and 'it' is still this path's to put}}
  if (id < 0) // on-note{{'id' is < 0}} on-note{{Taking true branch}}
    return id; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  it->id = id;
  return 0;
}

int twin_idr_alloc_failed_freed(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int id;
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  id = idr_alloc(&item_idr, it, 0, 0, GFP_KERNEL);
  if (id < 0) {
    kfree(it);
    return id;
  }
  it->id = id;
  return 0; // no-warning
}

int leak_xa_insert_failed(unsigned long index) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int err;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  err = xa_insert(&item_xa, index, it, GFP_KERNEL); // on-warning{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The call to xa_insert() fails: it keeps nothing, and 'it' is still this path's to put}} on-note{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  if (err)
    return err;
  return 0;
}

int twin_xa_insert_failed_put(unsigned long index) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int err;
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  err = xa_insert(&item_xa, index, it, GFP_KERNEL);
  if (err)
    kref_put(&it->ref, item_release);
  return err; // no-warning
}

int leak_anon_inode_fd_failed(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int fd;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  fd = anon_inode_getfd("[item]", &item_fops, it, 0); // on-warning{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The call to anon_inode_getfd() fails: it keeps nothing, and 'it' is still this path's to put}} on-note{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  if (fd < 0)
    return fd;
  return fd;
}

int twin_anon_inode_fd_failed_freed(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int fd;
  if (!it)
    return -ENOMEM;
  refcount_set(&it->users, 1);
  fd = anon_inode_getfd("[item]", &item_fops, it, 0);
  if (fd < 0)
    kfree(it);
  return fd; // no-warning
}

/* A constructor of another translation unit (a `*alloc*` function that is
 * not a memory allocator: netfs_alloc_request()) returns its object with
 * its counts set; a count set to one later (a pending-I/O count) is not
 * the object's first reference. */
struct item *item_alloc_request(int n);
int twin_constructed_elsewhere(int n) {
  struct item *it = item_alloc_request(n);
  if (!it)
    return -ENOMEM;
  refcount_set(&it->users, 1);
  if (item_setup(it))
    return -EINVAL; // no-warning
  current_item = it;
  return 0;
}

/* Rule asm-stores: a pointer given to inline assembly that writes memory
 * may be stored by it (the kernel's cmpxchg(): debugfs_file_get() publishes
 * its new fsd with cmpxchg(&dentry->d_fsdata, d_fsd, fsd)). An asm given
 * no pointer (barrier()) publishes nothing. (An asm given the pointer
 * without writing memory is no store for the rule, but LLVM 22's engine
 * itself escapes every asm operand.) */
void *item_slot;
int twin_published_by_asm(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  void *old = 0, *prev;
  if (!it)
    return -ENOMEM;
  refcount_set(&it->users, 1);
  __asm__ volatile("lock; cmpxchgq %2,%1"
                   : "=a"(prev), "+m"(item_slot)
                   : "r"(it), "0"(old)
                   : "memory");
  if (item_setup(it))
    return -EIO; // no-warning
  return 0;
}

int leak_after_barrier(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  __asm__ volatile("" : : : "memory"); /* barrier(): given nothing */
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    return -EIO; // on-warning{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}} on-note{{The new object 'it', whose count refcount_set() set to one, is neither put nor freed on this path (missing refcount_dec_and_test())}}
  return 0;
}

/* Published through a function pointer before its count is set (rule
 * indirect-call-keeps: the callee may queue it; its count is then the
 * queue's). Only memory this path allocated is published so: a pointer of
 * another object given to the call publishes nothing of the new one. */
struct item_queue {
  void (*queue)(struct item *it);
};

int item_queued_before_init(struct item_queue *q) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  q->queue(it);
  kref_init(&it->ref);
  return 0; // no-warning
}

int item_other_queued_before_init(struct item_queue *q, struct item *old) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  q->queue(old);
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  return 0; // on-warning{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'it', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}
