// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,nokeep %s -analyzer-config refcount:DisableRules=opaque-call-may-keep

/* refcount.Leak, rule fresh-object-init in a constructor's body: what a
 * constructor does to its new object's fields after kref_init() publishes
 * nothing by itself (the shapes of three seeded bugs on Linux 6.12:
 * qaic_open(), kmod_dup_request_exists_wait(), dpll_device_alloc()).
 * - A field given to a function the analyzer knows nothing about (a lock
 *   or timer set-up of another file) may be kept (rule
 *   opaque-call-may-keep): the object leaks on an error return still; with
 *   that rule off the field's address hands the object over (`nokeep`).
 * - A field given to a release-named call (`cleanup_srcu_struct(&o->srcu)`)
 *   ends that field, not the object (rule name-gives-up reads the object
 *   or its count only).
 * - Initializers (`__init_waitqueue_head`: `borrow` rows, whatever
 *   "queue" says) and string or memory functions (`keeps-nothing` rows:
 *   strscpy(o->name, ...)) keep nothing; a log line neither.
 * - mutex_lock_interruptible() fails with a negative errno: returning it
 *   is an error return.
 * - A free given a field (`call_rcu(&o->rcu, cb)`: `calls: frees`) frees
 *   the object through it (perf_event_alloc()'s error path).
 * Twins: the object freed or put on those paths. */

struct wq_head { int lock; };
struct srcu_like { int idx; };
struct thing {
  struct kref ref;
  struct wq_head wait;
  struct srcu_like srcu;
  char name[16];
  int handle;
  struct rcu_head rcu;
};
void __init_waitqueue_head(struct wq_head *wq, const char *name, void *key);
long sized_strscpy(char *dst, const char *src, long count);
#define strscpy(d, s) sized_strscpy(d, s, sizeof(d))
void thing_lock_setup(struct srcu_like *s);
void cleanup_srcu_struct(struct srcu_like *s);
int thing_register(struct thing *t);
struct mutex things_mutex;
struct thing *things_last;

int leak_after_field_setup(int n) {
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t) // on-note{{Assuming 't' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&t->ref); // on-note{{The call to kref_init() sets the count of the new object 't' to one: this path holds its first reference}}
  thing_lock_setup(&t->srcu);
  if (n > 4) // on-note{{Assuming 'n' is > 4}} on-note{{Taking true branch}}
    return -EINVAL; // on-warning{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  things_last = t;
  return 0;
}

int twin_after_field_setup_freed(int n) {
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t)
    return -ENOMEM;
  kref_init(&t->ref);
  thing_lock_setup(&t->srcu);
  if (n > 4) {
    kfree(t);
    return -EINVAL; // no-warning
  }
  things_last = t;
  return 0;
}

int leak_field_cleaned_up(void) {
  int ret;
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t) // on-note{{Assuming 't' is non-null}} on-note{{Taking false branch}}
    return -ENOMEM;
  kref_init(&t->ref); // on-note{{The call to kref_init() sets the count of the new object 't' to one: this path holds its first reference}}
  ret = mutex_lock_interruptible(&things_mutex);
  if (ret) // on-note{{'ret' is not equal to 0}} on-note{{Taking true branch}}
    goto cleanup; // on-note{{Control jumps to line 84}}
  things_last = t;
  mutex_unlock(&things_mutex);
  return 0;
cleanup:
  cleanup_srcu_struct(&t->srcu);
  return ret; // on-warning{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}

int twin_field_cleaned_up_freed(void) {
  int ret;
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t)
    return -ENOMEM;
  kref_init(&t->ref);
  ret = mutex_lock_interruptible(&things_mutex);
  if (ret)
    goto cleanup;
  things_last = t;
  mutex_unlock(&things_mutex);
  return 0;
cleanup:
  cleanup_srcu_struct(&t->srcu);
  kfree(t);
  return ret; // no-warning
}

_Bool leak_after_name_copy(const char *name, _Bool wait) {
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t) // on-note{{Assuming 't' is non-null}} on-note{{Taking false branch}} // nokeep-note{{Assuming 't' is non-null}} nokeep-note{{Taking false branch}}
    return 0;
  kref_init(&t->ref); // on-note{{The call to kref_init() sets the count of the new object 't' to one: this path holds its first reference}} // nokeep-note{{The call to kref_init() sets the count of the new object 't' to one: this path holds its first reference}}
  __init_waitqueue_head(&t->wait, "thing", 0);
  strscpy(t->name, name);
  printk("thing %s\n", t->name);
  if (!wait) // on-note{{Assuming 'wait' is false}} on-note{{Taking true branch}} // nokeep-note{{Assuming 'wait' is false}} nokeep-note{{Taking true branch}}
    return 0; // on-warning{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // nokeep-warning{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nokeep-note{{The new object 't', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  things_last = t;
  return 1;
}

_Bool twin_after_name_copy_put(const char *name, _Bool wait) {
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t)
    return 0;
  kref_init(&t->ref);
  __init_waitqueue_head(&t->wait, "thing", 0);
  strscpy(t->name, name);
  if (!wait) {
    kfree(t);
    return 0; // no-warning
  }
  things_last = t;
  return 1;
}

static void thing_free_rcu(struct rcu_head *h) {
  kfree(container_of(h, struct thing, rcu));
}
int twin_freed_through_rcu(int n) {
  struct thing *t = kzalloc(sizeof(*t), GFP_KERNEL);
  if (!t)
    return -ENOMEM;
  kref_init(&t->ref);
  thing_lock_setup(&t->srcu);
  if (n > 4) {
    call_rcu(&t->rcu, thing_free_rcu);
    return -EINVAL; // no-warning
  }
  things_last = t;
  return 0;
}
