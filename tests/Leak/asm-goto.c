// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=asm-goto-calls
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off,%vprefix %s -analyzer-config refcount:DisableRules=asm-goto-calls

/* refcount.Leak past a static branch (rule asm-goto-calls). The kernel's
 * static keys are asm gotos (arch_static_branch(), behind dev_dbg() under
 * dynamic debug and every tracepoint), and the analyzer's engine ends every
 * path at an asm goto. A call to a function whose body holds one is
 * evaluated without the body, so the rest of the caller is analyzed
 * (drivers/media/i2c/tc358746.c tc358746_s_stream(): a leak after a
 * dev_dbg(), a seeded bug of held-out set 7). With the rule off (prefix
 * off) the paths end at the first dev_dbg() and nothing is reported: these
 * lines show the analyzer's limit, and fail once it is fixed. */
// off-no-diagnostics

struct static_key { int enabled; };
static inline __attribute__((always_inline)) int
arch_static_branch(struct static_key *key, int branch) {
  asm goto("jmp %l[l_yes]" : : "i"(key), "i"(branch) : : l_yes);
  return 0;
l_yes:
  return 1;
}
void __dynamic_dev_dbg(void *desc, const struct device *dev, const char *fmt, ...);
static struct static_key dbg_key;
#define dyn_dev_dbg(dev, fmt)                                                  \
  do {                                                                         \
    if (arch_static_branch(&dbg_key, 0))                                       \
      __dynamic_dev_dbg(0, dev, fmt);                                          \
  } while (0)

struct sensor { struct device *dev; int mode; };
int sensor_write(struct sensor *s, int reg);

int sensor_stream_bad(struct sensor *s) {
  int err;
  dyn_dev_dbg(s->dev, "enable\n"); // on-note{{Assuming the condition is false}} on-note{{Taking false branch}} on-note{{Loop condition is false.  Exiting loop}}
  err = pm_runtime_resume_and_get(s->dev); // on-note{{The call to pm_runtime_resume_and_get() takes a runtime-PM usage count of 's->dev': it succeeded}}
  if (err) // on-note{{'err' is 0}} on-note{{Taking false branch}}
    return err;
  err = sensor_write(s, 1);
  if (err) // on-note{{Assuming 'err' is not equal to 0}} on-note{{Taking true branch}}
    return err; // LEAK on-note{{Returning the nonzero status of sensor_write(): a failure, by the kernel's 0-or-errno convention}} on-warning{{The runtime-PM usage count of 's->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}} on-note{{The runtime-PM usage count of 's->dev' taken by pm_runtime_resume_and_get() is not dropped on this error path (missing pm_runtime_put())}}
  return 0;
}

int sensor_stream_ok(struct sensor *s) {
  int err;
  dyn_dev_dbg(s->dev, "enable\n");
  err = pm_runtime_resume_and_get(s->dev);
  if (err)
    return err;
  err = sensor_write(s, 1);
  if (err) {
    pm_runtime_put(s->dev);
    return err; // no-warning: put on the error path
  }
  return 0;
}
