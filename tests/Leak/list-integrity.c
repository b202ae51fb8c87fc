// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=nocheck,nocheckinl %s -analyzer-config refcount:ModelFile=%inputs/models/no-list-checks.yaml -analyzer-config refcount:DisableRules=name-takes-ownership
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=nocheck %s -analyzer-config refcount:DisableRules=name-takes-ownership
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify %s -analyzer-config ipa=none
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=noinl %s -analyzer-config ipa=none -analyzer-config refcount:DisableRules=body-escape

/* refcount.Leak: the list integrity checks of CONFIG_DEBUG_LIST and
 * CONFIG_LIST_HARDENED (`if (!__list_add_valid_or_report(new, prev, next))
 * return;` in __list_add()) fail only on a corrupted list. The model
 * file's `integrity-check` rows evaluate them as passing, so a new object
 * linked into a list before its count is set is published on every path
 * (qaic's add_wrapper(): list_add_tail(), then kref_init(); the caller
 * puts every wrapper of the list). Where the list insert has no body (the
 * prototype header), its name says it keeps what it is given (rule
 * name-takes-ownership), which publishes the object as a store does. With
 * the row disabled by a model file (`nocheck`: the check, named
 * `..._add_...`, would keep its arguments by name too, so that rule is off
 * as well), the failed check is a path on which the object was never
 * linked, and the leak reported there is false; so it is on the prototype
 * header without the naming rule. A list insert with a body the analyzer
 * does not inline (its budget spent: here `ipa=none`) may keep the object
 * too (rule body-escape; `noinl` with that rule off reports). */

// expected-no-diagnostics

struct wrapper {
  struct kref ref;
  struct list_head node;
  int len;
};
struct wrapper_list {
  struct list_head head;
};
static void wrapper_free(struct kref *k) {
  kfree(container_of(k, struct wrapper, ref));
}
void wrappers_put(struct wrapper_list *l);

static struct wrapper *add_wrapper(struct wrapper_list *l) {
  struct wrapper *w = kzalloc(sizeof(*w), GFP_KERNEL);
  if (!w) // nocheck-note{{Assuming 'w' is non-null}} nocheck-note{{Taking false branch}}
    return NULL;
  list_add(&w->node, &l->head); // nocheckinl-note{{Calling 'list_add'}} nocheckinl-note{{Returning from 'list_add'}} nocheckinl-note@kernel-inline.h:157 {{Assuming the condition is true}} nocheckinl-note@kernel-inline.h:157 {{Taking true branch}}
  kref_init(&w->ref); // nocheck-note{{The call to kref_init() sets the count of the new object 'w' to one: this path holds its first reference}}
  return w;
}

int twin_linked_before_init(struct wrapper_list *l, int len) {
  struct wrapper *w = add_wrapper(l); // nocheck-note{{Calling 'add_wrapper'}} nocheck-note{{Returning from 'add_wrapper'}}
  if (!w) // nocheck-note{{'w' is non-null}} nocheck-note{{Taking false branch}}
    return -ENOMEM;
  if (len > 64) // nocheck-note{{Assuming 'len' is > 64}} nocheck-note{{Taking true branch}}
    return -EINVAL; // nocheck-warning{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nocheck-note{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  w->len = len;
  return 0; // no-warning
}

int twin_linked_then_fails(struct wrapper_list *l, int len) {
  struct wrapper *w = kzalloc(sizeof(*w), GFP_KERNEL);
  if (!w) // noinl-note{{Assuming 'w' is non-null}} noinl-note{{Taking false branch}} // nocheck-note{{Assuming 'w' is non-null}} nocheck-note{{Taking false branch}}
    return -ENOMEM;
  list_add(&w->node, &l->head); // nocheckinl-note{{Calling 'list_add'}} nocheckinl-note{{Returning from 'list_add'}} nocheckinl-note@kernel-inline.h:157 {{Assuming the condition is true}} nocheckinl-note@kernel-inline.h:157 {{Taking true branch}}
  kref_init(&w->ref); // noinl-note{{The call to kref_init() sets the count of the new object 'w' to one: this path holds its first reference}} // nocheck-note{{The call to kref_init() sets the count of the new object 'w' to one: this path holds its first reference}}
  if (len > 64) // noinl-note{{Assuming 'len' is > 64}} noinl-note{{Taking true branch}} // nocheck-note{{Assuming 'len' is > 64}} nocheck-note{{Taking true branch}}
    return -EINVAL; // noinl-warning{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} noinl-note{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} // nocheck-warning{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} nocheck-note{{The new object 'w', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  w->len = len;
  return 0; // no-warning
}
