// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init

/* refcount.UseAfterPut, rule fresh-object-init (issue 16, class 1): once
 * the path puts the only count of an object it allocated and initialized to
 * one, the release may have freed it: a later use is a use after free
 * (`on`). Positives: a field read, a field write, the pointer passed to a
 * call, a use after the error branch's put, after a put in an inlined
 * helper, a returned field, a use in a loop after the put, after
 * kref_put_lock() and kref_put_mutex(), a use through an alias, a list
 * unlink after the put, a creator of this TU inlined
 * into its caller. Twins: the same uses before the put, an extra get held
 * across the put, a count set to two, device-managed memory, the put as the
 * last use, values read before the put, a pointer reassigned after the put,
 * the release code after refcount_dec_and_test() dropped the count.
 * With the rule disabled (`off`), only rule release-ran reports, where the
 * code tested the put's result (kref_put_lock(), kref_put_mutex()). */


struct item {
  int id;
  struct kref ref;
  refcount_t users;
  struct list_head node;
};
int item_setup(struct item *it);
int use(const void *p);
struct item *current_item;
static DEFINE_SPINLOCK(item_lock);
static DEFINE_MUTEX(item_mutex);

static void item_release(struct kref *k) {
  kfree(container_of(k, struct item, ref));
}
static void item_done(struct item *it) { kref_put(&it->ref, item_release); } // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
static struct item *item_create(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return NULL;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  return it;
}

int read_after_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  return it->id; // on-warning{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
}

void write_after_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  it->id = 0; // on-warning{{Write through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Write through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
}

void passed_after_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  use(it); // on-warning{{'it' is passed to use() after kref_put() released the last reference this path held; the object may already be freed}} on-note{{'it' is passed to use() after kref_put() released the last reference this path held; the object may already be freed}}
}

int after_error_branch(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int ret;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  ret = item_setup(it);
  if (ret) { // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
    printk("setup of %d failed\n", it->id); // on-warning{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
    return ret;
  }
  current_item = it;
  return 0;
}

void after_inlined_helper(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  item_done(it); // on-note{{Calling 'item_done'}} on-note{{Returning from 'item_done'}}
  it->id = 1; // on-warning{{Write through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Write through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
}

int returned_field(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int *p;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  p = &it->id;
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  return *p; // on-warning{{Read through 'p' (the same object as 'it' on this path) after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Read through 'p' (the same object as 'it' on this path) after kref_put() released the last reference this path held; the object may already be freed}}
}

void in_loop_after_put(int n) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  for (int i = 0; i < n; i++) // on-note{{Assuming 'i' is < 'n'}} on-note{{Loop condition is true.  Entering loop body}}
    it->id += i; // on-warning{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
}

void after_put_lock(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL); // off-note{{Object allocated zero-filled by kzalloc(): its counts are zero until initialized}}
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}} off-note{{Assuming 'it' is non-null}} off-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (kref_put_lock(&it->ref, item_release, &item_lock)) // on-note{{Reference to 'it' released by kref_put_lock(): this path holds no more references to it}} on-note{{Taking false branch}} off-note{{The count of 'it->ref' drops to zero in kref_put_lock(), which returns true: item_release() ran and freed the object}} off-note{{Taking true branch}}
    spin_unlock(&item_lock);
  it->id = 2; // on-warning{{Write through 'it' after kref_put_lock() released the last reference this path held; the object may already be freed}} on-note{{Write through 'it' after kref_put_lock() released the last reference this path held; the object may already be freed}} off-warning{{Write through 'it' after kref_put_lock() returned true: item_release() ran and freed the object}} off-note{{Write through 'it' after kref_put_lock() returned true: item_release() ran and freed the object}}
}

void after_put_mutex(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL); // off-note{{Object allocated zero-filled by kzalloc(): its counts are zero until initialized}}
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}} off-note{{Assuming 'it' is non-null}} off-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (kref_put_mutex(&it->ref, item_release, &item_mutex)) // on-note{{Reference to 'it' released by kref_put_mutex(): this path holds no more references to it}} on-note{{Taking false branch}} off-note{{The count of 'it->ref' drops to zero in kref_put_mutex(), which returns true: item_release() ran and freed the object}} off-note{{Taking true branch}}
    mutex_unlock(&item_mutex);
  it->id = 3; // on-warning{{Write through 'it' after kref_put_mutex() released the last reference this path held; the object may already be freed}} on-note{{Write through 'it' after kref_put_mutex() released the last reference this path held; the object may already be freed}} off-warning{{Write through 'it' after kref_put_mutex() returned true: item_release() ran and freed the object}} off-note{{Write through 'it' after kref_put_mutex() returned true: item_release() ran and freed the object}}
}

void via_alias(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  struct item *alias;
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  alias = it;
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  alias->id = 4; // on-warning{{Write through 'alias' (the same object as 'it' on this path) after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Write through 'alias' (the same object as 'it' on this path) after kref_put() released the last reference this path held; the object may already be freed}}
}

void unlink_after_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  use(&it->node); // on-warning{{'it' is passed to use() after kref_put() released the last reference this path held; the object may already be freed}} on-note{{'it' is passed to use() after kref_put() released the last reference this path held; the object may already be freed}}
}

int inlined_creator(void) {
  struct item *it = item_create(); // on-note{{Calling 'item_create'}} on-note{{Returning from 'item_create'}}
  if (!it) // on-note{{'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  return it->id; // on-warning{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}} on-note{{Read through 'it' after kref_put() released the last reference this path held; the object may already be freed}}
}

/* ---- twins ---- */

int ok_read_before_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int id;
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  id = it->id;
  kref_put(&it->ref, item_release);
  return id; // no-warning
}

void ok_extra_get(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_get(&it->ref);
  kref_put(&it->ref, item_release);
  it->id = 0; // no-warning
  kref_put(&it->ref, item_release);
}

void ok_count_two(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 2);
  refcount_dec(&it->users);
  it->id = 4; // no-warning
}

void ok_device_managed(struct device *dev) {
  struct item *it = devm_kzalloc(dev, sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_put(&it->ref, item_release);
  it->id = 5; // no-warning
}

void ok_put_last(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  it->id = 6;
  use(it);
  kref_put(&it->ref, item_release); // no-warning
}

void ok_reassigned(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_put(&it->ref, item_release);
  it = current_item;
  if (it)
    it->id = 7; // no-warning
}

int ok_error_branch_before_put(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  int ret;
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  ret = item_setup(it);
  if (ret) {
    printk("setup of %d failed\n", it->id);
    kref_put(&it->ref, item_release);
    return ret; // no-warning
  }
  current_item = it;
  return 0;
}

void ok_helper_last(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  it->id = 1;
  item_done(it); // no-warning
}

void ok_loop_before_put(int n) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  for (int i = 0; i < n; i++)
    it->id += i;
  kref_put(&it->ref, item_release); // no-warning
}

void ok_put_lock_last(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  it->id = 2;
  if (kref_put_lock(&it->ref, item_release, &item_lock)) // no-warning
    spin_unlock(&item_lock);
}

int ok_inlined_creator(void) {
  struct item *it = item_create();
  int id;
  if (!it)
    return -ENOMEM;
  id = it->id;
  kref_put(&it->ref, item_release);
  return id; // no-warning
}

/* After a counting put with no release callback, the code that follows is
 * the release (iblock_complete_cmd()). */
static void item_complete(struct item *it) {
  if (!refcount_dec_and_test(&it->users))
    return;
  use(it);
  kfree(it);
}
void ok_release_code(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 1);
  item_complete(it); // no-warning
}

void ok_refcount_test_frees(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 1);
  if (refcount_dec_and_test(&it->users))
    kfree(it); // no-warning
}
