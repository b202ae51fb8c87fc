/* Mini kernel header: the same APIs as kernel-inline.h, prototypes only (as
 * a TU sees out-of-line helpers, or a user's own wrappers). */
#ifndef KERNEL_PROTO_H
#define KERNEL_PROTO_H
#include "kernel-common.h"

int atomic_read(const atomic_t *v);
void atomic_set(atomic_t *v, int i);
void atomic_inc(atomic_t *v);
void atomic_dec(atomic_t *v);
void atomic_add(int i, atomic_t *v);
void atomic_sub(int i, atomic_t *v);
int atomic_add_return(int i, atomic_t *v);
int atomic_inc_return(atomic_t *v);
int atomic_dec_return(atomic_t *v);
bool atomic_dec_and_test(atomic_t *v);
bool atomic_sub_and_test(int i, atomic_t *v);
int atomic_cmpxchg(atomic_t *v, int old, int new);
bool atomic_add_unless(atomic_t *v, int a, int u);
bool atomic_inc_not_zero(atomic_t *v);
long long atomic_long_read(const atomic_long_t *v);
void atomic_long_set(atomic_long_t *v, long long i);
void atomic_long_inc(atomic_long_t *v);
void atomic_long_dec(atomic_long_t *v);
bool atomic_long_dec_and_test(atomic_long_t *v);
bool atomic_long_inc_not_zero(atomic_long_t *v);

void refcount_set(refcount_t *r, int n);
void refcount_set_release(refcount_t *r, int n);
unsigned int refcount_read(const refcount_t *r);
bool refcount_add_not_zero(int i, refcount_t *r);
bool refcount_inc_not_zero(refcount_t *r);
void refcount_add(int i, refcount_t *r);
void refcount_inc(refcount_t *r);
bool refcount_sub_and_test(int i, refcount_t *r);
bool refcount_dec_and_test(refcount_t *r);
void refcount_dec(refcount_t *r);
bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock);
bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock);
bool refcount_dec_if_one(refcount_t *r);
bool refcount_dec_not_one(refcount_t *r);

void kref_init(struct kref *kref);
unsigned int kref_read(const struct kref *kref);
void kref_get(struct kref *kref);
int kref_put(struct kref *kref, void (*release)(struct kref *kref));
int kref_put_mutex(struct kref *kref, void (*release)(struct kref *kref), struct mutex *lock);
int kref_put_lock(struct kref *kref, void (*release)(struct kref *kref), spinlock_t *lock);
int __attribute__((warn_unused_result)) kref_get_unless_zero(struct kref *kref);

unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);
void spin_lock_bh(spinlock_t *lock);
void spin_unlock_bh(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
void read_lock(rwlock_t *lock);
void read_unlock(rwlock_t *lock);
void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
int mutex_trylock(struct mutex *lock);
int mutex_lock_interruptible(struct mutex *lock);
void down_read(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void rcu_read_lock(void);
void rcu_read_unlock(void);
int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock);
int atomic_dec_and_mutex_lock(atomic_t *cnt, struct mutex *lock);

void INIT_LIST_HEAD(struct list_head *list);
void list_add(struct list_head *new, struct list_head *head);
void list_add_rcu(struct list_head *new, struct list_head *head);
void list_del(struct list_head *entry);
void list_del_rcu(struct list_head *entry);
void hlist_add_head(struct hlist_node *n, struct hlist_head *h);
void hlist_del(struct hlist_node *n);
void rb_erase(struct rb_node *node, struct rb_root *root);

void *kzalloc(size_t size, gfp_t flags);
void *kmem_cache_zalloc(void *k, gfp_t flags);

/* ---- get/put object APIs (lifetime checks): prototypes only ---- */
bool IS_ERR(const void *ptr);
bool IS_ERR_OR_NULL(const void *ptr);
long PTR_ERR(const void *ptr);
void *ERR_PTR(long error);
struct device_node *of_node_get(struct device_node *node);
void of_node_put(struct device_node *node);
struct device_node *of_parse_phandle(const struct device_node *np, const char *name, int index);
struct device_node *of_find_node_by_path(const char *path);
struct device_node *of_find_matching_node(struct device_node *from, const struct of_device_id *matches);
int pm_runtime_get_sync(struct device *dev);
int pm_runtime_resume_and_get(struct device *dev);
void pm_runtime_get_noresume(struct device *dev);
int pm_runtime_get(struct device *dev);
int pm_runtime_put(struct device *dev);
int pm_runtime_put_sync(struct device *dev);
int pm_runtime_put_autosuspend(struct device *dev);
void pm_runtime_put_noidle(struct device *dev);
void dev_hold(struct net_device *dev);
void dev_put(struct net_device *dev);
void sock_hold(struct sock *sk);
void sock_put(struct sock *sk);
struct net *get_net(struct net *net);
void put_net(struct net *net);
struct dentry *dget(struct dentry *dentry);
void *try_get_task_stack(struct task_struct *tsk);

void *platform_get_drvdata(const struct platform_device *pdev);

#endif
