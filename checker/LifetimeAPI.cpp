//===- LifetimeAPI.cpp - The kernel's object get/put APIs, as a table -----===//

#include "LifetimeAPI.h"
#include "llvm/ADT/StringMap.h"

using namespace krefcheck;

namespace {

constexpr LifeOp Acq = LifeOp::Acquire;
constexpr LifeOp Rel = LifeOp::Release;
constexpr LifeOp Next = LifeOp::ConsumeAcquire;
constexpr Family Node = Family::Node;
constexpr Family Dev = Family::Device;
constexpr Family Pm = Family::PmRuntime;
constexpr Family Kref = Family::Kref;
constexpr Failure Null = Failure::Null;
constexpr Failure Never = Failure::Never;
constexpr Failure ErrPtr = Failure::ErrPtr;

// {Name, Op, Family, RefArg, ConsumedArg, Failure, ReturnsArg, Observe}
const LifetimeAPI Table[] = {
    // ---- device_node: of_node_get/put, +1 lookups, iterator steps ----
    {"of_node_get", Acq, Node, 0, NoArg, Never, true},
    {"of_node_put", Rel, Node, 0},
    {"of_find_node_by_name", Next, Node, RetVal, 0, Null},
    {"of_find_node_by_type", Next, Node, RetVal, 0, Null},
    {"of_find_compatible_node", Next, Node, RetVal, 0, Null},
    {"of_find_node_with_property", Next, Node, RetVal, 0, Null},
    {"of_find_matching_node", Next, Node, RetVal, 0, Null},
    {"of_find_matching_node_and_match", Next, Node, RetVal, 0, Null},
    {"of_find_all_nodes", Next, Node, RetVal, 0, Null},
    {"of_find_node_by_path", Acq, Node, RetVal, NoArg, Null},
    {"of_find_node_opts_by_path", Acq, Node, RetVal, NoArg, Null},
    {"of_find_node_by_phandle", Acq, Node, RetVal, NoArg, Null},
    {"of_get_parent", Acq, Node, RetVal, NoArg, Null},
    {"of_get_next_parent", Next, Node, RetVal, 0, Null},
    {"of_get_next_child", Next, Node, RetVal, 1, Null},
    {"of_get_next_available_child", Next, Node, RetVal, 1, Null},
    {"of_get_next_cpu_node", Next, Node, RetVal, 0, Null},
    {"of_get_compatible_child", Acq, Node, RetVal, NoArg, Null},
    {"of_get_child_by_name", Acq, Node, RetVal, NoArg, Null},
    {"of_get_cpu_node", Acq, Node, RetVal, NoArg, Null},
    {"of_cpu_device_node_get", Acq, Node, RetVal, NoArg, Null},
    {"of_parse_phandle", Acq, Node, RetVal, NoArg, Null},
    {"of_find_next_cache_node", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_next_endpoint", Next, Node, RetVal, 1, Null},
    {"of_graph_get_remote_endpoint", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_remote_port_parent", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_remote_port", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_port_parent", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_remote_node", Acq, Node, RetVal, NoArg, Null},
    {"of_graph_get_endpoint_by_regs", Acq, Node, RetVal, NoArg, Null},
    // ---- fwnode_handle (same count as the device_node behind it) ----
    {"fwnode_handle_get", Acq, Node, 0, NoArg, Never, true},
    {"fwnode_handle_put", Rel, Node, 0},
    {"fwnode_get_next_child_node", Next, Node, RetVal, 1, Null},
    {"fwnode_get_next_available_child_node", Next, Node, RetVal, 1, Null},
    {"device_get_next_child_node", Next, Node, RetVal, 1, Null},
    {"fwnode_get_named_child_node", Acq, Node, RetVal, NoArg, Null},
    {"device_get_named_child_node", Acq, Node, RetVal, NoArg, Null},
    {"fwnode_get_parent", Acq, Node, RetVal, NoArg, Null},
    {"fwnode_get_next_parent", Next, Node, RetVal, 0, Null},
    {"fwnode_find_reference", Acq, Node, RetVal, NoArg, ErrPtr},
    {"fwnode_graph_get_next_endpoint", Next, Node, RetVal, 1, Null},
    {"fwnode_graph_get_remote_endpoint", Acq, Node, RetVal, NoArg, Null},
    {"fwnode_graph_get_remote_port_parent", Acq, Node, RetVal, NoArg, Null},
    {"fwnode_graph_get_port_parent", Acq, Node, RetVal, NoArg, Null},
    {"fwnode_graph_get_endpoint_by_id", Acq, Node, RetVal, NoArg, Null},
    // ---- struct device and what embeds it ----
    {"get_device", Acq, Dev, 0, NoArg, Never, true},
    {"put_device", Rel, Dev, 0},
    {"bus_find_device", Acq, Dev, RetVal, NoArg, Null},
    {"bus_find_device_by_name", Acq, Dev, RetVal, NoArg, Null},
    {"bus_find_device_by_of_node", Acq, Dev, RetVal, NoArg, Null},
    {"bus_find_device_by_fwnode", Acq, Dev, RetVal, NoArg, Null},
    {"bus_find_device_by_devt", Acq, Dev, RetVal, NoArg, Null},
    {"bus_find_next_device", Acq, Dev, RetVal, NoArg, Null},
    {"class_find_device", Acq, Dev, RetVal, NoArg, Null},
    {"class_find_device_by_name", Acq, Dev, RetVal, NoArg, Null},
    {"class_find_device_by_of_node", Acq, Dev, RetVal, NoArg, Null},
    {"class_find_device_by_fwnode", Acq, Dev, RetVal, NoArg, Null},
    {"class_find_device_by_devt", Acq, Dev, RetVal, NoArg, Null},
    {"driver_find_device", Acq, Dev, RetVal, NoArg, Null},
    {"driver_find_device_by_name", Acq, Dev, RetVal, NoArg, Null},
    {"driver_find_device_by_of_node", Acq, Dev, RetVal, NoArg, Null},
    {"device_find_child", Acq, Dev, RetVal, NoArg, Null},
    {"device_find_child_by_name", Acq, Dev, RetVal, NoArg, Null},
    {"of_find_device_by_node", Acq, Dev, RetVal, NoArg, Null},
    {"of_find_i2c_device_by_node", Acq, Dev, RetVal, NoArg, Null},
    {"of_find_i2c_adapter_by_node", Acq, Dev, RetVal, NoArg, Null},
    {"platform_device_put", Rel, Dev, 0},
    {"kobject_get", Acq, Dev, 0, NoArg, Never, true},
    {"kobject_put", Rel, Dev, 0},
    {"kobject_create_and_add", Acq, Dev, RetVal, NoArg, Null},
    {"usb_get_dev", Acq, Dev, 0, NoArg, Never, true},
    {"usb_put_dev", Rel, Dev, 0},
    {"usb_get_intf", Acq, Dev, 0, NoArg, Never, true},
    {"usb_put_intf", Rel, Dev, 0},
    {"pci_dev_get", Acq, Dev, 0, NoArg, Never, true},
    {"pci_dev_put", Rel, Dev, 0},
    {"pci_get_device", Next, Dev, RetVal, 2, Null},
    {"pci_get_subsys", Next, Dev, RetVal, 4, Null},
    {"pci_get_class", Next, Dev, RetVal, 1, Null},
    {"pci_get_slot", Acq, Dev, RetVal, NoArg, Null},
    {"pci_get_domain_bus_and_slot", Acq, Dev, RetVal, NoArg, Null},
    // ---- runtime PM usage count ----
    {"pm_runtime_get_sync", Acq, Pm, 0, NoArg, Never},
    {"pm_runtime_get", Acq, Pm, 0, NoArg, Never},
    {"pm_runtime_get_noresume", Acq, Pm, 0, NoArg, Never},
    {"pm_runtime_resume_and_get", Acq, Pm, 0, NoArg, Failure::NegErrno},
    {"pm_runtime_get_if_in_use", Acq, Pm, 0, NoArg, Failure::NotPositive},
    {"pm_runtime_get_if_active", Acq, Pm, 0, NoArg, Failure::NotPositive},
    {"pm_runtime_put", Rel, Pm, 0},
    {"pm_runtime_put_sync", Rel, Pm, 0},
    {"pm_runtime_put_noidle", Rel, Pm, 0},
    {"pm_runtime_put_autosuspend", Rel, Pm, 0},
    {"pm_runtime_put_sync_autosuspend", Rel, Pm, 0},
    {"pm_runtime_put_sync_suspend", Rel, Pm, 0},
    // ---- networking ----
    {"dev_hold", Acq, Family::NetDev, 0},
    {"dev_put", Rel, Family::NetDev, 0},
    {"netdev_hold", Acq, Family::NetDev, 0},
    {"netdev_put", Rel, Family::NetDev, 0},
    {"dev_get_by_name", Acq, Family::NetDev, RetVal, NoArg, Null},
    {"dev_get_by_index", Acq, Family::NetDev, RetVal, NoArg, Null},
    {"sock_hold", Acq, Family::Sock, 0},
    {"sock_put", Rel, Family::Sock, 0},
    {"get_net", Acq, Family::Net, 0, NoArg, Never, true},
    {"put_net", Rel, Family::Net, 0},
    {"get_net_ns_by_pid", Acq, Family::Net, RetVal, NoArg, ErrPtr},
    {"get_net_ns_by_fd", Acq, Family::Net, RetVal, NoArg, ErrPtr},
    // ---- dentries ----
    {"dget", Acq, Family::Dentry, 0, NoArg, Never, true},
    {"dput", Rel, Family::Dentry, 0},
    {"dget_parent", Acq, Family::Dentry, RetVal, NoArg, Never},
    {"d_find_alias", Acq, Family::Dentry, RetVal, NoArg, Null},
    {"d_find_any_alias", Acq, Family::Dentry, RetVal, NoArg, Null},
    {"lookup_one_len", Acq, Family::Dentry, RetVal, NoArg, ErrPtr},
    {"lookup_one_len_unlocked", Acq, Family::Dentry, RetVal, NoArg, ErrPtr},
    {"lookup_positive_unlocked", Acq, Family::Dentry, RetVal, NoArg, ErrPtr},
    // ---- kref / refcount_t (evaluated by refcount.Model; observed here) ----
    {"kref_get", Acq, Kref, 0, NoArg, Never, false, true},
    {"kref_get_unless_zero", Acq, Kref, 0, NoArg, Failure::Zero, false, true},
    {"kref_put", Rel, Kref, 0, NoArg, Never, false, true},
    {"kref_put_lock", Rel, Kref, 0, NoArg, Never, false, true},
    {"kref_put_mutex", Rel, Kref, 0, NoArg, Never, false, true},
    {"refcount_inc", Acq, Kref, 0, NoArg, Never, false, true},
    {"refcount_inc_not_zero", Acq, Kref, 0, NoArg, Failure::Zero, false, true},
    {"refcount_dec_and_test", Rel, Kref, 0, NoArg, Never, false, true},
    // ---- issue 5 additions (validation run 2; port to the YAML table) ----
    // The task stack count (tsk->stack_refcount): try_get_task_stack()
    // returns the stack or NULL, put_task_stack() (out of line in
    // kernel/fork.c) drops it. Evaluated here, so both meet on `tsk`.
    {"try_get_task_stack", Acq, Kref, 0, NoArg, Null},
    {"put_task_stack", Rel, Kref, 0},
    // Plain decrements of a refcount_t also give back a refcount_inc()
    // (gss_setup_upcall: refcount_inc, then refcount_dec on its error path).
    {"refcount_dec", Rel, Kref, 0, NoArg, Never, false, true},
    {"refcount_dec_and_lock", Rel, Kref, 0, NoArg, Never, false, true},
    {"refcount_dec_and_lock_irqsave", Rel, Kref, 0, NoArg, Never, false, true},
    {"refcount_dec_and_mutex_lock", Rel, Kref, 0, NoArg, Never, false, true},
};

} // namespace

const LifetimeAPI *krefcheck::lookupLifetimeAPI(llvm::StringRef Name) {
  static const llvm::StringMap<const LifetimeAPI *> Index = [] {
    llvm::StringMap<const LifetimeAPI *> M;
    for (const LifetimeAPI &A : Table)
      M[A.Name] = &A;
    return M;
  }();
  auto It = Index.find(Name);
  return It == Index.end() ? nullptr : It->second;
}

llvm::StringRef krefcheck::releaseNameFor(Family F) {
  switch (F) {
  case Family::Node:
    return "of_node_put()";
  case Family::Device:
    return "put_device()";
  case Family::PmRuntime:
    return "pm_runtime_put()";
  case Family::NetDev:
    return "dev_put()";
  case Family::Sock:
    return "sock_put()";
  case Family::Net:
    return "put_net()";
  case Family::Dentry:
    return "dput()";
  case Family::Kref:
    return "kref_put()";
  }
  return "the matching put";
}

bool krefcheck::isLifetimeFamily(Family F) { return F != Family::PmRuntime; }

bool krefcheck::escapesOnStore(Family F) { return F != Family::PmRuntime; }
