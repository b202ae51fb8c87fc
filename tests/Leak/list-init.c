// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,inline %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,proto %s

/* refcount.Leak: INIT_LIST_HEAD() of a list field of a new object links it
 * nowhere; the model file's `borrow` rows (INIT_LIST_HEAD, INIT_HLIST_NODE,
 * init_llist_head, ...) keep rule list-node-handover from reading it as a
 * publication. The configfs_new_dirent() shape with its free removed: a
 * leak (`proto`) and its twin with the free.
 *
 * Known gap (`inline`): where INIT_LIST_HEAD() has its body (the kernel's
 * headers), the body's `list->next = list` stores a pointer to the object
 * into the object, which the analyzer's escape-on-bind hands to the model
 * as a store into memory outliving the function: the object counts as
 * published and the leak is missed. The inline run pins that gap down; a
 * rule that stores of an object's address into the object itself publish
 * nothing will turn its `inline` silence into the `proto` report. */

// inline-no-diagnostics

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
  if (!sd) // proto-note{{Assuming 'sd' is non-null}} proto-note{{Taking false branch}}
    return ERR_PTR(-ENOMEM);
  atomic_set(&sd->s_count, 1); // proto-note{{The call to atomic_set() sets the count of the new object 'sd' to one: this path holds its first reference}}
  INIT_LIST_HEAD(&sd->children);
  sd->type = type;
  spin_lock(&dirent_lock);
  if (parent->type & 4) { // proto-note{{Assuming the condition is true}} proto-note{{Taking true branch}}
    spin_unlock(&dirent_lock); // proto-warning{{The new object 'sd', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}} proto-note{{The new object 'sd', whose count atomic_set() set to one, is neither put nor freed on this path (missing atomic_dec_and_test())}}
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
