// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: iterator loops (for_each_child_of_node(),
 * for_each_available_child_of_node(), for_each_compatible_node(),
 * for_each_pci_dev(), device_for_each_child_node()) hold the current node's
 * reference: leaving the loop by break or return leaks it; finishing the
 * loop, putting the node before leaving, returning it or storing it does
 * not. */

struct priv { struct device_node *np; struct device *dev; struct net_device *ndev; };

int child_break(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) { // expected-note{{The call to of_get_next_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}}
    if (of_device_is_available(child)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      break; // v19-note{{Execution continues on line 19}} v22-note{{Execution jumps to the end of the function}}
  }
  return 0; // LEAK child // expected-warning{{Reference to 'child' held by the loop over of_get_next_child() leaks: the loop is left without of_node_put()}} expected-note{{Reference to 'child' held by the loop over of_get_next_child() leaks: the loop is left without of_node_put()}}
}

int child_return_inside(struct device_node *parent) {
  struct device_node *child;
  for_each_available_child_of_node(parent, child) { // expected-note{{The call to of_get_next_available_child() returns a counted reference (+1): 'child' must be released}} expected-note{{Assuming 'child' is not equal to null}} expected-note{{Loop condition is true.  Entering loop body}}
    u32 reg;
    if (of_property_read_u32(child, "reg", &reg)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return -EINVAL; // LEAK child // expected-warning{{Reference to 'child' held by the loop over of_get_next_available_child() leaks: the loop is left without of_node_put()}} expected-note{{Reference to 'child' held by the loop over of_get_next_available_child() leaks: the loop is left without of_node_put()}}
  }
  return 0;
}

/* LLVM 22 stops unrolling this loop before its third iteration: the leak is
   only reached by LLVM 19 (a known false negative on 22). */
int find_in_loop(void) {
  struct device_node *np;
  int n = 0;
  for_each_compatible_node(np, NULL, "vendor,chip") { // v19-note{{Loop condition is true.  Entering loop body}} v19-note{{Loop condition is true.  Entering loop body}} v19-note{{The call to of_find_compatible_node() returns a counted reference (+1): 'np' must be released}} v19-note{{Loop condition is true.  Entering loop body}}
    if (n++ == 2) // v19-note{{Taking false branch}} v19-note{{Taking false branch}} v19-note{{Taking true branch}}
      return n; // LEAK np // v19-warning{{Reference to 'np' held by the loop over of_find_compatible_node() leaks: the loop is left without of_node_put()}} v19-note{{Reference to 'np' held by the loop over of_find_compatible_node() leaks: the loop is left without of_node_put()}}
  }
  return n;
}

int for_each_pci_leak(void) {
  struct pci_dev *pdev = NULL;
  for_each_pci_dev(pdev) { // expected-note{{The call to pci_get_device() returns a counted reference (+1): 'pdev' must be released}} expected-note{{Assuming the condition is true}} expected-note{{Loop condition is true.  Entering loop body}}
    if (pdev->vendor == 0x8086) // expected-note{{Assuming field 'vendor' is equal to 32902}} expected-note{{Taking true branch}}
      return 1; // LEAK // expected-warning{{Reference to 'pdev' held by the loop over pci_get_device() leaks: the loop is left without pci_dev_put()}} expected-note{{Reference to 'pdev' held by the loop over pci_get_device() leaks: the loop is left without pci_dev_put()}}
  }
  return 0;
}

int fwnode_child_leak(struct device *dev) {
  struct fwnode_handle *child;
  device_for_each_child_node(dev, child) { // expected-note{{The call to device_get_next_child_node() returns a counted reference (+1): 'child' must be released}} expected-note{{Loop condition is true.  Entering loop body}}
    u32 v;
    if (fwnode_property_read_u32(child, "reg", &v)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return -EINVAL; // LEAK // expected-warning{{Reference to 'child' held by the loop over device_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}} expected-note{{Reference to 'child' held by the loop over device_get_next_child_node() leaks: the loop is left without fwnode_handle_put()}}
  }
  return 0;
}

int loop_finishes(struct device_node *parent) {
  struct device_node *child;
  int n = 0;
  for_each_child_of_node(parent, child)
    n++;
  return n; // no-warning
}

int loop_put_before_break(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child) {
    if (of_device_is_available(child)) {
      of_node_put(child);
      break;
    }
  }
  return 0; // no-warning
}

int loop_put_before_return(struct device_node *parent) {
  struct device_node *child;
  for_each_available_child_of_node(parent, child) {
    u32 reg;
    if (of_property_read_u32(child, "reg", &reg)) {
      of_node_put(child);
      return -EINVAL; // no-warning
    }
  }
  return 0;
}

struct device_node *loop_returns_child(struct device_node *parent) {
  struct device_node *child;
  for_each_child_of_node(parent, child)
    if (of_device_is_available(child))
      return child; // no-warning
  return NULL;
}

int loop_stores_child(struct device_node *parent, struct priv *p) {
  struct device_node *child;
  for_each_child_of_node(parent, child) {
    if (of_device_is_available(child)) {
      p->np = child;
      break; // no-warning
    }
  }
  return 0;
}

int pci_loop_finishes(void) {
  struct pci_dev *pdev = NULL;
  int n = 0;
  for_each_pci_dev(pdev)
    n++;
  return n; // no-warning
}

/* dma_fence_chain_for_each(): each step (dma_fence_chain_walk(), a row of
 * kind acquire-next) puts the fence it is given and returns the next one
 * with a count: the walk holds one fence at a time, like the device-tree
 * iterators (amdgpu_sync_resv(), held-out set 10). Spelled with kref_get()
 * and kref_put(), which is what the inline dma_fence_get()/_put() are. */
static void fence_release(struct kref *ref) {}

int fence_chain_find_leaks(struct dma_fence *head, unsigned long flag) {
  struct dma_fence *f;
  kref_get(&head->refcount);
  for (f = head; f; f = dma_fence_chain_walk(f)) { // expected-note 2 {{Loop condition is true.  Entering loop body}} expected-note{{The call to dma_fence_chain_walk() returns a counted reference (+1): 'f' must be released}}
    if (f->flags & flag) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
      return 1; // LEAK f // expected-warning{{Reference to 'f' acquired by dma_fence_chain_walk() is not released on this path (missing dma_fence_put())}} expected-note{{Reference to 'f' acquired by dma_fence_chain_walk() is not released on this path (missing dma_fence_put())}}
  }
  return 0; // no-warning: each step put the fence it left
}

int fence_chain_find_puts(struct dma_fence *head, unsigned long flag) {
  struct dma_fence *f;
  kref_get(&head->refcount);
  for (f = head; f; f = dma_fence_chain_walk(f)) {
    if (f->flags & flag) {
      kref_put(&f->refcount, fence_release);
      return 1; // no-warning: put before leaving the walk
    }
  }
  return 0; // no-warning
}
