// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=proven-equal
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=proven-equal

/* refcount.Leak, rule proven-equal: a put of a pointer the path has proven
 * equal to one it holds a count on (`if (old == gang)` taken, `if (cur !=
 * np)` not taken) drops that count: two pointers the path knows equal name
 * one object (drivers/gpu/drm/amd/amdgpu/amdgpu_device.c
 * amdgpu_device_switch_gang(): dma_fence_get(gang), then `old == gang` and
 * two dma_fence_put(old)). Positives (both modes): the put of a pointer
 * proven *different*, and a put of a pointer never compared. With the rule
 * off (prefix off) the put of the equal pointer is not matched and the
 * error return reports. */

struct gang {
  struct kref ref;
};
struct sched {
  struct gang *cur;
  struct device_node *node;
};
void gang_release(struct kref *k);

int switch_gang(struct sched *s, struct gang *g) {
  struct gang *old;

  kref_get(&g->ref); // off-note{{Reference to '&g->ref' taken by kref_get()}}
  old = s->cur;
  if (old == g) { // off-note{{Assuming 'old' is equal to 'g'}} off-note{{Taking true branch}}
    kref_put(&old->ref, gang_release); // off-note{{The call to kref_put() puts '&old->ref', not '&g->ref'}}
    return -EBUSY; // off-warning{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}} off-note{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}} (on: no-warning)
  }
  s->cur = g;
  return 0;
}

/* The equal pointer holds a count of its own: its first put drops that
 * one, the second the held object's. */
int switch_gang_counted(struct sched *s, struct gang *g) {
  struct gang *old;

  kref_get(&g->ref); // off-note{{Reference to '&g->ref' taken by kref_get()}}
  old = s->cur;
  kref_get(&old->ref);
  if (old == g) { // off-note{{Assuming 'old' is equal to 'g'}} off-note{{Taking true branch}}
    kref_put(&old->ref, gang_release);
    kref_put(&old->ref, gang_release); // off-note{{The call to kref_put() puts '&old->ref', not '&g->ref'}}
    return -EBUSY; // off-warning{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}} off-note{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}} (on: no-warning)
  }
  kref_put(&old->ref, gang_release);
  s->cur = g;
  return 0;
}

int switch_gang_different(struct sched *s, struct gang *g) {
  struct gang *old;

  kref_get(&g->ref); // expected-note{{Reference to '&g->ref' taken by kref_get()}}
  old = s->cur;
  if (old != g) { // expected-note{{Assuming 'old' is not equal to 'g'}} expected-note{{Taking true branch}}
    kref_put(&old->ref, gang_release); // expected-note{{The call to kref_put() puts '&old->ref', not '&g->ref'}}
    return -EBUSY; // expected-warning{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}} expected-note{{Reference to '&g->ref' taken by kref_get() is not released on this error path (missing kref_put())}}
  }
  s->cur = g;
  return 0;
}

int switch_node(struct sched *s, struct device_node *np) {
  struct device_node *cur;

  of_node_get(np); // off-note{{Reference to 'np' taken by of_node_get()}}
  cur = s->node;
  if (cur != np) { // off-note{{Assuming 'cur' is equal to 'np'}} off-note{{Taking false branch}}
    s->node = np;
    return 0;
  }
  of_node_put(cur); // off-note{{The call to of_node_put() puts 'cur', not 'np'}}
  return -EBUSY; // off-warning{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}} off-note{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}} (on: no-warning)
}

int switch_node_uncompared(struct sched *s, struct device_node *np) {
  struct device_node *cur;

  of_node_get(np); // expected-note{{Reference to 'np' taken by of_node_get()}}
  cur = s->node;
  if (!cur) { // expected-note{{Assuming 'cur' is non-null}} expected-note{{Taking false branch}}
    s->node = np;
    return 0;
  }
  of_node_put(cur); // expected-note{{The call to of_node_put() puts 'cur', not 'np'}}
  return -EBUSY; // expected-warning{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}} expected-note{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}}
}
