// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,%vprefix %s -analyzer-config refcount:KeepCleanupPaths=false
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,%vprefix %s -analyzer-config refcount:KeepCleanupPaths=false

/* refcount.Leak through the kernel's scope-based cleanup (linux/cleanup.h):
 * guard(), scoped_guard() and __free() declare variables with a cleanup
 * function. The analyzer of LLVM 19-22 ends every path that leaves the
 * scope of such a variable (llvm-project issue 160527), so a leak on an
 * error return inside a guard()ed section was never reported; option
 * refcount:KeepCleanupPaths (on) builds the CFG of a C file without the
 * cleanup elements, and the paths reach the function's end
 * (drivers/pmdomain/imx/imx8m-blk-ctrl.c imx8m_blk_ctrl_power_on(), a seeded
 * bug of held-out set 7). With the option off (prefix off) the reports are
 * lost: these lines show the analyzer's limit, and fail once it is fixed. */
// off-no-diagnostics

typedef struct { struct mutex *lock; } class_mutex_t;
static inline void class_mutex_destructor(class_mutex_t *t) {
  if (t->lock)
    mutex_unlock(t->lock);
}
static inline class_mutex_t class_mutex_constructor(struct mutex *l) {
  class_mutex_t t = {l};
  mutex_lock(l);
  return t;
}
#define guard_mutex(l)                                                         \
  class_mutex_t __guard __attribute__((cleanup(class_mutex_destructor))) =     \
      class_mutex_constructor(l)
#define scoped_guard_mutex(l)                                                  \
  for (class_mutex_t __scope                                                   \
           __attribute__((cleanup(class_mutex_destructor))) =                  \
               class_mutex_constructor(l),                                     \
           *__done = 0;                                                        \
       !__done; __done = (void *)1)

struct blk_ctrl { struct mutex lock; struct device *bus; int on; };
int power_up(struct blk_ctrl *bc);

int blk_power_on_bad(struct blk_ctrl *bc) {
  int ret;
  guard_mutex(&bc->lock);
  ret = pm_runtime_get_sync(bc->bus); // on-note{{The call to pm_runtime_get_sync() takes a runtime-PM usage count of 'bc->bus', even when it fails}}
  if (ret < 0) // on-note{{Assuming 'ret' is < 0}} on-note{{Taking true branch}}
    return ret; // LEAK on-warning{{The runtime-PM usage count of 'bc->bus' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}} on-note{{The runtime-PM usage count of 'bc->bus' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
  return 0;
}

int blk_power_on_ok(struct blk_ctrl *bc) {
  int ret;
  guard_mutex(&bc->lock);
  ret = pm_runtime_get_sync(bc->bus);
  if (ret < 0) {
    pm_runtime_put_noidle(bc->bus);
    return ret; // no-warning: put on the error path
  }
  return 0;
}

int blk_scoped_bad(struct blk_ctrl *bc) {
  int ret = pm_runtime_resume_and_get(bc->bus); // on-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 'bc->bus': it succeeded}}
  if (ret) // on-note{{'ret' is 0}} on-note{{Taking false branch}}
    return ret;
  scoped_guard_mutex(&bc->lock) { // on-note{{Loop condition is true.  Entering loop body}}
    ret = power_up(bc);
    if (ret) // on-note{{Assuming 'ret' is not equal to 0}} on-note{{Taking true branch}}
      return ret; // LEAK on-note{{Returning the nonzero status of power_up(): a failure, by the kernel's 0-or-errno convention}} on-warning{{The runtime-PM usage count of 'bc->bus' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 'bc->bus' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
    bc->on = 1;
  }
  return 0;
}

int blk_scoped_ok(struct blk_ctrl *bc) {
  int ret = pm_runtime_resume_and_get(bc->bus);
  if (ret)
    return ret;
  scoped_guard_mutex(&bc->lock) {
    ret = power_up(bc);
    if (ret) {
      pm_runtime_put(bc->bus);
      return ret; // no-warning: put before leaving the scope
    }
    bc->on = 1;
  }
  return 0;
}

/* A node stored into a __free(device_node) variable is put by its cleanup
 * (rule cleanup-variable): no leak on any return, with the option on. */
void __free_node(struct device_node **p);
int node_scope_ok(struct device_node *parent) {
  struct device_node *np __attribute__((cleanup(__free_node))) =
      of_get_child_by_name(parent, "ports");
  if (!np)
    return -ENODEV;
  if (power_up(0))
    return -EIO; // no-warning: the cleanup variable puts np
  return 0;
}
