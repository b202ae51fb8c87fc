// RUN: %analyze -analyzer-checker=refcount.BiasedCount -analyzer-config refcount.BiasedCount:AllowList='NODE_DEACTIVATED_BIAS;parked;S_BIAS' -analyzer-config refcount.BiasedCount:Threshold=1024 %inline -verify %s
// RUN: %analyze -analyzer-checker=refcount.BiasedCount -analyzer-config refcount.BiasedCount:AllowList='NODE_DEACTIVATED_BIAS;parked;S_BIAS' -analyzer-config refcount.BiasedCount:Threshold=1024 %proto -verify %s
//
// refcount.BiasedCount options: AllowList replaces the default list (so
// PERCPU_COUNT_BIAS is reported here) and names biases or counter fields;
// Threshold lowers the magnitude that makes a constant a bias.

#define NODE_DEACTIVATED_BIAS (INT_MIN + 1)
#define PERCPU_COUNT_BIAS (1LLU << 63)
#define S_BIAS (1 << 30)

struct node {
  refcount_t active;
  refcount_t parked; /* allow-listed by field name */
  atomic_long_t count;
};

void node_deactivate(struct node *n) {
  refcount_set(&n->active, NODE_DEACTIVATED_BIAS); // no-warning
}

void node_park(struct node *n) {
  refcount_set(&n->parked, INT_MIN); // no-warning
}

void node_unpark(struct node *n) {
  refcount_set(&n->active, INT_MIN); // expected-warning{{Reference count 'n->active' is set to a bias (INT_MIN = -2147483648)}}
  // expected-note@-1{{set to a bias}}
}

void node_super(struct node *n) {
  refcount_add(S_BIAS, &n->active); // no-warning
}

void node_percpu(struct node *n) {
  if (atomic_long_dec_and_test(&n->count)) // #count_life
    return;
  atomic_long_add(PERCPU_COUNT_BIAS, &n->count); // expected-warning{{offset by a bias (PERCPU_COUNT_BIAS = -9223372036854775808)}}
  // expected-note@-1{{offset by a bias}}
  // expected-note@#count_life{{'struct node::count' is used as a reference count here}}
}

void node_threshold(struct node *n) {
  refcount_add(2048, &n->active); // expected-warning{{offset by a bias (2048)}}
  // expected-note@-1{{offset by a bias}}
}

void node_below_threshold(struct node *n) {
  refcount_add(1000, &n->active); // no-warning
}
