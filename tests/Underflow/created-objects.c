// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Underflow %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init
// RUN: %analyze -analyzer-checker=refcount.Underflow %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-object-init

/* refcount.Underflow, rule fresh-object-init (issue 16, class 1): the
 * first count of an object the function allocated and initialized to one
 * is the path's; a second put of it without a get in between is a double
 * put (`on`). Positives: two puts in a row, an error branch that puts and
 * jumps to a label that puts again, a put in both the helper and its caller,
 * a loop that puts twice, refcount_dec_and_test() twice, kref_put_lock() and
 * kref_put_mutex() after kref_put(), a creator of this TU inlined into its
 * caller, a helper that puts, three puts after one get, a put in a branch
 * that does not return, refcount_dec() after refcount_dec_and_test(), a
 * switch case falling through. Twins: a get between the puts, the error
 * branch returning instead of jumping, one put per path, an extra get, a
 * count set to two, memory the device manages, the helper called once,
 * kref_put_lock() once, the branch that returns, the case that breaks. With the
 * rule disabled (`off`) nothing is reported. */

// off-no-diagnostics

struct item {
  int id;
  struct kref ref;
  refcount_t users;
};
int item_setup(struct item *it);
struct item *current_item;
static DEFINE_SPINLOCK(item_lock);
static DEFINE_MUTEX(item_mutex);

static void item_release(struct kref *k) {
  kfree(container_of(k, struct item, ref));
}
/* Named without a release word: a callee named `*_put` gives the object
 * up by rule name-gives-up before its inlined body is seen. */
static void item_done(struct item *it) { kref_put(&it->ref, item_release); } // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note 2{{Reference to 'it' released by kref_put(): this path holds no more references to it}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}

static struct item *item_create(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return NULL;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  return it;
}

void twice_in_a_row(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
}

int error_branch_then_label(void) {
  int ret;
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  ret = item_setup(it);
  if (ret) { // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
    kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
    goto out; // on-note{{Control jumps to line 71}}
  }
  current_item = it;
  return 0;
out:
  kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
  return ret;
}

int helper_and_caller(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    item_done(it); // on-note{{Calling 'item_done'}} on-note{{Returning from 'item_done'}}
    kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
    return -EIO;
  }
  current_item = it;
  return 0;
}

void loop_puts_twice(int n) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  for (int i = 0; i < 2; i++) // on-note 2{{Loop condition is true.  Entering loop body}}
    kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
}

void refcount_twice(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (refcount_dec_and_test(&it->users)) // on-note{{Reference to 'it' released by refcount_dec_and_test(): this path holds no more references to it}} on-note{{Taking false branch}}
    kfree(it);
  if (refcount_dec_and_test(&it->users)) // on-warning{{The call to refcount_dec_and_test() puts 'it' again: this path already released every reference it took}} on-note{{The call to refcount_dec_and_test() puts 'it' again: this path already released every reference it took}}
    kfree(it);
}

void put_then_put_lock(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  if (kref_put_lock(&it->ref, item_release, &item_lock)) // on-warning{{The call to kref_put_lock() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put_lock() puts 'it' again: this path already released every reference it took}}
    spin_unlock(&item_lock);
}

void put_then_put_mutex(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  if (kref_put_mutex(&it->ref, item_release, &item_mutex)) // on-warning{{The call to kref_put_mutex() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put_mutex() puts 'it' again: this path already released every reference it took}}
    mutex_unlock(&item_mutex);
}

void inlined_creator(void) {
  struct item *it = item_create(); // on-note{{Calling 'item_create'}} on-note{{Returning from 'item_create'}}
  if (!it) // on-note{{'it' is non-null}} on-note{{Taking false branch}}
    return;
  item_done(it); // on-note{{Calling 'item_done'}} on-note{{Returning from 'item_done'}}
  item_done(it); // on-note{{Calling 'item_done'}}
}

void one_get_two_extra_puts(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  kref_get(&it->ref); // on-note{{Reference to 'it' taken by kref_get()}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put()}}
  kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
}

int put_in_branch_then_after(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (item_setup(it)) // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
  kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
  return 0;
}

void refcount_dec_after_test(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  refcount_set(&it->users, 1); // on-note{{The call to refcount_set() sets the count of the new object 'it' to one: this path holds its first reference}}
  if (refcount_dec_and_test(&it->users)) // on-note{{Reference to 'it' released by refcount_dec_and_test(): this path holds no more references to it}} on-note{{Taking false branch}}
    return;
  refcount_dec(&it->users); // on-warning{{The call to refcount_dec() puts 'it' again: this path already released every reference it took}} on-note{{The call to refcount_dec() puts 'it' again: this path already released every reference it took}}
}

void switch_falls_through(int mode) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it) // on-note{{Assuming 'it' is non-null}} on-note{{Taking false branch}}
    return;
  kref_init(&it->ref); // on-note{{The call to kref_init() sets the count of the new object 'it' to one: this path holds its first reference}}
  switch (mode) { // on-note{{Control jumps to 'case 0:'  at line 175}}
  case 0:
    kref_put(&it->ref, item_release); // on-note{{Reference to 'it' released by kref_put(): this path holds no more references to it}}
    /* fall through */
  case 1:
    kref_put(&it->ref, item_release); // on-warning{{The call to kref_put() puts 'it' again: this path already released every reference it took}} on-note{{The call to kref_put() puts 'it' again: this path already released every reference it took}}
    break;
  default:
    current_item = it;
  }
}

/* ---- twins ---- */

int ok_branch_returns(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  if (item_setup(it)) {
    kref_put(&it->ref, item_release);
    return -EIO;
  }
  kref_put(&it->ref, item_release); // no-warning
  return 0;
}

void ok_switch_breaks(int mode) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  switch (mode) {
  case 0:
    kref_put(&it->ref, item_release);
    break;
  case 1:
    kref_put(&it->ref, item_release); // no-warning
    break;
  default:
    current_item = it;
  }
}

void ok_refcount_two_puts(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 1);
  refcount_inc(&it->users);
  refcount_dec(&it->users);
  if (refcount_dec_and_test(&it->users)) // no-warning
    kfree(it);
}


void ok_get_between(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_put(&it->ref, item_release);
  kref_get(&it->ref);
  kref_put(&it->ref, item_release); // no-warning
}

int ok_error_branch_returns(void) {
  int ret;
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return -ENOMEM;
  kref_init(&it->ref);
  ret = item_setup(it);
  if (ret) {
    kref_put(&it->ref, item_release);
    return ret;
  }
  current_item = it;
  return 0; // no-warning
}

void ok_extra_get(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_get(&it->ref);
  kref_put(&it->ref, item_release);
  kref_put(&it->ref, item_release); // no-warning
}

void ok_refcount_once(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 1);
  if (refcount_dec_and_test(&it->users)) // no-warning
    kfree(it);
}

void ok_count_two(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  refcount_set(&it->users, 2);
  refcount_dec(&it->users);
  if (refcount_dec_and_test(&it->users)) // no-warning
    kfree(it);
}

void ok_device_managed(struct device *dev) {
  struct item *it = devm_kzalloc(dev, sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  kref_put(&it->ref, item_release);
}

void ok_inlined_creator(void) {
  struct item *it = item_create();
  if (!it)
    return;
  item_done(it); // no-warning
}

void ok_put_under_lock(void) {
  struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);
  if (!it)
    return;
  kref_init(&it->ref);
  if (kref_put_lock(&it->ref, item_release, &item_lock)) // no-warning
    spin_unlock(&item_lock);
}
