/* Mini kernel header for the krefcheck tests: types and macros written like
 * Linux 6.1's (container_of as a statement expression, list walks over it,
 * spin_lock_irqsave and atomic_dec_and_lock as macros over _raw/_ helpers).
 * kernel-inline.h adds static inline bodies like the kernel's; kernel-proto.h
 * declares the same functions without bodies. Every test runs with both. */
#ifndef KERNEL_COMMON_H
#define KERNEL_COMMON_H

#define NULL ((void *)0)
typedef _Bool bool;
#define true 1
#define false 0
typedef unsigned long size_t;
typedef unsigned int gfp_t;
typedef unsigned int u32;
typedef unsigned long long u64;
#define GFP_KERNEL 0x0cc0u
#define GFP_ATOMIC 0x0820u
#define __GFP_ZERO 0x100u
#define offsetof(TYPE, MEMBER) __builtin_offsetof(TYPE, MEMBER)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)
#define INT_MAX ((int)(~0U >> 1))
#define INT_MIN (-INT_MAX - 1)
#define ENOMEM 12
#define ENOENT 2
#define EINVAL 22
#define EBUSY 16

#define container_of(ptr, type, member)                                        \
  ({                                                                           \
    void *__mptr = (void *)(ptr);                                              \
    ((type *)(__mptr - offsetof(type, member)));                               \
  })

/* ---- counters ---- */
typedef struct { int counter; } atomic_t;
typedef struct { long long counter; } atomic64_t;
typedef atomic64_t atomic_long_t;
#define ATOMIC_INIT(i) { (i) }
typedef struct refcount_struct { atomic_t refs; } refcount_t;
#define REFCOUNT_INIT(n) { .refs = ATOMIC_INIT(n) }
struct kref { refcount_t refcount; };
#define KREF_INIT(n) { .refcount = REFCOUNT_INIT(n), }

/* ---- locks ---- */
typedef struct raw_spinlock { unsigned int raw_lock; } raw_spinlock_t;
typedef struct spinlock { union { struct raw_spinlock rlock; }; } spinlock_t;
typedef struct { unsigned int raw_lock; } rwlock_t;
struct mutex { long owner; };
struct rw_semaphore { long count; };
#define DEFINE_SPINLOCK(x) spinlock_t x
#define DEFINE_MUTEX(x) struct mutex x
#define spin_lock_irqsave(lock, flags)                                         \
  do { flags = _raw_spin_lock_irqsave(&(lock)->rlock); } while (0)
#define atomic_dec_and_lock(atomic, lock) _atomic_dec_and_lock(atomic, lock)
#define lockdep_assert_held(l) do { (void)(l); } while (0)

/* ---- lists ---- */
struct list_head { struct list_head *next, *prev; };
struct hlist_head { struct hlist_node *first; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct rb_node { unsigned long __rb_parent_color; struct rb_node *rb_right, *rb_left; };
struct rb_root { struct rb_node *rb_node; };
#define LIST_HEAD(name) struct list_head name = { &(name), &(name) }

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member)                                           \
  list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&pos->member == (head))
#define list_for_each_entry(pos, head, member)                                 \
  for (pos = list_first_entry(head, __typeof__(*pos), member);                 \
       !list_entry_is_head(pos, head, member);                                 \
       pos = list_next_entry(pos, member))
#define list_first_entry_or_null(ptr, type, member)                            \
  ({                                                                           \
    struct list_head *head__ = (ptr);                                          \
    struct list_head *pos__ = READ_ONCE(head__->next);                         \
    pos__ != head__ ? list_entry(pos__, type, member) : NULL;                  \
  })
#define hlist_entry(ptr, type, member) container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member)                                    \
  ({                                                                           \
    __typeof__(ptr) ____ptr = (ptr);                                           \
    ____ptr ? hlist_entry(____ptr, type, member) : NULL;                       \
  })
#define hlist_for_each_entry(pos, head, member)                                \
  for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); pos; \
       pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/* ---- RCU ---- */
#define __rcu_dereference_check(p)                                             \
  ({                                                                           \
    __typeof__(*p) *local__ = (__typeof__(*p) *)READ_ONCE(p);                  \
    ((__typeof__(*p) *)(local__));                                             \
  })
#define rcu_dereference(p) __rcu_dereference_check(p)
#define rcu_dereference_protected(p, c) ((__typeof__(*p) *)(p))
#define list_entry_rcu(ptr, type, member) container_of(READ_ONCE(ptr), type, member)
#define list_for_each_entry_rcu(pos, head, member)                             \
  for (pos = list_entry_rcu((head)->next, __typeof__(*pos), member);           \
       &pos->member != (head);                                                 \
       pos = list_entry_rcu(pos->member.next, __typeof__(*pos), member))

/* ---- indexes ---- */
struct idr { void *idr_rt; };
struct xarray { void *xa_head; };
struct radix_tree_root { void *rnode; };
void *idr_find(const struct idr *idr, unsigned long id);
void *idr_remove(struct idr *idr, unsigned long id);
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_erase(struct xarray *xa, unsigned long index);
void *radix_tree_lookup(const struct radix_tree_root *root, unsigned long index);

/* ---- memory ---- */
void *kmalloc(size_t size, gfp_t flags);
void kfree(const void *p);
void *kmem_cache_alloc(void *cache, gfp_t flags);
void kfree_rcu_ptr(void *p);
void synchronize_rcu(void);
void might_sleep(void);
void printk(const char *fmt, ...);
void do_something(void *p);
void __attribute__((noreturn)) panic(const char *fmt, ...);
#define BUG() panic("BUG")
#define WARN_ON(x) (!!(x))

/* ---- BiasedCount/MixedStyle additions ---- */
bool atomic_inc_unless_negative(atomic_t *v);
void atomic_long_add(long long i, atomic_long_t *v);
void atomic_long_sub(long long i, atomic_long_t *v);
long long atomic_long_add_return(long long i, atomic_long_t *v);
int atomic_fetch_add(int i, atomic_t *v);
void kmem_cache_free(void *cache, void *p);
struct rcu_head { void *next; void (*func)(struct rcu_head *head); };
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
struct completion { unsigned int done; };
void complete(struct completion *x);
#define WARN_ON_ONCE(x) WARN_ON(x)

#endif
