// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.UnsafePromotion %proto -verify %s
//
// refcount.UnsafePromotion with container_of spelled as pointer arithmetic,
// as older kernels and other C code bases define it (no statement
// expression, no `__mptr`, any macro name): list, hash-list and rb-tree
// walks over it, the arithmetic written out, offsetof written by hand, and
// the pre-4.x kernel's typed `__mptr` under another macro name. Each
// promotion with a plain get is reported; each twin uses
// kref_get_unless_zero(). A container_of() of the kref itself is no index
// node.

/* container_of as pointer arithmetic (older kernels, other code bases) */
#undef container_of
#define container_of(ptr, type, member)                                        \
  ((type *)((char *)(ptr) - offsetof(type, member)))
/* the pre-4.x kernel spelling: a typed __mptr, another macro name */
#define old_container_of(ptr, type, member)                                    \
  ({                                                                           \
    const __typeof__(((type *)0)->member) *__mptr = (ptr);                     \
    (type *)((char *)__mptr - offsetof(type, member));                         \
  })
/* offsetof by hand, as code without <stddef.h> writes it */
#define my_offsetof(type, member) ((unsigned long)&((type *)0)->member)

struct item {
  struct kref ref;
  struct list_head node;
  struct rb_node rb;
  struct hlist_node hash;
  int id;
};
static LIST_HEAD(items);
static struct rb_root item_tree;
static struct hlist_head item_hash;
static DEFINE_MUTEX(items_lock);

static void item_release(struct kref *ref) {
  struct item *it = container_of(ref, struct item, ref);
  mutex_lock(&items_lock);
  list_del(&it->node); // expected-note 7 {{The release of 'struct item::ref' takes the object off its index here, after the count reached zero}}
  mutex_unlock(&items_lock);
  kfree(it);
}
void item_put(struct item *it) {
  kref_put(&it->ref, item_release); // expected-note 7 {{The final put of 'struct item::ref' is a bare decrement-and-test here: kref style}}
}

struct item *walk(int id) {
  struct item *it;
  mutex_lock(&items_lock);
  list_for_each_entry(it, &items, node) { // expected-note{{Internal reference obtained from a list walk: it holds no count}} expected-note{{Loop condition is true.  Entering loop body}}
    if (it->id == id) { // expected-note{{Assuming 'id' is equal to field 'id'}} expected-note{{Taking true branch}}
      kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
      mutex_unlock(&items_lock);
      return it;
    }
  }
  mutex_unlock(&items_lock);
  return NULL;
}
struct item *walk_safe(int id) {
  struct item *it;
  mutex_lock(&items_lock);
  list_for_each_entry(it, &items, node) {
    if (it->id == id && kref_get_unless_zero(&it->ref)) { // no-warning
      mutex_unlock(&items_lock);
      return it;
    }
  }
  mutex_unlock(&items_lock);
  return NULL;
}
struct item *first(void) {
  struct item *it = list_first_entry_or_null(&items, struct item, node); // expected-note{{Assuming 'pos__' is not equal to 'head__'}} expected-note{{'?' condition is true}} expected-note{{Internal reference obtained from a list walk: it holds no count}}
  if (it) // expected-note{{Assuming 'it' is non-null}} expected-note{{Taking true branch}}
    kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
  return it;
}
struct item *first_safe(void) {
  struct item *it = list_first_entry_or_null(&items, struct item, node);
  if (it && !kref_get_unless_zero(&it->ref)) // no-warning
    return NULL;
  return it;
}
struct item *tree_first(void) {
  struct rb_node *n = item_tree.rb_node;
  struct item *it;
  if (!n) // expected-note{{Assuming 'n' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  it = rb_entry(n, struct item, rb); // expected-note{{Internal reference obtained from an rb-tree walk: it holds no count}}
  kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from an rb-tree walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from an rb-tree walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
  return it;
}
struct item *tree_first_safe(void) {
  struct rb_node *n = item_tree.rb_node;
  struct item *it;
  if (!n)
    return NULL;
  it = rb_entry(n, struct item, rb);
  return kref_get_unless_zero(&it->ref) ? it : NULL; // no-warning
}
struct item *hash_find(int id) {
  struct item *it;
  hlist_for_each_entry(it, &item_hash, hash) { // expected-note{{Assuming '____ptr' is non-null}} expected-note{{'?' condition is true}} expected-note{{Internal reference obtained from a hash-list walk: it holds no count}} expected-note{{Loop condition is true.  Entering loop body}}
    if (it->id == id) { // expected-note{{Assuming 'id' is equal to field 'id'}} expected-note{{Taking true branch}}
      kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a hash-list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a hash-list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
      return it;
    }
  }
  return NULL;
}
struct item *hash_find_safe(int id) {
  struct item *it;
  hlist_for_each_entry(it, &item_hash, hash)
    if (it->id == id && kref_get_unless_zero(&it->ref)) // no-warning
      return it;
  return NULL;
}
struct item *written_out(void) {
  struct rb_node *n = item_tree.rb_node;
  struct item *it;
  if (!n) // expected-note{{Assuming 'n' is non-null}} expected-note{{Taking false branch}}
    return NULL;
  it = (struct item *)((char *)n - offsetof(struct item, rb)); // expected-note{{Internal reference obtained from an rb-tree walk: it holds no count}}
  kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from an rb-tree walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from an rb-tree walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
  return it;
}
struct item *written_out_safe(void) {
  struct rb_node *n = item_tree.rb_node;
  struct item *it;
  if (!n)
    return NULL;
  it = (struct item *)((char *)n - offsetof(struct item, rb));
  return kref_get_unless_zero(&it->ref) ? it : NULL; // no-warning
}
struct item *by_hand_offsetof(void) {
  struct list_head *p = items.next;
  struct item *it;
  if (p == &items) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return NULL;
  it = (struct item *)((char *)p - my_offsetof(struct item, node)); // expected-note{{Internal reference obtained from a list walk: it holds no count}}
  kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
  return it;
}
struct item *by_hand_offsetof_safe(void) {
  struct list_head *p = items.next;
  struct item *it;
  if (p == &items)
    return NULL;
  it = (struct item *)((char *)p - my_offsetof(struct item, node));
  return kref_get_unless_zero(&it->ref) ? it : NULL; // no-warning
}
struct item *old_spelling(void) {
  struct list_head *p = items.next;
  struct item *it;
  if (p == &items) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return NULL;
  it = old_container_of(p, struct item, node); // expected-note{{Internal reference obtained from a list walk: it holds no count}}
  kref_get(&it->ref); // expected-warning{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}} expected-note{{Plain kref_get() on an internal reference from a list walk: the final put of 'struct item::ref' is a bare decrement-and-test (kref style) and its release takes the object off the index, so the count may already be zero; use kref_get_unless_zero() and check its result}}
  return it;
}
struct item *old_spelling_safe(void) {
  struct list_head *p = items.next;
  struct item *it;
  if (p == &items)
    return NULL;
  it = old_container_of(p, struct item, node);
  return kref_get_unless_zero(&it->ref) ? it : NULL; // no-warning
}
void from_the_kref(struct kref *r) {
  struct item *it = container_of(r, struct item, ref);
  kref_get(&it->ref); // no-warning: a kref is no index node
}
