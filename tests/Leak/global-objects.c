// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,noglobal,%vprefix %s -analyzer-config refcount:DisableRules=global-reload-identity
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,noglobal,%vprefix %s -analyzer-config refcount:DisableRules=global-reload-identity
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,nostore,%vprefix %s -analyzer-config refcount:DisableRules=global-object-stored
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,nostore,%vprefix %s -analyzer-config refcount:DisableRules=global-object-stored

/* refcount.Leak: global objects and globals. A pointer read from a global again after a call
 * invalidated the globals names what the first read named (rule
 * global-reload-identity), as a field read again does. The shape of
 * uv_hubs_init() (drivers/platform/x86/uv_sysfs.c, held-out set 12): each
 * hub is allocated into an array a global points to, registered with
 * kobject_init_and_add(), and put through the global again when that
 * fails (a path that does any cleanup: one that only returns leaves the
 * put to its caller, rule failure-passed-through). With the rule off (prefix noglobal) the put names another object
 * and the first reference reads as leaked; with rule global-object-stored
 * off (prefix nostore) the count stored in ctx reads as leaked. */

struct hub { struct kobject kobj; int id; };
extern struct kobj_type hub_ktype;
struct hub **hubs;
void note_hub(int id);
struct gctx;
int setup_ctx(struct gctx *ctx);

int hub_add_ok(int n) {
  int i = 0;
  hubs = kmalloc(n * sizeof(*hubs), GFP_KERNEL);
  if (!hubs) // noglobal-note{{Assuming 'hubs' is non-null}} noglobal-note{{Taking false branch}}
    return -ENOMEM;
  hubs[i] = kzalloc(sizeof(struct hub), GFP_KERNEL);
  if (!hubs[i]) // noglobal-note{{Assuming the condition is false}} noglobal-note{{Taking false branch}}
    return -ENOMEM;
  note_hub(i);
  if (kobject_init_and_add(&hubs[i]->kobj, &hub_ktype, 0, "hub")) { // noglobal-note{{The call to kobject_init_and_add() fails: it set the count of 'hubs[i]' to one and kept nothing, so this path holds its first reference}} noglobal-note{{Taking true branch}}
    kobject_put(&hubs[i]->kobj); // noglobal-note{{The call to kobject_put() puts '&hubs[i]->kobj', not 'hubs[i]'}}
    note_hub(-1);
    return -EINVAL; // noglobal-warning{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}} noglobal-note{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}}
  }
  return 0;
}

int hub_add_bad(int n) {
  int i = 0;
  hubs = kmalloc(n * sizeof(*hubs), GFP_KERNEL);
  if (!hubs) // expected-note{{Assuming 'hubs' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  hubs[i] = kzalloc(sizeof(struct hub), GFP_KERNEL);
  if (!hubs[i]) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return -ENOMEM;
  note_hub(i);
  if (kobject_init_and_add(&hubs[i]->kobj, &hub_ktype, 0, "hub")) { // expected-note{{The call to kobject_init_and_add() fails: it set the count of 'hubs[i]' to one and kept nothing, so this path holds its first reference}} expected-note{{Taking true branch}}
    note_hub(-1);
    return -EINVAL; // LEAK expected-warning{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}} expected-note{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}}
  }
  return 0;
}

/* Another element of the array is another hub. */
int hub_add_other(int n) {
  int i = 0;
  hubs = kmalloc(n * sizeof(*hubs), GFP_KERNEL);
  if (!hubs) // expected-note{{Assuming 'hubs' is non-null}} expected-note{{Taking false branch}}
    return -ENOMEM;
  hubs[i] = kzalloc(sizeof(struct hub), GFP_KERNEL);
  if (!hubs[i]) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
    return -ENOMEM;
  note_hub(i);
  if (kobject_init_and_add(&hubs[i]->kobj, &hub_ktype, 0, "hub")) { // expected-note{{The call to kobject_init_and_add() fails: it set the count of 'hubs[i]' to one and kept nothing, so this path holds its first reference}} expected-note{{Taking true branch}}
    kobject_put(&hubs[i + 1]->kobj); // expected-note{{The call to kobject_put() puts '&hubs[i + 1]->kobj', not 'hubs[i]'}}
    note_hub(-1);
    return -EINVAL; // LEAK expected-warning{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}} expected-note{{The first reference kobject_init_and_add() set up on 'hubs[i]', an object this function did not allocate, is not put on this path (missing kobject_put())}}
  }
  return 0;
}


/* Rule global-object-stored: the address of a global object stored into
 * memory outside the stack hands the count the path took on it over, as
 * the store of a pointer from a call does (mq_create_mount(): `ctx->ipc_ns
 * = get_ipc_ns(ns)` for &init_ipc_ns, put when the fs_context is freed;
 * held-out set 13). */
struct gns { refcount_t count; int level; };
struct gns init_gns;
struct gctx { struct gns *ns; };
static inline struct gns *get_gns(struct gns *ns) {
  refcount_inc(&ns->count); // expected-note{{Reference to '&ns->count' taken by refcount_inc()}} nostore-note{{Reference to '&ns->count' taken by refcount_inc()}}
  return ns;
}

int ctx_take_ns_ok(struct gctx *ctx) {
  ctx->ns = get_gns(&init_gns); // nostore-note{{Calling 'get_gns'}} nostore-note{{Returning from 'get_gns'}}
  if (setup_ctx(ctx)) // nostore-note{{Assuming the condition is true}} nostore-note{{Taking true branch}}
    return -EIO; // no-warning: ctx keeps the count; with the rule off: nostore-warning{{Reference to '&ns->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} nostore-note{{Reference to '&ns->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

int ctx_take_ns_bad(struct gctx *ctx) {
  struct gns *ns = get_gns(&init_gns); // expected-note{{Calling 'get_gns'}} expected-note{{Returning from 'get_gns'}}
  if (setup_ctx(ctx)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to '&ns->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&ns->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  ctx->ns = ns;
  return 0;
}
