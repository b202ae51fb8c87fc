// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=release-ran
// RUN: %analyze -analyzer-checker=refcount.UseAfterPut %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=release-ran

/* refcount.UseAfterPut, rule release-ran: when the code tests the result of
 * kref_put() (kref_put_lock(), kref_put_mutex()) and the path takes the
 * outcome true, the release callback ran; if it frees the object (a free in
 * its body or one call deeper, or a body this TU does not have: the kref
 * contract), any later use of the object in that function is a use after
 * free, whoever owned the count (`on`). Positives: a write, a read, a stored
 * result, each put of the family, a callback that frees through a helper, by
 * call_rcu(), through container_of spelled with offsetof, or has no body
 * here, a goto to the exit label, a negated test, a ternary, an alias, a loop
 * over an array, a chain walk, a call the object is passed to. Twins: an
 * ignored, (void) or returned result, the not-zero outcome, a callback that
 * only signals a waiter, one that frees only what the object points to or
 * tears down one of its members, a use in the caller of a helper that tested,
 * a get before the put, values read before it, a pointer comparison, a
 * reassigned pointer, refcount_dec_and_test() (the code frees the object
 * itself), a pointer printed with %p, the chain walk that saves the parent
 * first, a get on the freed count (refcount.GetOnZero's). With the rule
 * disabled (`off`) nothing is reported. */

// off-no-diagnostics

struct obj {
  int val;
  struct kref ref;
  refcount_t cnt;
  struct completion done;
  char *buf;
  struct list_head node;
  struct device *dev;
  struct obj *parent;
  struct rcu_head rcu;
};
int use(const void *p);
void unlink_node(struct list_head *n);
static DEFINE_MUTEX(obj_mutex);
static DEFINE_SPINLOCK(obj_spin);
struct obj *obj_alloc(void);
struct obj *cached;

static void obj_release(struct kref *k) {
  struct obj *o = container_of(k, struct obj, ref);
  kfree(o->buf);
  kfree(o);
}
static void obj_free(struct obj *o) { kfree(o); }
static void obj_release_via_helper(struct kref *k) {
  obj_free(container_of(k, struct obj, ref));
}
void obj_release_elsewhere(struct kref *k);
/* container_of spelled as pointer arithmetic, as other code bases do */
static void obj_release_offsetof(struct kref *k) {
  struct obj *o = (struct obj *)((char *)k - offsetof(struct obj, ref));
  kfree(o);
}
void obj_free_rcu(struct rcu_head *head);
static void obj_release_rcu(struct kref *k) {
  struct obj *o = container_of(k, struct obj, ref);
  call_rcu(&o->rcu, obj_free_rcu);
}
void node_destroy(struct list_head *n);
static void obj_release_tears_down_member(struct kref *k) {
  struct obj *o = container_of(k, struct obj, ref);
  node_destroy(&o->node);
}
static void obj_release_frees_buffer(struct kref *k) {
  struct obj *o = container_of(k, struct obj, ref);
  kfree(o->buf);
  o->buf = 0;
}
static void obj_release_signals(struct kref *k) {
  struct obj *o = container_of(k, struct obj, ref);
  complete(&o->done);
}

void write_after_release(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    o->val = 0; // USE AFTER FREE // on-warning{{Write through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Write through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}
int read_after_release(struct obj *o) {
  if (kref_put(&o->ref, obj_release)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    return o->val; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
  return 0;
}
void stored_result(struct obj *o) {
  int last = kref_put(&o->ref, obj_release); // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}}
  if (last) // on-note{{'last' is 1}} on-note{{Taking true branch}}
    printk("freed %d\n", o->val); // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}
void put_mutex_then_unlink(struct obj *o) {
  if (kref_put_mutex(&o->ref, obj_release, &obj_mutex)) { // on-note{{The count of 'o->ref' drops to zero in kref_put_mutex(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    unlink_node(&o->node); // USE AFTER FREE // on-warning{{'&o->node' is passed to unlink_node() after kref_put_mutex() returned true: obj_release() ran and freed the object}} on-note{{'&o->node' is passed to unlink_node() after kref_put_mutex() returned true: obj_release() ran and freed the object}}
    mutex_unlock(&obj_mutex);
  }
}
void put_lock_then_clear(struct obj *o) {
  if (kref_put_lock(&o->ref, obj_release, &obj_spin)) { // on-note{{The count of 'o->ref' drops to zero in kref_put_lock(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    o->buf = 0; // USE AFTER FREE // on-warning{{Write through 'o' after kref_put_lock() returned true: obj_release() ran and freed the object}} on-note{{Write through 'o' after kref_put_lock() returned true: obj_release() ran and freed the object}}
    spin_unlock(&obj_spin);
  }
}
int release_frees_in_helper(struct obj *o) {
  if (kref_put(&o->ref, obj_release_via_helper)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release_via_helper() ran and freed the object}} on-note{{Taking true branch}}
    return o->val; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release_via_helper() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release_via_helper() ran and freed the object}}
  return 0;
}
int release_defined_elsewhere(struct obj *o) {
  if (kref_put(&o->ref, obj_release_elsewhere)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release_elsewhere() ran and freed the object}} on-note{{Taking true branch}}
    return use(o); // USE AFTER FREE // on-warning{{'o' is passed to use() after kref_put() returned true: obj_release_elsewhere() ran and freed the object}} on-note{{'o' is passed to use() after kref_put() returned true: obj_release_elsewhere() ran and freed the object}}
  return 0;
}
/* A release of the model file's `calls: non-freeing-releases` (the xe
 * driver's dummy, whose free is deferred to a list) frees nothing. */
void __xe_bo_release_dummy(struct kref *k);
int release_non_freeing(struct obj *o) {
  if (kref_put(&o->ref, __xe_bo_release_dummy))
    return use(o); // no-warning: the release frees nothing (model file)
  return 0;
}
int release_offsetof_spelling(struct obj *o) {
  if (kref_put(&o->ref, obj_release_offsetof)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release_offsetof() ran and freed the object}} on-note{{Taking true branch}}
    return o->val; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release_offsetof() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release_offsetof() ran and freed the object}}
  return 0;
}
int release_by_rcu(struct obj *o) {
  if (kref_put(&o->ref, obj_release_rcu)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release_rcu() ran and freed the object}} on-note{{Taking true branch}}
    return o->val; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release_rcu() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release_rcu() ran and freed the object}}
  return 0;
}
int goto_exit_label(struct obj *o) {
  int ret = 0;
  if (kref_put(&o->ref, obj_release)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    goto out; // on-note{{Control jumps to line 140}}
  ret = 1;
out:
  dev_err(o->dev, "done %d\n", ret); // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
  return ret;
}
int negated_test(struct obj *o) {
  if (!kref_put(&o->ref, obj_release)) // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking false branch}}
    return 0;
  return o->val; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}
int ternary(struct obj *o) {
  return kref_put(&o->ref, obj_release) ? o->val : 0; // USE AFTER FREE // on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{'?' condition is true}} on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}
void through_alias(struct obj *o) {
  struct obj *same = o;
  if (kref_put(&same->ref, obj_release)) // on-note{{The count of 'same->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
    o->val = 0; // USE AFTER FREE // on-warning{{Write through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Write through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}
int loop_over_array(struct obj **objs, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) // on-note{{Assuming 'i' is < 'n'}} on-note{{Loop condition is true.  Entering loop body}}
    if (kref_put(&objs[i]->ref, obj_release)) // on-note{{The count of 'objs[i]->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Taking true branch}}
      sum += objs[i]->val; // USE AFTER FREE // on-warning{{Read through 'objs[i]' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'objs[i]' after kref_put() returned true: obj_release() ran and freed the object}}
  return sum;
}
void chain_walk(struct obj *o) {
  while (o && kref_put(&o->ref, obj_release)) // on-note{{Assuming 'o' is non-null}} on-note{{Left side of '&&' is true}} on-note{{The count of 'o->ref' drops to zero in kref_put(), which returns true: obj_release() ran and freed the object}} on-note{{Loop condition is true.  Entering loop body}}
    o = o->parent; // USE AFTER FREE // on-warning{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}} on-note{{Read through 'o' after kref_put() returned true: obj_release() ran and freed the object}}
}

/* Twins. */
int ignored_result(struct obj *o) {
  kref_put(&o->ref, obj_release);
  return o->val; // no-warning: the true outcome is the analyzer's split
}
int void_result(struct obj *o) {
  (void)kref_put(&o->ref, obj_release);
  return o->val; // no-warning
}
int returned_result(struct obj *o) {
  return kref_put(&o->ref, obj_release); // no-warning: the caller tests it
}
int not_zero_outcome(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    return 0;
  return o->val; // no-warning: another count keeps it
}
int release_only_signals(struct obj *o) {
  if (kref_put(&o->ref, obj_release_signals))
    return o->val; // no-warning: the waiter frees it
  return 0;
}
static void obj_drop(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    printk("gone\n");
}
int use_in_caller(struct obj *o) {
  obj_drop(o);
  return o->val; // no-warning: the caller may hold another count
}
int get_before(struct obj *o) {
  kref_get(&o->ref);
  if (kref_put(&o->ref, obj_release))
    return o->val; // no-warning: the put cannot hit zero
  return 0;
}
int read_before(struct obj *o) {
  int v = o->val;
  if (kref_put(&o->ref, obj_release))
    return v; // no-warning
  return 0;
}
void pointer_comparison(struct obj *o) {
  if (kref_put(&o->ref, obj_release) && o == cached)
    cached = 0; // no-warning: only the pointer's value
}
int reassigned(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    o = obj_alloc();
  return o->val; // no-warning: another object
}
void dec_and_test_frees_itself(struct obj *o) {
  if (refcount_dec_and_test(&o->cnt)) {
    unlink_node(&o->node); // no-warning: no callback ran, the code frees
    kfree(o);
  }
}
void printed_pointer(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    printk("freed %p\n", o); // no-warning: %p prints the value
}
void chain_walk_saves_parent(struct obj *o) {
  while (o) {
    struct obj *parent = o->parent;
    if (!kref_put(&o->ref, obj_release))
      break;
    o = parent; // no-warning
  }
}
void free_after_signal(struct obj *o) {
  if (kref_put(&o->ref, obj_release_signals))
    kfree(o); // no-warning: the code's own free after a callback that keeps it
}
void get_on_freed_count(struct obj *o) {
  if (kref_put(&o->ref, obj_release))
    kref_get(&o->ref); // no-warning: refcount.GetOnZero's report
}
int release_frees_a_member_only(struct obj *o) {
  if (kref_put(&o->ref, obj_release_frees_buffer))
    return o->val; // no-warning: the callback freed o->buf, not o
  return 0;
}
void release_tears_down_a_member(struct obj *o) {
  if (kref_put(&o->ref, obj_release_tears_down_member))
    o->parent = 0; // no-warning: node_destroy() took down o->node, not o
}
