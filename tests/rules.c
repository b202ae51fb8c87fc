// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %inline -verify=on %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto -verify=on %s
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %inline -verify=off %s -analyzer-config 'refcount:DisableRules=name-takes-ownership;name-gives-up power-cycle;init-permanent'
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto -verify=off %s -analyzer-config 'refcount:DisableRules=name-takes-ownership;name-gives-up power-cycle;init-permanent'
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto %s -analyzer-config refcount:RuleStats=true 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %clang_cc1 -analyze -load %plugin -analyzer-checker=core,refcount.Leak -I %inputs %proto %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
//
// The rules of the rule registry (checker/Rules.def): each one that silences
// a report here reports again when refcount:DisableRules names it, and
// refcount:RuleStats counts how often each fired.
// on-no-diagnostics

#define __init __attribute__((__section__(".init.text")))

void node_register(struct device_node *np);
void node_destroy(struct device_node *np);

/* name-takes-ownership: a callee whose name says it keeps what it is given */
void hand_to_registry(void) {
  struct device_node *np = of_find_node_by_path("/a");
  if (!np)
    return;
  node_register(np);
} // off-warning{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}}

/* name-gives-up: a callee whose name says it destroys what it is given */
void give_up(void) {
  struct device_node *np = of_find_node_by_path("/b");
  if (!np)
    return;
  node_destroy(np);
} // off-warning{{Reference to 'np' acquired by of_find_node_by_path() is not released on this path (missing of_node_put())}}

/* power-cycle: the get gives back the caller's count the put dropped */
int power_cycle(struct device *dev) {
  pm_runtime_put_sync(dev);
  dev_err(dev, "cycling");
  pm_runtime_get_sync(dev);
  return -EIO; // off-warning{{The runtime-PM usage count of 'dev' taken by pm_runtime_get_sync() is not dropped on this error path (missing pm_runtime_put_noidle()); pm_runtime_get_sync() increments it even when it fails: consider pm_runtime_resume_and_get()}}
}

/* init-permanent: an __init function keeps what it creates */
int __init make_dir(struct kobject *parent) {
  struct kobject *k = kobject_create_and_add("dir", parent);
  if (!k)
    return -ENOMEM;
  return 0; // off-warning{{Reference to 'k' acquired by kobject_create_and_add() is not released on this path (missing kobject_put())}}
}

// STATS-DAG: krefcheck-rule-stats: {{.*}}rules.c name-takes-ownership {{[1-9][0-9]*}}
// STATS-DAG: krefcheck-rule-stats: {{.*}}rules.c name-gives-up {{[1-9][0-9]*}}
// STATS-DAG: krefcheck-rule-stats: {{.*}}rules.c power-cycle {{[1-9][0-9]*}}
// STATS-DAG: krefcheck-rule-stats: {{.*}}rules.c init-permanent {{[1-9][0-9]*}}
// STATS-DAG: krefcheck-cost: {{.*}}rules.c exploded-nodes {{[1-9][0-9]*}} analyses {{[1-9][0-9]*}}
// QUIET-NOT: krefcheck-rule-stats
// QUIET-NOT: krefcheck-cost
