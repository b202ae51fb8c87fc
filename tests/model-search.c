// RUN: rm -rf %t && mkdir -p %t/proj/drivers/widget
// RUN: cp %S/Inputs/models/subsys.yaml %t/proj/.krefcheck.yaml
// RUN: cp %s %t/proj/drivers/widget/w.c
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %inline -verify=found %t/proj/drivers/widget/w.c
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto -verify=found %t/proj/drivers/widget/w.c
//
// The option wins over the search.
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %inline -analyzer-config refcount:ModelFile=%S/Inputs/models/empty.yaml -verify=notfound %t/proj/drivers/widget/w.c
//
// The nearest .krefcheck.yaml wins: drivers/ hides proj/.
// RUN: cp %S/Inputs/models/empty.yaml %t/proj/drivers/.krefcheck.yaml
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto -verify=notfound %t/proj/drivers/widget/w.c
//
// Without the option, .krefcheck.yaml is looked for in the main source
// file's directory, then in each ancestor directory up to the root; the
// first found is the model file.

struct widget;
struct widget *widget_lookup(int id);
void widget_put(struct widget *w);
int use(void *p);

int lookup_leak(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -ENOENT;
  return use(w); // found-warning{{Reference to 'w' acquired by widget_lookup() is not released on this path (missing widget_put())}}
}
int parent_leak(struct device_node *child) {
  struct device_node *np = of_get_parent(child);
  if (!np)
    return -ENODEV;
  return use(np); // notfound-warning{{Reference to 'np' acquired by of_get_parent() is not released on this path (missing of_node_put())}}
}
