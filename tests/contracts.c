// RUN: %analyze -analyzer-checker=refcount.Leak %inline -I %S/../include -analyzer-config refcount:DumpContracts=true -analyzer-config refcount:ModelFile=%inputs/models/contracts-user.yaml %s 2>&1 | FileCheck %s --implicit-check-not=contract
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../include -analyzer-config refcount:DumpContracts=true -analyzer-config refcount:ModelFile=%inputs/models/contracts-user.yaml %s 2>&1 | FileCheck %s --implicit-check-not=contract
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -I %S/../include %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
//
// refcount:DumpContracts prints the contract the lifetime model applies to
// each call, once per call site, with where it came from: an annotation, the
// user's model file, the built-in model, or the naming rules.
// OFF-NOT: contract of

#include <krefcheck/annotations.h>

struct gadget;
struct gadget *gadget_find(int id);
void gadget_put(struct gadget *g);
KREF_CONSUMES(1) void gadget_publish(struct gadget *g);
void my_log_gadget(struct gadget *g);
int gadget_register(struct gadget *g);
void gadget_destroy(struct gadget *g);
int use(void *p);
struct gadget *gadget_view(struct device *dev);
KREF_SAME_RESULT struct device *gadget_dev(struct gadget *g);
KREF_STORES(2) int gadget_index(struct idr *idr, struct gadget *g);

int contracts(struct device *dev, int (*cb)(void *)) {
  struct device_node *np = of_find_node_by_path("/soc");
  // CHECK: contracts.c:[[@LINE-1]]:28: contract of of_find_node_by_path(): source built-in model; family node; fails: null; returns a new reference, put with of_node_put()
  if (!np)
    return -1;
  of_node_put(np);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of of_node_put(): source user model; family node; arg 1: release
  struct gadget *g = gadget_find(1);
  // CHECK: contracts.c:[[@LINE-1]]:22: contract of gadget_find(): source user model; family gadget; fails: null; returns a new reference, put with gadget_put()
  if (!g)
    return -1;
  my_log_gadget(g);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of my_log_gadget(): source user model; role logging
  gadget_register(g);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of gadget_register(): source naming rules; arg 1: keep{{$}}
  gadget_destroy(g);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of gadget_destroy(): source naming rules; arg 1: give-up{{$}}
  gadget_publish(g);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of gadget_publish(): source annotation; family user; arg 1: consume
  cb(dev);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of an indirect call: source naming rules; every arg: keep
  struct gadget *view = gadget_view(dev);
  // CHECK: contracts.c:[[@LINE-1]]:25: contract of gadget_view(): source none; may return a view of an argument
  use(dev_get_drvdata(dev));
  // CHECK: contracts.c:[[@LINE-1]]:7: contract of dev_get_drvdata(): source built-in model; role driver-data; returns the driver data of arg 1
  // CHECK: contracts.c:[[@LINE-2]]:3: contract of use(): source none{{$}}
  dev_err(dev, "done");
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of dev_err(): source built-in model; role logging
  use(regmap_get_device(0));
  // CHECK: contracts.c:[[@LINE-1]]:7: contract of regmap_get_device(): source built-in model; role same-result; the same arguments give the same result on a path
  // CHECK: contracts.c:[[@LINE-2]]:3: contract of use(): source none{{$}}
  use(gadget_dev(0));
  // CHECK: contracts.c:[[@LINE-1]]:7: contract of gadget_dev(): source annotation; role same-result; the same arguments give the same result on a path
  // CHECK: contracts.c:[[@LINE-2]]:3: contract of use(): source none{{$}}
  idr_alloc(0, dev, 0, 0, 0);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of idr_alloc(): source built-in model; family user; fails: negative; role allocator; arg 2: store
  gadget_index(0, 0);
  // CHECK: contracts.c:[[@LINE-1]]:3: contract of gadget_index(): source annotation; family user; arg 2: store
  if (device_register(dev))
    return -1;
  // CHECK: contracts.c:[[@LINE-2]]:7: contract of device_register(): source built-in model; family device; arg 1: acquire; sets up the first reference of arg 1, put with put_device(); kept when it succeeds, undone with device_unregister()
  return 0;
}
