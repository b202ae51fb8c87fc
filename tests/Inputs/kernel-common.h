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
#define EINPROGRESS 115

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
typedef struct spinlock { union { struct raw_spinlock rlock; }; int dep_map; } spinlock_t;
typedef struct { unsigned int raw_lock; } rwlock_t;
struct mutex { long owner; };
struct rw_semaphore { long count; };
#define DEFINE_SPINLOCK(x) spinlock_t x
#define DEFINE_MUTEX(x) struct mutex x
static inline raw_spinlock_t *spinlock_check(spinlock_t *lock) { return &lock->rlock; }
#define spin_lock_irqsave(lock, flags)                                         \
  do { flags = _raw_spin_lock_irqsave(spinlock_check(lock)); } while (0)
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
void *idr_replace(struct idr *idr, void *ptr, unsigned long id);
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
/* anonymous-inode files: the file keeps priv as its private_data */
struct file;
struct file_operations;
struct file *anon_inode_getfile(const char *name,
                                const struct file_operations *fops, void *priv,
                                int flags);
int anon_inode_getfd(const char *name, const struct file_operations *fops,
                     void *priv, int flags);
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_erase(struct xarray *xa, unsigned long index);
void *radix_tree_lookup(const struct radix_tree_root *root, unsigned long index);

/* ---- memory ---- */
void *kmalloc(size_t size, gfp_t flags);
void *kmemdup(const void *src, size_t len, gfp_t gfp);
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
#define BUG_ON(x) do { if (x) BUG(); } while (0)

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

/* ---- get/put object APIs (lifetime checks) ---- */
#define EPERM 1
#define EIO 5
#define ENODEV 19
#define EPROBE_DEFER 517
#define MAX_ERRNO 4095
#define PCI_ANY_ID (~0)
struct fwnode_handle { struct fwnode_handle *secondary; const void *ops; };
struct device_node {
  const char *name;
  const char *full_name;
  struct fwnode_handle fwnode;
  struct device_node *parent, *child, *sibling;
  void *data;
};
struct of_device_id { char compatible[128]; const void *data; };
struct kobject { const char *name; struct kobject *parent; struct kref kref; };
struct device {
  struct kobject kobj;
  struct device *parent;
  struct device_node *of_node;
  struct fwnode_handle *fwnode;
  void *driver_data;
  struct list_head node;
  void (*release)(struct device *dev);
};
void *devm_kzalloc(struct device *dev, size_t size, gfp_t flags);
struct bus_type { const char *name; };
struct class { const char *name; };
struct device_driver { const char *name; };
struct platform_device { const char *name; int id; struct device dev; };
struct pci_dev { unsigned short vendor, device; struct device dev; };
struct usb_device { int devnum; struct device dev; };
struct net_device { char name[16]; int ifindex; refcount_t dev_refcnt; struct device dev; };
struct sock { int sk_state; refcount_t sk_refcnt; refcount_t sk_wmem_alloc; };
struct net { refcount_t count; int ifindex; };
struct dentry { refcount_t d_count; struct dentry *d_parent; void *d_inode; const char *d_name; };
struct inode;
struct of_phandle_args { struct device_node *np; int args_count; u32 args[16]; };

/* device_node (of_node_get/of_node_put, of_parse_phandle, of_find_node_by_path
 * and of_find_matching_node are in kernel-inline.h / kernel-proto.h) */
struct device_node *of_find_node_by_name(struct device_node *from, const char *name);
struct device_node *of_find_node_by_type(struct device_node *from, const char *type);
struct device_node *of_find_compatible_node(struct device_node *from, const char *type, const char *compat);
struct device_node *of_find_matching_node_and_match(struct device_node *from, const struct of_device_id *matches, const struct of_device_id **match);
struct device_node *of_find_node_opts_by_path(const char *path, const char **opts);
struct device_node *of_find_node_by_phandle(u32 handle);
struct device_node *of_get_parent(const struct device_node *node);
struct of_changeset;
struct device_node *of_changeset_create_node(struct of_changeset *ocs, struct device_node *parent, const char *full_name);
int of_changeset_apply(struct of_changeset *ocs);
int of_changeset_add_prop_string(struct of_changeset *ocs, struct device_node *np, const char *prop_name, const char *str);
struct device_node *of_get_next_parent(struct device_node *node);
struct device_node *of_get_next_child(const struct device_node *node, struct device_node *prev);
struct device_node *of_get_next_available_child(const struct device_node *node, struct device_node *prev);
struct device_node *of_get_child_by_name(const struct device_node *node, const char *name);
struct device_node *of_get_compatible_child(const struct device_node *parent, const char *compatible);
struct device_node *of_graph_get_remote_endpoint(const struct device_node *node);
struct device_node *__of_parse_phandle(const struct device_node *np, const char *name, int index);
int of_parse_phandle_with_args(const struct device_node *np, const char *list, const char *cells, int index, struct of_phandle_args *out);
int of_property_read_u32(const struct device_node *np, const char *name, u32 *out);
bool of_device_is_available(const struct device_node *np);
bool of_device_is_compatible(const struct device_node *np, const char *compat);
const void *of_get_property(const struct device_node *np, const char *name, int *lenp);
void of_node_set_flag(struct device_node *n, unsigned long flag);
struct fwnode_handle *fwnode_handle_get(struct fwnode_handle *fwnode);
void fwnode_handle_put(struct fwnode_handle *fwnode);
struct fwnode_handle *fwnode_get_next_child_node(const struct fwnode_handle *fwnode, struct fwnode_handle *child);
struct fwnode_handle *device_get_next_child_node(const struct device *dev, struct fwnode_handle *child);
struct fwnode_handle *fwnode_find_reference(const struct fwnode_handle *fwnode, const char *name, unsigned int index);
int fwnode_property_read_u32(const struct fwnode_handle *fwnode, const char *propname, u32 *val);
#define of_fwnode_handle(node) (&(node)->fwnode)
#define for_each_child_of_node(parent, child)                                  \
  for (child = of_get_next_child(parent, NULL); child != NULL;                 \
       child = of_get_next_child(parent, child))
#define for_each_available_child_of_node(parent, child)                        \
  for (child = of_get_next_available_child(parent, NULL); child != NULL;       \
       child = of_get_next_available_child(parent, child))
#define for_each_compatible_node(dn, type, compatible)                         \
  for (dn = of_find_compatible_node(NULL, type, compatible); dn;               \
       dn = of_find_compatible_node(dn, type, compatible))
#define for_each_node_by_name(dn, name)                                        \
  for (dn = of_find_node_by_name(NULL, name); dn;                              \
       dn = of_find_node_by_name(dn, name))
#define for_each_matching_node(dn, matches)                                    \
  for (dn = of_find_matching_node(NULL, matches); dn;                          \
       dn = of_find_matching_node(dn, matches))
#define fwnode_for_each_child_node(fwnode, child)                              \
  for (child = fwnode_get_next_child_node(fwnode, NULL); child;                \
       child = fwnode_get_next_child_node(fwnode, child))
#define device_for_each_child_node(dev, child)                                 \
  for (child = device_get_next_child_node(dev, NULL); child;                   \
       child = device_get_next_child_node(dev, child))

/* device model */
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
struct device *bus_find_device(struct bus_type *bus, struct device *start, const void *data, int (*match)(struct device *dev, const void *data));
struct device *class_find_device(struct class *class, struct device *start, const void *data, int (*match)(struct device *, const void *));
struct device *device_find_child(struct device *parent, void *data, int (*match)(struct device *dev, void *data));
struct platform_device *of_find_device_by_node(struct device_node *np);
void platform_device_put(struct platform_device *pdev);
struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
struct kobject *kobject_create_and_add(const char *name, struct kobject *parent);
struct kobj_type;
int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
                         struct kobject *parent, const char *fmt, ...);
void kobject_init(struct kobject *kobj, const struct kobj_type *ktype);
int kobject_add(struct kobject *kobj, struct kobject *parent, const char *fmt, ...);
struct usb_device *usb_get_dev(struct usb_device *dev);
void usb_put_dev(struct usb_device *dev);
struct pci_dev *pci_dev_get(struct pci_dev *dev);
void pci_dev_put(struct pci_dev *dev);
struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device, struct pci_dev *from);
struct pci_dev *pci_get_domain_bus_and_slot(int domain, unsigned int bus, unsigned int devfn);
void device_initialize(struct device *dev);
int dev_set_name(struct device *dev, const char *name, ...);
int device_add(struct device *dev);
void device_del(struct device *dev);
int device_register(struct device *dev);
void device_unregister(struct device *dev);
#define __free(_name) __attribute__((cleanup(__free_##_name)))
void __free_device_node(struct device_node **p);
void dev_set_drvdata(struct device *dev, void *data);
void *dev_get_drvdata(const struct device *dev);
const char *dev_name(const struct device *dev);
int dev_err(const struct device *dev, const char *fmt, ...);
int dev_info(const struct device *dev, const char *fmt, ...);
int pci_enable_device(struct pci_dev *dev);
int __pm_runtime_resume(struct device *dev, int rpmflags);
int __pm_runtime_idle(struct device *dev, int rpmflags);
void pm_runtime_enable(struct device *dev);
void pm_runtime_disable(struct device *dev);
void pm_runtime_allow(struct device *dev);
void pm_runtime_forbid(struct device *dev);
#define for_each_pci_dev(d) while ((d = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, d)) != NULL)

/* networking, dentries */
struct net_device *dev_get_by_name(struct net *net, const char *name);
int dev_open(struct net_device *dev);
struct net *get_net_ns_by_pid(int pid);
struct net *get_net_ns_by_id(const struct net *net, int id);
struct ib_device;
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, unsigned int port);
void sk_free(struct sock *sk);
int sock_queue_rcv(struct sock *sk, void *skb);
struct dentry *dget_parent(struct dentry *dentry);
struct dentry *d_find_alias(struct inode *inode);
struct dentry *lookup_one_len(const char *name, struct dentry *base, int len);
void dput(struct dentry *dentry);
int d_revalidate(struct dentry *d);
/* validation run 2 (issue 5): task stacks, bit-owned references, i2c */
#define EAGAIN 11
struct task_struct { refcount_t stack_refcount; void *stack; int pid; };
struct dma_fence { struct kref refcount; unsigned long flags; };
struct dma_fence *dma_fence_chain_walk(struct dma_fence *fence);
void put_task_stack(struct task_struct *tsk);
bool test_and_set_bit(long nr, volatile unsigned long *addr);
bool test_bit(long nr, const volatile unsigned long *addr);
struct i2c_adapter { int nr; struct device dev; };
struct i2c_client { unsigned short flags; struct i2c_adapter *adapter; struct device dev; };
struct i2c_adapter *i2c_verify_adapter(struct device *dev);
int i2c_client_setup(struct i2c_client *client);
/* include/linux/once_lite.h: the condition is kept in a bool first */
#define WARN_ONCE(condition, fmt...)                                           \
  ({                                                                           \
    static bool __already_done;                                                \
    bool __ret_do_once = !!(condition);                                        \
    if (unlikely(__ret_do_once && !__already_done)) {                          \
      __already_done = true;                                                   \
      printk(fmt);                                                             \
    }                                                                          \
    unlikely(__ret_do_once);                                                   \
  })

#endif
/* validation round 3: driver-side lookups */
struct acpi_device { int status; struct device dev; };
struct acpi_device *acpi_dev_get_first_match_dev(const char *hid, const char *uid, long long hrv);
void acpi_dev_put(struct acpi_device *adev);
int acpi_dev_ready(struct acpi_device *adev);
struct acpi_device *acpi_dev_get_next_match_dev(struct acpi_device *adev, const char *hid, const char *uid, long long hrv);
#define for_each_acpi_dev_match(adev, hid, uid, hrv)                           \
  for (adev = acpi_dev_get_first_match_dev(hid, uid, hrv); adev;               \
       adev = acpi_dev_get_next_match_dev(adev, hid, uid, hrv))
/* regmap: the device a map was created for (out of line in the kernel) */
struct regmap;
struct device *regmap_get_device(struct regmap *map);
void pm_runtime_mark_last_busy(struct device *dev);
int regmap_read(struct regmap *map, unsigned int reg, unsigned int *val);
int regmap_write(struct regmap *map, unsigned int reg, unsigned int val);
struct i2c_adapter *i2c_get_adapter(int nr);
struct i2c_adapter *of_get_i2c_adapter_by_node(struct device_node *node);
void i2c_put_adapter(struct i2c_adapter *adap);
int i2c_adapter_probe(struct i2c_adapter *adap);
struct tty_struct { int index; };
struct tty_port { struct tty_struct *tty; };
struct tty_struct *tty_port_tty_get(struct tty_port *port);
void tty_kref_put(struct tty_struct *tty);
void tty_hangup(struct tty_struct *tty);
int tty_busy(struct tty_struct *tty);
struct mii_bus { int state; struct device dev; };
struct mii_bus *of_mdio_find_bus(struct device_node *mdio_np);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data);
struct device *class_find_device_by_of_node(struct class *class, const struct device_node *np);
struct device *driver_find_device(struct device_driver *drv, struct device *start, const void *data, int (*match)(struct device *dev, const void *data));
