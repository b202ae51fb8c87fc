// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,twice,%vprefix %s -analyzer-config refcount:DisableRules=unevaluated-operand
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,twice,%vprefix %s -analyzer-config refcount:DisableRules=unevaluated-operand

/* refcount.Leak: struct pid. get_pid() is an inline refcount_inc() on
 * &pid->count; put_pid(), find_get_pid() and get_task_pid() are out of
 * line, with model rows of family kref that meet the inline count on the
 * pid. drm_file_alloc() (held-out set 13) stores the count in file->pid
 * of the new file and puts it through the field read again on the error
 * path, before kfree(file). It stores it with rcu_assign_pointer(), whose
 * `__builtin_constant_p(v)` the analyzer evaluates: get_pid() ran twice
 * until rule unevaluated-operand (with the rule off, prefix twice: two
 * counts, one put). */

struct pid { refcount_t count; int level; };
struct dfile { struct pid *pid; int minor; };
void put_pid(struct pid *pid);
struct pid *find_get_pid(int nr);
struct pid *task_tgid_of(void);
int open_file(struct dfile *f);
void close_prime(struct dfile *f);

/* rcu_assign_pointer()'s shape */
#define assign_ptr(p, v)                                                       \
  do {                                                                         \
    unsigned long v__ = (unsigned long)(v);                                    \
    if (__builtin_constant_p(v) && v__ == 0)                                   \
      WRITE_ONCE((p), (__typeof__(p))v__);                                     \
    else                                                                       \
      WRITE_ONCE((p), (__typeof__(p))v__);                                     \
  } while (0)

static inline struct pid *get_pid(struct pid *pid) {
  if (pid) // expected-note{{Assuming 'pid' is non-null}} expected-note{{Taking true branch}} twice-note{{Assuming 'pid' is non-null}} twice-note{{Taking true branch}}
    refcount_inc(&pid->count); // expected-note{{Reference to '&pid->count' taken by refcount_inc()}} twice-note{{Reference to '&pid->count' taken by refcount_inc()}}
  return pid;
}

struct dfile *file_alloc_ok(void) {
  struct dfile *f = kzalloc(sizeof(*f), GFP_KERNEL);
  if (!f) // twice-note{{Assuming 'f' is non-null}} twice-note{{Taking false branch}}
    return NULL;
  assign_ptr(f->pid, get_pid(task_tgid_of())); // twice-note{{Calling 'get_pid'}} twice-note{{Returning from 'get_pid'}} twice-note{{Left side of '&&' is false}} twice-note{{Loop condition is false.  Exiting loop}}
  if (open_file(f) < 0) { // twice-note{{Assuming the condition is true}} twice-note{{Taking true branch}}
    close_prime(f);
    put_pid(READ_ONCE(f->pid));
    kfree(f);
    return NULL; // no-warning: put through the field read again; with the rule off: twice-warning{{Reference to '&pid->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} twice-note{{Reference to '&pid->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return f;
}

int file_alloc_bad(struct dfile *f) {
  struct pid *pid = get_pid(task_tgid_of()); // expected-note{{Calling 'get_pid'}} expected-note{{Returning from 'get_pid'}}
  if (open_file(f) < 0) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    close_prime(f);
    return -EIO; // LEAK expected-warning{{Reference to '&pid->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&pid->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  f->pid = pid;
  return 0;
}

int lookup_pid_ok(int nr) {
  struct pid *pid = find_get_pid(nr);
  if (!pid)
    return -ENOENT;
  if (open_file(0) < 0) {
    put_pid(pid);
    return -EIO; // no-warning
  }
  put_pid(pid);
  return 0;
}

int lookup_pid_bad(int nr) {
  struct pid *pid = find_get_pid(nr); // expected-note{{The call to find_get_pid() returns a counted reference (+1): 'pid' must be released}}
  if (!pid) // expected-note{{Assuming 'pid' is non-null}} expected-note{{Taking false branch}}
    return -ENOENT;
  if (open_file(0) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to 'pid' acquired by find_get_pid() is not released on this path (missing put_pid())}} expected-note{{Reference to 'pid' acquired by find_get_pid() is not released on this path (missing put_pid())}}
  put_pid(pid);
  return 0;
}
