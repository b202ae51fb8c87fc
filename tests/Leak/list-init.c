// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,noself %s -analyzer-config refcount:DisableRules=self-store

/* refcount.Leak: INIT_LIST_HEAD() of a list field of a new object links it
 * nowhere. On the prototype header the model file's `borrow` rows
 * (INIT_LIST_HEAD, INIT_HLIST_NODE, init_llist_head, ...) keep rule
 * list-node-handover from reading the call as a publication; where the
 * body is seen (the kernel's headers), its `list->next = list` stores the
 * object's address into the object itself, which the analyzer reports as
 * an escape, and rule self-store says it publishes nothing. The
 * configfs_new_dirent() shape with its free removed: a leak (`on`) and its
 * twin with the free. With rule self-store off, the inline-body header
 * misses the leak (`noself`). */

// noself-no-diagnostics

struct dirent {
  atomic_t s_count;
  int type;
  struct list_head sibling;
  struct list_head children;
};
static DEFINE_SPINLOCK(dirent_lock);
void release_dirent(struct dirent *sd);
void dirent_done(struct dirent *sd) {
  if (atomic_dec_and_test(&sd->s_count))
    release_dirent(sd);
}

struct dirent *leak_after_list_init(struct dirent *parent, int type) {
  struct dirent *sd = kzalloc(sizeof(*sd), GFP_KERNEL);
  if (!sd) // on-note{{Assuming 'sd' is non-null}} on-note{{Taking false branch}}
    return ERR_PTR(-ENOMEM);
  atomic_set(&sd->s_count, 1); // on-note{{The call to atomic_set() sets the count of the new object 'sd' to one: this path holds its first reference}}
  INIT_LIST_HEAD(&sd->children);
  sd->type = type;
  spin_lock(&dirent_lock);
  if (parent->type & 4) { // on-note{{Assuming the condition is true}} on-note{{Taking true branch}}
    spin_unlock(&dirent_lock); // on-warning{{The new object 'sd', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} on-note{{The new object 'sd', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
    return ERR_PTR(-ENOENT);
  }
  list_add(&sd->sibling, &parent->children);
  spin_unlock(&dirent_lock);
  return sd;
}

struct dirent *twin_after_list_init(struct dirent *parent, int type) {
  struct dirent *sd = kzalloc(sizeof(*sd), GFP_KERNEL);
  if (!sd)
    return ERR_PTR(-ENOMEM);
  atomic_set(&sd->s_count, 1);
  INIT_LIST_HEAD(&sd->children);
  sd->type = type;
  spin_lock(&dirent_lock);
  if (parent->type & 4) {
    spin_unlock(&dirent_lock);
    kfree(sd);
    return ERR_PTR(-ENOENT); // no-warning
  }
  list_add(&sd->sibling, &parent->children);
  spin_unlock(&dirent_lock);
  return sd;
}
