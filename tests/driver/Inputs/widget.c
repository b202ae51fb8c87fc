/* A subsystem get/put pair the built-in model does not know. */
struct widget;
struct widget *widget_lookup(int id);
void widget_put(struct widget *w);
int use(void *p);
int lookup_leak(int id) {
  struct widget *w = widget_lookup(id);
  if (!w)
    return -1;
  return use(w);
}
