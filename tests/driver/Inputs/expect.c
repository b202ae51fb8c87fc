/* A NULL test wrapped in unlikely(), as in security/selinux/netif.c's
 * sel_netif_sid_slow(): the NULL branch must not be taken with a held node. */
int use(struct device_node *np);

int expect_null_test(const char *path) {
  struct device_node *np = of_find_node_by_path(path);
  if (unlikely(np == NULL))
    return -2;
  int ret = use(np);
  of_node_put(np);
  return ret;
}

/* Its buggy twin is still found. */
int expect_leak(const char *path) {
  struct device_node *np = of_find_node_by_path(path);
  if (unlikely(np == NULL))
    return -2;
  return use(np);
}
