// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: open-coded loops. A cursor that chains counted references
 * (of_find_next_cache_node()) leaks the last one; a loop bound or array read
 * from a static table keeps the table's initial value, so the loop that
 * stores the node is not walked zero times (a table of unknown size may be). */

struct device_node *of_find_next_cache_node(const struct device_node *np);

int cache_levels(struct device_node *cpu) {
  struct device_node *np = of_node_get(cpu), *prev = np;
  int levels = 0;
  while ((np = of_find_next_cache_node(np))) { // expected-note{{The call to of_find_next_cache_node() returns a counted reference (+1): 'np' must be released}} expected-note{{Loop condition is true.  Entering loop body}} v19-note{{Loop condition is false. Execution continues on line 19}} v22-note{{Loop condition is false. Execution jumps to the end of the function}}
    of_node_put(prev);
    prev = np;
    levels++;
  }
  of_node_put(np); // expected-warning{{Reference to 'np' acquired by of_find_next_cache_node() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_find_next_cache_node() is not released on this path (missing of_node_put())}}
  return levels; // LEAK prev (as in drivers/base/cacheinfo.c)
}

/* A loop bound read from a static table still has the table's initial
 * value: the loop that stores the node is not walked zero times
 * (sound/soc/mediatek/mt2701/mt2701-cs42448.c, for_each_card_prelinks() over
 * a static snd_soc_card). */
struct link_like { struct device_node *np; };
struct card_like { int num_links; struct link_like *links; };
static struct link_like card_links[2];
static struct card_like static_card = { .num_links = 2, .links = card_links };
int card_register(struct card_like *c);

int machine_probe_ok(struct device_node *parent) {
  struct card_like *c = &static_card;
  struct device_node *np = of_parse_phandle(parent, "platform", 0);
  int i;
  if (!np)
    return -EINVAL;
  for (i = 0; i < c->num_links; i++)
    c->links[i].np = np;
  return card_register(c); // no-warning: stored by the loop
}

int machine_probe_bad(struct device_node *parent, struct card_like *c) {
  struct device_node *np = of_parse_phandle(parent, "platform", 0); // expected-note{{The call to of_parse_phandle() returns a counted reference (+1): 'np' must be released}}
  int i;
  if (!np) // expected-note{{Assuming 'np' is non-null}} expected-note{{Taking false branch}}
    return -EINVAL;
  for (i = 0; i < c->num_links; i++) // expected-note{{Assuming 'i' is >= field 'num_links'}} v19-note{{Loop condition is false. Execution continues on line}} v22-note{{Loop condition is false. Execution jumps to the end of the function}}
    c->links[i].np = np;
  return card_register(c); // LEAK: a card of unknown size may have no link // expected-warning{{Reference to 'np' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}} expected-note{{Reference to 'np' acquired by of_parse_phandle() is not released on this path (missing of_node_put())}}
}

/* The same loop written as the kernel's macro, which also tests the link
 * pointer: the table's array is not NULL either. */
#define for_each_link_like(c, i, l) \
  for ((i) = 0; ((i) < (c)->num_links) && ((l) = &(c)->links[i]); (i)++)

int machine_probe_macro_ok(struct device_node *parent) {
  struct card_like *c = &static_card;
  struct link_like *l;
  struct device_node *np = of_parse_phandle(parent, "platform", 0);
  int i;
  if (!np)
    return -EINVAL;
  for_each_link_like(c, i, l)
    l->np = np;
  return card_register(c); // no-warning: stored by the loop
}
