/* Analyzed with a bad model file: no refcount checker may run on it (the
   double put below would be reported otherwise). */
void victim(void) {
  struct device_node *np = of_find_node_by_path("/");
  of_node_put(np);
  of_node_put(np);
}
