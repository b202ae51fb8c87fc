// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-pointer-distinct
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=fresh-pointer-distinct

/* refcount.Leak: an object the path allocated and created (kref_init())
 * and has not stored anywhere is not any pointer read from memory (rule
 * fresh-pointer-distinct): after a find-or-add that returned an element of
 * the list, `dev != new_dev` holds (rnbd_srv_get_or_create_srv_dev(),
 * Linux 6.1). With the rule off (prefix off) the analyzer also takes the
 * branch where the found element is the new object: in the kernel TU that
 * branch gave a false leak of rnbd's new device (not reproduced by this
 * smaller file, whose first function is silent both ways); here the leak
 * of the new object when another was found is reported on that impossible
 * branch with the rule off, and on the real one with it on. */

int strncmp(const char *a, const char *b, unsigned long n);
struct sdev { struct list_head list; char id[16]; struct kref kref; };
static LIST_HEAD(sdev_list);
void sdev_release(struct kref *k);
int sdev_check(struct sdev *d);

static struct sdev *sdev_find_or_add(struct sdev *new_dev) {
  struct sdev *dev;
  list_for_each_entry(dev, &sdev_list, list) { // expected-note{{Loop condition is true.  Entering loop body}}
    if (!strncmp(dev->id, new_dev->id, sizeof(dev->id))) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      if (!kref_get_unless_zero(&dev->kref)) // expected-note{{Taking false branch}}
        continue;
      return dev;
    }
  }
  list_add(&new_dev->list, &sdev_list);
  return new_dev;
}

struct sdev *sdev_get_or_create(void) {
  struct sdev *new_dev, *dev;
  new_dev = kzalloc(sizeof(*new_dev), GFP_KERNEL);
  if (!new_dev)
    return ERR_PTR(-ENOMEM);
  kref_init(&new_dev->kref);
  dev = sdev_find_or_add(new_dev);
  if (dev != new_dev)
    kfree(new_dev);
  if (sdev_check(dev)) {
    kref_put(&dev->kref, sdev_release);
    return ERR_PTR(-EPERM); // no-warning (rule on): the found device is not the new one
  }
  return dev;
}

struct sdev *sdev_get_or_create_leaks(void) {
  struct sdev *new_dev, *dev;
  new_dev = kzalloc(sizeof(*new_dev), GFP_KERNEL);
  if (!new_dev) // expected-note{{Assuming 'new_dev' is non-null}} expected-note{{Taking false branch}}
    return ERR_PTR(-ENOMEM);
  kref_init(&new_dev->kref); // expected-note{{The call to kref_init() sets the count of the new object 'new_dev' to one: this path holds its first reference}}
  dev = sdev_find_or_add(new_dev); // expected-note{{Calling 'sdev_find_or_add'}} expected-note{{Returning from 'sdev_find_or_add'}}
  if (dev != new_dev) // on-note{{Assuming 'dev' is not equal to 'new_dev'}} on-note{{Taking true branch}} off-note{{Assuming 'dev' is equal to 'new_dev'}} off-note{{Taking false branch}}
    return dev; // LEAK: the new object, when another was found on-warning{{The new object 'new_dev', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} on-note{{The new object 'new_dev', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
  return dev; // off-warning{{The new object 'new_dev', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}} off-note{{The new object 'new_dev', whose count kref_init() set to one, is neither put nor freed on this path (missing kref_put())}}
}
