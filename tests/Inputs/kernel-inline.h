/* Mini kernel header: the counting, locking and list APIs with static inline
 * bodies, like Linux 6.1 (atomics over compiler builtins where the kernel
 * uses inline asm). See kernel-common.h. */
#ifndef KERNEL_INLINE_H
#define KERNEL_INLINE_H
#include "kernel-common.h"

#define __always_inline inline __attribute__((always_inline))

static __always_inline int atomic_read(const atomic_t *v) { return __atomic_load_n(&v->counter, 0); }
static __always_inline void atomic_set(atomic_t *v, int i) { __atomic_store_n(&v->counter, i, 0); }
static __always_inline void atomic_inc(atomic_t *v) { __atomic_fetch_add(&v->counter, 1, 5); }
static __always_inline void atomic_dec(atomic_t *v) { __atomic_fetch_sub(&v->counter, 1, 5); }
static __always_inline void atomic_add(int i, atomic_t *v) { __atomic_fetch_add(&v->counter, i, 5); }
static __always_inline void atomic_sub(int i, atomic_t *v) { __atomic_fetch_sub(&v->counter, i, 5); }
static __always_inline int atomic_add_return(int i, atomic_t *v) { return __atomic_add_fetch(&v->counter, i, 5); }
static __always_inline int atomic_inc_return(atomic_t *v) { return __atomic_add_fetch(&v->counter, 1, 5); }
static __always_inline int atomic_dec_return(atomic_t *v) { return __atomic_sub_fetch(&v->counter, 1, 5); }
static __always_inline bool atomic_dec_and_test(atomic_t *v) { return __atomic_sub_fetch(&v->counter, 1, 5) == 0; }
static __always_inline bool atomic_sub_and_test(int i, atomic_t *v) { return __atomic_sub_fetch(&v->counter, i, 5) == 0; }
static __always_inline int atomic_cmpxchg(atomic_t *v, int old, int new) {
  __atomic_compare_exchange_n(&v->counter, &old, new, 0, 5, 5);
  return old;
}
static __always_inline bool atomic_add_unless(atomic_t *v, int a, int u) {
  int c = __atomic_load_n(&v->counter, 0); /* arch_atomic_read() */
  do {
    if (unlikely(c == u))
      return false;
  } while (!__atomic_compare_exchange_n(&v->counter, &c, c + a, 0, 5, 5));
  return true;
}
static __always_inline bool atomic_inc_not_zero(atomic_t *v) { return atomic_add_unless(v, 1, 0); }
static __always_inline long long atomic_long_read(const atomic_long_t *v) { return __atomic_load_n(&v->counter, 0); }
static __always_inline void atomic_long_set(atomic_long_t *v, long long i) { __atomic_store_n(&v->counter, i, 0); }
static __always_inline void atomic_long_inc(atomic_long_t *v) { __atomic_fetch_add(&v->counter, 1, 5); }
static __always_inline void atomic_long_dec(atomic_long_t *v) { __atomic_fetch_sub(&v->counter, 1, 5); }
static __always_inline bool atomic_long_dec_and_test(atomic_long_t *v) { return __atomic_sub_fetch(&v->counter, 1, 5) == 0; }
static __always_inline bool atomic_long_inc_not_zero(atomic_long_t *v) {
  long long c = atomic_long_read(v);
  do {
    if (c == 0)
      return false;
  } while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, 0, 5, 5));
  return true;
}

/* refcount_t, as lib/refcount.c and include/linux/refcount.h */
void refcount_warn_saturate(refcount_t *r, int t);
static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline void refcount_set_release(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r) { return atomic_read(&r->refs); }
static inline bool refcount_add_not_zero(int i, refcount_t *r) {
  int old = __atomic_load_n(&r->refs.counter, 0);
  do {
    if (!old)
      break;
  } while (!__atomic_compare_exchange_n(&r->refs.counter, &old, old + i, 0, 5, 5));
  if (unlikely(old < 0 || old + i < 0))
    refcount_warn_saturate(r, 0);
  return old;
}
static inline bool refcount_inc_not_zero(refcount_t *r) { return refcount_add_not_zero(1, r); }
static inline void refcount_add(int i, refcount_t *r) {
  int old = __atomic_fetch_add(&r->refs.counter, i, 5);
  if (unlikely(!old))
    refcount_warn_saturate(r, 1);
}
static inline void refcount_inc(refcount_t *r) { refcount_add(1, r); }
static inline bool refcount_sub_and_test(int i, refcount_t *r) {
  int old = __atomic_fetch_sub(&r->refs.counter, i, 5);
  if (old == i)
    return true;
  if (unlikely(old < 0 || old - i < 0))
    refcount_warn_saturate(r, 2);
  return false;
}
static inline bool refcount_dec_and_test(refcount_t *r) { return refcount_sub_and_test(1, r); }
static inline void refcount_dec(refcount_t *r) {
  if (unlikely(__atomic_fetch_sub(&r->refs.counter, 1, 5) <= 1))
    refcount_warn_saturate(r, 3);
}
bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock);
bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock);
bool refcount_dec_if_one(refcount_t *r);
bool refcount_dec_not_one(refcount_t *r);

/* kref, as include/linux/kref.h */
static inline void kref_init(struct kref *kref) { refcount_set(&kref->refcount, 1); }
static inline unsigned int kref_read(const struct kref *kref) { return refcount_read(&kref->refcount); }
static inline void kref_get(struct kref *kref) { refcount_inc(&kref->refcount); }
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref)) {
  if (refcount_dec_and_test(&kref->refcount)) {
    release(kref);
    return 1;
  }
  return 0;
}
static inline int kref_put_mutex(struct kref *kref, void (*release)(struct kref *kref), struct mutex *lock) {
  if (refcount_dec_and_mutex_lock(&kref->refcount, lock)) {
    release(kref);
    return 1;
  }
  return 0;
}
static inline int kref_put_lock(struct kref *kref, void (*release)(struct kref *kref), spinlock_t *lock) {
  if (refcount_dec_and_lock(&kref->refcount, lock)) {
    release(kref);
    return 1;
  }
  return 0;
}
static inline int __attribute__((warn_unused_result)) kref_get_unless_zero(struct kref *kref) {
  return refcount_inc_not_zero(&kref->refcount);
}

/* locks */
void _raw_spin_lock(raw_spinlock_t *lock);
void _raw_spin_unlock(raw_spinlock_t *lock);
int _raw_spin_trylock(raw_spinlock_t *lock);
void _raw_spin_lock_bh(raw_spinlock_t *lock);
void _raw_spin_unlock_bh(raw_spinlock_t *lock);
unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags);
static __always_inline void spin_lock(spinlock_t *lock) { _raw_spin_lock(&lock->rlock); }
static __always_inline void spin_unlock(spinlock_t *lock) { _raw_spin_unlock(&lock->rlock); }
static __always_inline int spin_trylock(spinlock_t *lock) { return _raw_spin_trylock(&lock->rlock); }
static __always_inline void spin_lock_bh(spinlock_t *lock) { _raw_spin_lock_bh(&lock->rlock); }
static __always_inline void spin_unlock_bh(spinlock_t *lock) { _raw_spin_unlock_bh(&lock->rlock); }
static __always_inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags) {
  _raw_spin_unlock_irqrestore(&lock->rlock, flags);
}
void _raw_read_lock(rwlock_t *lock);
void _raw_read_unlock(rwlock_t *lock);
#define read_lock(l) _raw_read_lock(l)
#define read_unlock(l) _raw_read_unlock(l)
void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
int mutex_trylock(struct mutex *lock);
int mutex_lock_interruptible(struct mutex *lock);
void down_read(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void __rcu_read_lock(void);
void __rcu_read_unlock(void);
static __always_inline void rcu_read_lock(void) { __rcu_read_lock(); }
static __always_inline void rcu_read_unlock(void) { __rcu_read_unlock(); }
int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock);
int atomic_dec_and_mutex_lock(atomic_t *cnt, struct mutex *lock);

/* lists */
static inline void INIT_LIST_HEAD(struct list_head *list) { list->next = list; list->prev = list; }
/* CONFIG_DEBUG_LIST's check, as in Linux 6.12: false only on corruption. */
_Bool __list_add_valid_or_report(struct list_head *new, struct list_head *prev,
                                 struct list_head *next);
static inline void list_add(struct list_head *new, struct list_head *head) {
  struct list_head *next = head->next;
  if (!__list_add_valid_or_report(new, head, next))
    return;
  next->prev = new; new->next = next; new->prev = head; head->next = new;
}
static inline void list_add_rcu(struct list_head *new, struct list_head *head) { list_add(new, head); }
static inline void list_del(struct list_head *entry) {
  entry->next->prev = entry->prev; entry->prev->next = entry->next;
  entry->next = (void *)0x100; entry->prev = (void *)0x122;
}
static inline void list_del_rcu(struct list_head *entry) {
  entry->next->prev = entry->prev; entry->prev->next = entry->next;
}
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h) {
  struct hlist_node *first = h->first;
  n->next = first; if (first) first->pprev = &n->next; h->first = n; n->pprev = &h->first;
}
static inline void hlist_del(struct hlist_node *n) {
  struct hlist_node *next = n->next; struct hlist_node **pprev = n->pprev;
  *pprev = next; if (next) next->pprev = pprev;
}
void rb_erase(struct rb_node *node, struct rb_root *root);

/* memory */
static inline void *kzalloc(size_t size, gfp_t flags) { return kmalloc(size, flags | __GFP_ZERO); }
static inline void *kmem_cache_zalloc(void *k, gfp_t flags) { return kmem_cache_alloc(k, flags | __GFP_ZERO); }

/* ---- get/put object APIs (lifetime checks): inline like the kernel's ---- */
static inline bool IS_ERR(const void *ptr) { return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO; }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline struct device_node *of_node_get(struct device_node *node) { return node; }
static inline void of_node_put(struct device_node *node) { }
static inline struct device_node *of_parse_phandle(const struct device_node *np, const char *name, int index) { return __of_parse_phandle(np, name, index); }
static inline struct device_node *of_find_node_by_path(const char *path) { return of_find_node_opts_by_path(path, NULL); }
static inline struct device_node *of_find_matching_node(struct device_node *from, const struct of_device_id *matches) { return of_find_matching_node_and_match(from, matches, NULL); }
static inline int pm_runtime_get_sync(struct device *dev) { return __pm_runtime_resume(dev, 4); }
static inline int pm_runtime_resume_and_get(struct device *dev) {
  int ret = __pm_runtime_resume(dev, 4);
  if (ret < 0) { __pm_runtime_idle(dev, 4); return ret; }
  return 0;
}
static inline void pm_runtime_get_noresume(struct device *dev) { }
static inline int pm_runtime_get(struct device *dev) { return __pm_runtime_resume(dev, 5); }
static inline int pm_runtime_put(struct device *dev) { return __pm_runtime_idle(dev, 5); }
static inline int pm_runtime_put_sync(struct device *dev) { return __pm_runtime_idle(dev, 4); }
static inline int pm_runtime_put_autosuspend(struct device *dev) { return __pm_runtime_idle(dev, 13); }
static inline void pm_runtime_put_noidle(struct device *dev) { }
static inline void dev_hold(struct net_device *dev) { if (dev) refcount_inc(&dev->dev_refcnt); }
static inline void dev_put(struct net_device *dev) { if (dev) refcount_dec(&dev->dev_refcnt); }
static inline void sock_hold(struct sock *sk) { refcount_inc(&sk->sk_refcnt); }
static inline void sock_put(struct sock *sk) { if (refcount_dec_and_test(&sk->sk_refcnt)) sk_free(sk); }
static inline struct net *get_net(struct net *net) { refcount_inc(&net->count); return net; }
static inline void put_net(struct net *net) { refcount_dec(&net->count); }
static inline struct dentry *dget(struct dentry *dentry) { if (dentry) refcount_inc(&dentry->d_count); return dentry; }
static inline void *try_get_task_stack(struct task_struct *tsk) {
  return refcount_inc_not_zero(&tsk->stack_refcount) ? tsk->stack : NULL;
}

static inline void *platform_get_drvdata(const struct platform_device *pdev) {
  return pdev->dev.driver_data;
}

#endif
