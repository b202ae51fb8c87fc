// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline -analyzer-config refcount:ModelFile=%S/Inputs/models/tables-user.yaml %s 2>&1 | FileCheck %s --check-prefix=MODEL --implicit-check-not=warning:
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline %s 2>&1 | FileCheck %s --check-prefix=BUILTIN --implicit-check-not=warning:
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %inline -analyzer-config refcount:ModelFile=%S/Inputs/models/tables-user.yaml %s 2>&1 | FileCheck %s --check-prefix=ZMODEL --implicit-check-not=warning:
// RUN: %analyze -analyzer-checker=refcount.GetOnZero %inline %s 2>&1 | FileCheck %s --check-prefix=ZBUILTIN --allow-empty --implicit-check-not=warning:
//
// A user's model file adds rows to the tables besides `apis`
// (Inputs/models/tables-user.yaml): `locks`, `indexes`, `macros`,
// `calls`.

/* ===== locks: a lock wrapper without a body ===== */
struct gadget {
  atomic_t users;
  struct hlist_node hash;
  unsigned long id;
};
static struct hlist_head gadgets;
static DEFINE_SPINLOCK(gadgets_lock);
void gadget_table_lock(int flags, spinlock_t *lock);
void gadget_table_unlock(int flags, spinlock_t *lock);

void gadget_put(struct gadget *g) {
  gadget_table_lock(0, &gadgets_lock);
  if (atomic_dec_and_test(&g->users)) {
    hlist_del(&g->hash);
    kfree(g);
  }
  gadget_table_unlock(0, &gadgets_lock);
}

/* With the rows, the final put takes gadgets_lock (kcref style) and a plain
   get under it is a valid promotion; without them the put is bare (kref
   style) and the same get is reported. */
struct gadget *gadget_find(unsigned long id) {
  struct gadget *g;
  gadget_table_lock(0, &gadgets_lock);
  hlist_for_each_entry(g, &gadgets, hash) {
    if (g->id == id) {
      atomic_inc(&g->users);
      // BUILTIN: model-tables.c:[[@LINE-1]]:7: warning: Plain atomic_inc() on an internal reference from a hash-list walk
      gadget_table_unlock(0, &gadgets_lock);
      return g;
    }
  }
  gadget_table_unlock(0, &gadgets_lock);
  return NULL;
}

/* ===== indexes: a subsystem's own lookup ===== */
/* Its result is an internal reference only with the row. */
static DEFINE_SPINLOCK(other_lock);
struct gadget *gadget_table_find(unsigned long id);
struct gadget *gadget_get_by_id(unsigned long id) {
  struct gadget *g;
  spin_lock(&other_lock);
  g = gadget_table_find(id);
  if (g)
    atomic_inc(&g->users);
  // MODEL: model-tables.c:[[@LINE-1]]:5: warning: Plain atomic_inc() promotes an internal reference from a hash-list walk while holding 'other_lock' but not 'gadgets_lock'
  spin_unlock(&other_lock);
  return g;
}

/* ===== calls: a subsystem's own zero-filling allocator ===== */
struct gizmo {
  struct kref ref;
};
void *gadget_zalloc(unsigned long size);
struct gizmo *gizmo_new(void) {
  struct gizmo *z = gadget_zalloc(sizeof(*z));
  if (!z)
    return NULL;
  kref_get(&z->ref);
  // ZMODEL: model-tables.c:[[@LINE-1]]:3: warning: Call to kref_get() on 'z->ref' of a zero-filled object whose count was never initialized
  return z;
}
// ZBUILTIN-NOT: warning:
