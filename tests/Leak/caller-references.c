// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,%vprefix %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,%vprefix %s

/* refcount.Leak: gets on a pointer the function was given (get_device(),
 * of_node_get(), dev_hold(), kref_get(), refcount_inc(),
 * try_get_task_stack()) leak only when still held on an error return; a
 * successful return keeps them (paired elsewhere). refcount_dec() undoes a
 * refcount_inc(); a get on an object's own lifetime-count field is dropped
 * by that object's put (sock_put(), put_net(), kfree_skb()), not by the put
 * of another object; a count the path holds does not read as zero.
 * #N in a comment: run-1 report N of docs/validation-lifetime.md. */

int use(void *p);
int setup(void);
struct priv { struct device_node *np; struct device *dev; struct net_device *ndev; };

int get_device_error(struct device *dev, struct priv *p) {
  get_device(dev); // expected-note{{Reference to 'dev' taken by get_device()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENOMEM; // LEAK // expected-warning{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to 'dev' taken by get_device() is not released on this error path (missing put_device())}}
  p->dev = dev;
  return 0;
}

int of_node_get_error(struct device_node *np) {
  struct device_node *n = of_node_get(np); // expected-note{{Reference to 'np' taken by of_node_get()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EINVAL; // LEAK // expected-warning{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}} expected-note{{Reference to 'np' taken by of_node_get() is not released on this error path (missing of_node_put())}}
  of_node_put(n);
  return 0;
}

int dev_hold_error(struct net_device *nd) {
  dev_hold(nd); // expected-note{{Reference to 'nd' taken by dev_hold()}}
  if (dev_open(nd)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK // expected-warning{{Reference to 'nd' taken by dev_hold() is not released on this error path (missing dev_put())}} expected-note{{Reference to 'nd' taken by dev_hold() is not released on this error path (missing dev_put())}}
  dev_put(nd);
  return 0;
}

void get_device_void(struct device *dev) {
  get_device(dev); // no-warning: paired elsewhere
}

int dev_hold_ok(struct net_device *nd) {
  dev_hold(nd);
  if (dev_open(nd)) {
    dev_put(nd);
    return -EIO; // no-warning
  }
  return 0; // no-warning: success keeps it (paired elsewhere)
}

int kref_get_success(struct kobject *k) {
  kref_get(&k->kref);
  return 0; // no-warning
}

/* #14: task stacks */
int stack_err(struct task_struct *t) {
  void *stack = try_get_task_stack(t); // expected-note{{Reference to 't' taken by try_get_task_stack()}}
  if (!stack) // expected-note{{'stack' is non-null}} expected-note{{Taking false branch}}
    return -EAGAIN;
  if (use(stack)) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EIO; // LEAK expected-warning{{Reference to 't' taken by try_get_task_stack() is not released on this error path (missing put_task_stack())}} expected-note{{Reference to 't' taken by try_get_task_stack() is not released on this error path (missing put_task_stack())}}
  put_task_stack(t);
  return 0;
}

int stack_ok(struct task_struct *t) {
  void *stack = try_get_task_stack(t);
  if (!stack)
    return -EAGAIN;
  if (use(stack)) {
    put_task_stack(t);
    return -EIO; // no-warning
  }
  put_task_stack(t);
  return 0;
}

/* A plain refcount_dec() gives back a refcount_inc() (net/sunrpc
 * gss_setup_upcall's error path). */
struct upmsg { refcount_t count; };
int send_upcall(struct upmsg *m);

int upcall_undo(struct upmsg *m) {
  refcount_inc(&m->count);
  if (send_upcall(m) < 0) {
    refcount_dec(&m->count);
    return -EAGAIN; // no-warning
  }
  return 0;
}

int upcall_no_undo(struct upmsg *m) {
  refcount_inc(&m->count); // expected-note{{Reference to '&m->count' taken by refcount_inc()}}
  if (send_upcall(m) < 0) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -EAGAIN; // LEAK expected-warning{{Reference to '&m->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&m->count' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* validation-sweep #4/#7: a get written on the counter field
 * (`refcount_inc_not_zero(&sk->sk_refcnt)`, or maybe_get_net()'s inline
 * body on `&net->ns.count`) is dropped by the object API's put of the
 * pointer (`sock_put(sk)`, `put_net(peer)`): net/core/skbuff.c
 * skb_clone_sk(), net/core/net_namespace.c peernet2id_alloc(). */
int clone_sk_ok(struct sock *sk) {
  if (!refcount_inc_not_zero(&sk->sk_refcnt))
    return -ENOENT;
  if (setup()) {
    sock_put(sk);
    return -ENOMEM; // no-warning
  }
  return 0;
}

int peer_alive_ok(struct net *peer) {
  bool alive = false;
  if (refcount_inc_not_zero(&peer->count))
    alive = true;
  use(peer);
  if (alive)
    put_net(peer);
  return -EINVAL; // no-warning
}

/* The put of another object, or a count of something else the object
 * keeps, is no release of that count. */
int clone_sk_other(struct sock *sk, struct sock *other) {
  if (!refcount_inc_not_zero(&other->sk_refcnt)) // expected-note{{The call to refcount_inc_not_zero() succeeded: this path holds a reference}} expected-note{{Taking false branch}}
    return -ENOENT;
  if (setup()) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    sock_put(sk);
    return -ENOMEM; // LEAK expected-warning{{Reference to '&other->sk_refcnt' taken by refcount_inc_not_zero() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&other->sk_refcnt' taken by refcount_inc_not_zero() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return 0;
}

int clone_sk_wmem(struct sock *sk) {
  refcount_inc(&sk->sk_wmem_alloc); // expected-note{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc()}}
  if (setup()) { // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    sock_put(sk); // expected-note{{Reference to 'sk' released by sock_put()}}
    return -ENOMEM; // LEAK expected-warning{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&sk->sk_wmem_alloc' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return 0;
}

/* ---- kfree_skb() drops the count (net/netlink __netlink_dump_start()) ---- */
struct skb_ish { refcount_t users; };
void kfree_skb_ish(struct skb_ish *skb);
int dump_start(struct skb_ish *skb) {
  refcount_inc(&skb->users);
  if (setup()) {
    kfree_skb_ish(skb);
    return -ENODEV; // no-warning
  }
  return 0;
}
int dump_start_leak(struct skb_ish *skb) {
  refcount_inc(&skb->users); // expected-note{{Reference to '&skb->users' taken by refcount_inc()}}
  if (setup()) // expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    return -ENODEV; // LEAK expected-warning{{Reference to '&skb->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&skb->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

/* A count this path holds a reference on does not read as zero
 * (drivers/spi/spi-cadence-quadspi.c cqspi_exec_mem_op()). */
struct qspi { refcount_t inflight; refcount_t users; };

int qspi_op_ok(struct qspi *q) {
  refcount_inc(&q->inflight);
  if (!refcount_read(&q->users)) {
    if (refcount_read(&q->inflight))
      refcount_dec(&q->inflight);
    return -EBUSY; // no-warning: the path's own reference keeps it above zero
  }
  refcount_dec(&q->inflight);
  return 0;
}

int qspi_op_bad(struct qspi *q) {
  refcount_inc(&q->inflight); // expected-note{{Reference to '&q->inflight' taken by refcount_inc()}}
  if (!refcount_read(&q->users)) { // expected-note{{The count of 'q->users' is read here without holding a reference of this path}} expected-note{{Assuming the condition is true}} expected-note{{Taking true branch}}
    if (refcount_read(&q->inflight) > 1) // expected-note{{Assuming the condition is false}} expected-note{{Taking false branch}}
      refcount_dec(&q->inflight);
    return -EBUSY; // LEAK: a count of exactly 1 is this path's own expected-warning{{Reference to '&q->inflight' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&q->inflight' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  refcount_dec(&q->inflight);
  return 0;
}
