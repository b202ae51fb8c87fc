// RUN: %analyze -analyzer-checker=refcount.BiasedCount %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.BiasedCount %proto -verify %s
//
// refcount.BiasedCount: a large value added to, subtracted from, set into or
// compared with a reference count to store one bit of state.

/* ---- kernfs-style: an atomic_t active count with a deactivation bias ---- */
#define NODE_DEACTIVATED_BIAS (INT_MIN + 1)

struct node {
  atomic_t active;
  atomic_t hits; /* statistics, never got or put */
  int flags;
  int bias_field;
};

struct node *node_get_active(struct node *n) {
  if (!atomic_inc_unless_negative(&n->active)) // #node_life
    return NULL;
  return n;
}

void node_put_active(struct node *n, struct completion *c) {
  int v = atomic_dec_return(&n->active);
  if (v != NODE_DEACTIVATED_BIAS) // expected-warning{{Reference count 'struct node::active' is compared with a bias (NODE_DEACTIVATED_BIAS = -2147483647): a bias stores one bit of state in the count; keep that state in a flag bit instead}}
    // expected-note@-1{{compared with a bias}}
    // expected-note@#node_life{{'struct node::active' is used as a reference count here}}
    return;
  complete(c);
}

void node_put_active_twin(struct node *n, struct completion *c) {
  int v = atomic_dec_return(&n->active);
  if (v != 0) // no-warning
    return;
  complete(c);
}

void node_put_active_assigned(struct node *n, struct completion *c) {
  int v;
  v = atomic_dec_return(&n->active);
  if (v == NODE_DEACTIVATED_BIAS) // expected-warning{{compared with a bias (NODE_DEACTIVATED_BIAS}}
    // expected-note@-1{{compared with a bias}}
    // expected-note@#node_life{{used as a reference count here}}
    complete(c);
  v = 3; // no longer the count
  if (v == NODE_DEACTIVATED_BIAS) // no-warning
    complete(c);
}

void node_deactivate(struct node *n) {
  atomic_set(&n->active, NODE_DEACTIVATED_BIAS); // expected-warning{{Reference count 'n->active' is set to a bias (NODE_DEACTIVATED_BIAS = -2147483647)}}
  // expected-note@-1{{set to a bias}}
  // expected-note@#node_life{{used as a reference count here}}
}

void node_deactivate_twin(struct node *n) {
  atomic_set(&n->active, 1); // no-warning
  n->flags |= 0x1;           // the same state as a flag bit
}

void node_activate(struct node *n) {
  atomic_sub(NODE_DEACTIVATED_BIAS, &n->active); // expected-warning{{Reference count 'n->active' is offset by a bias (NODE_DEACTIVATED_BIAS = -2147483647)}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#node_life{{used as a reference count here}}
}

void node_activate_twin(struct node *n) {
  atomic_sub(2, &n->active); // no-warning
}

void node_reactivate(struct node *n) {
  atomic_add(NODE_DEACTIVATED_BIAS, &n->active); // expected-warning{{is offset by a bias}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#node_life{{used as a reference count here}}
}

void node_reactivate_twin(struct node *n) {
  atomic_add(1, &n->active); // no-warning
}

bool node_drained(struct node *n) {
  return WARN_ON_ONCE(atomic_read(&n->active) != NODE_DEACTIVATED_BIAS); // expected-warning{{Reference count 'n->active' is compared with a bias}}
  // expected-note@-1{{compared with a bias}}
  // expected-note@#node_life{{used as a reference count here}}
}

bool node_drained_twin(struct node *n) {
  return WARN_ON_ONCE(atomic_read(&n->active) != 0); // no-warning
}

/* Statistics counters are not reference counts: no bias report. */
void node_stats(struct node *n) {
  atomic_inc(&n->hits);
  atomic_set(&n->hits, 1 << 20);                     // no-warning
  if (atomic_read(&n->hits) > NODE_DEACTIVATED_BIAS) // no-warning
    atomic_set(&n->hits, 0);
}

/* A plain int field named like a bias is no counter. */
void node_plain_field(struct node *n) {
  n->bias_field = NODE_DEACTIVATED_BIAS; // no-warning
}

/* ---- proc-style: an enumerator bias, added and compared in one go ---- */
enum { BIAS = -1U << 31 };

struct entry {
  atomic_t in_use;
  struct completion *done;
};

bool entry_use(struct entry *e) {
  return atomic_inc_unless_negative(&e->in_use); // #entry_life
}

void entry_unuse(struct entry *e) {
  if (atomic_dec_return(&e->in_use) == BIAS) // expected-warning{{Reference count 'e->in_use' is compared with a bias (BIAS = 2147483648)}}
    // expected-note@-1{{compared with a bias}}
    // expected-note@#entry_life{{'struct entry::in_use' is used as a reference count here}}
    complete(e->done);
}

void entry_unuse_twin(struct entry *e) {
  if (atomic_dec_return(&e->in_use) == 0) // no-warning
    complete(e->done);
}

void entry_rundown(struct entry *e) {
  /* One site, one report: the comparison repeats the bias of the call. */
  if (atomic_add_return(BIAS, &e->in_use) != BIAS) // expected-warning{{Reference count 'e->in_use' is offset by a bias (BIAS = -2147483648)}}
    // expected-note@-1{{offset by a bias}}
    // expected-note@#entry_life{{used as a reference count here}}
    complete(e->done);
}

void entry_rundown_twin(struct entry *e) {
  if (atomic_add_return(1, &e->in_use) != 1) // no-warning
    complete(e->done);
}

/* ---- refcount_t and kref are always reference counts ---- */
struct obj {
  refcount_t users;
  struct kref ref;
  atomic_long_t pins;
};

void obj_init(struct obj *o) {
  refcount_set(&o->users, 0x10000); // expected-warning{{Reference count 'o->users' is set to a bias (0x10000 = 65536)}}
  // expected-note@-1{{set to a bias}}
}

void obj_init_twin(struct obj *o) {
  refcount_set(&o->users, 1); // no-warning
}

bool obj_is_dying(struct obj *o) {
  return refcount_read(&o->users) == INT_MIN; // expected-warning{{Reference count 'o->users' is compared with a bias (INT_MIN = -2147483648)}}
  // expected-note@-1{{compared with a bias}}
}

/* An ordering against a large constant is an overflow guard, not a bias
 * test (kernel/trace/trace.c's buffer_pipe_buf_get). */
bool obj_too_many(struct obj *o) {
  return refcount_read(&o->users) > INT_MAX / 2; // no-warning
}

/* ... unless the constant is named a bias. */
#define OBJ_PIN_BIAS (1 << 10)
bool obj_is_pinned(struct obj *o) {
  return refcount_read(&o->users) >= OBJ_PIN_BIAS; // expected-warning{{Reference count 'o->users' is compared with a bias (OBJ_PIN_BIAS = 1024)}}
  // expected-note@-1{{compared with a bias}}
}

bool obj_is_last(struct obj *o) {
  return refcount_read(&o->users) == 1; // no-warning
}

void obj_add_many(struct obj *o) {
  refcount_add(1 << 24, &o->users); // expected-warning{{Reference count 'o->users' is offset by a bias (1 << 24 = 16777216)}}
  // expected-note@-1{{offset by a bias}}
}

void obj_add_some(struct obj *o) {
  refcount_add(4, &o->users); // no-warning
}

/* Any macro named *BIAS* is a bias, whatever its size. */
#define OBJ_SMALL_BIAS 64
void obj_small_bias(struct obj *o) {
  refcount_add(OBJ_SMALL_BIAS, &o->users); // expected-warning{{offset by a bias (OBJ_SMALL_BIAS = 64)}}
  // expected-note@-1{{offset by a bias}}
}

#define OBJ_SMALL_STEP 64
void obj_small_step(struct obj *o) {
  refcount_add(OBJ_SMALL_STEP, &o->users); // no-warning
}

/* A bias written straight into the insides of a kref. */
void kref_bias(struct obj *o) {
  o->ref.refcount.refs.counter = INT_MIN; // expected-warning{{Reference count 'o->ref.refcount.refs.counter' is set to a bias (INT_MIN = -2147483648)}}
  // expected-note@-1{{set to a bias}}
}

void kref_no_bias(struct obj *o) {
  o->ref.refcount.refs.counter = 1; // no-warning
}

/* A bias in a non-constant expression is still found by its name. */
void obj_pins_release(struct obj *o, long long count) {
  if (atomic_long_dec_and_test(&o->pins)) // #pins_life
    return;
  atomic_long_add(count - (1LL << 40), &o->pins); // expected-warning{{offset by a bias ((1LL << 40) = 1099511627776)}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#pins_life{{'struct obj::pins' is used as a reference count here}}
}

void obj_pins_twin(struct obj *o, long long count) {
  atomic_long_add(count - 1, &o->pins); // no-warning
}

/* ---- the default allow-list: documented kernel biases ---- */
#define PERCPU_COUNT_BIAS (1LLU << 63)
void percpu_style(struct obj *o) {
  atomic_long_add(PERCPU_COUNT_BIAS, &o->pins); // no-warning
}

void percpu_style_unlisted(struct obj *o) {
  atomic_long_add(1LL << 62, &o->pins); // expected-warning{{offset by a bias (1LL << 62 = 4611686018427387904)}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#pins_life{{'struct obj::pins' is used as a reference count here}}
}

struct frag_cache {
  atomic_t count;
  unsigned int pagecnt_bias;
};

void frag_refill(struct frag_cache *fc) {
  if (atomic_sub_and_test(fc->pagecnt_bias, &fc->count)) // no-warning
    fc->pagecnt_bias = 0;
}

/* i915_vma_pin_ww(): a packed second count (bindings above page users). */
#define I915_VMA_PAGES_ACTIVE ((1 << 24) | 1)
void vma_bind(struct obj *o) {
  atomic_long_add(I915_VMA_PAGES_ACTIVE, &o->pins); // no-warning
}

void vma_bind_unlisted(struct obj *o) {
  atomic_long_add((1 << 24) | 1, &o->pins); // expected-warning{{offset by a bias ((1 << 24) | 1 = 16777217)}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#pins_life{{'struct obj::pins' is used as a reference count here}}
}

/* clang's suppress attribute silences one site. */
void obj_init_suppressed(struct obj *o) {
  __attribute__((suppress)) refcount_set(&o->users, 0x10000); // no-warning
}
