// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=plain-style-counter
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=plain-style-counter

/* refcount.Leak: a refcount_t that the translation unit never uses as a
 * lifetime count (no decrement-and-test, no test-for-zero get) and puts with
 * a plain refcount_dec() in a function of its own counts users or events
 * (rule plain-style-counter): lib/ref_tracker.c's dir->untracked, raised on
 * the -ENOMEM path on purpose. Twins: a counter with a decrement-and-test in
 * the TU, and one whose only plain decrement undoes its own function's get
 * (the final put may be in another file), are still references. */

struct tracker_dir { refcount_t untracked; refcount_t users; refcount_t pending; };

void dir_untracked_put(struct tracker_dir *d) { refcount_dec(&d->untracked); }

int dir_track(struct tracker_dir *d, int fail) {
  if (fail) { // off-note{{Assuming 'fail' is not equal to 0}} off-note{{Taking true branch}}
    refcount_inc(&d->untracked); // off-note{{Reference to '&d->untracked' taken by refcount_inc()}}
    return -ENOMEM; // no-warning (rule on): a count of untracked users // off-warning{{Reference to '&d->untracked' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} off-note{{Reference to '&d->untracked' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  }
  return 0;
}

void dir_put(struct tracker_dir *d) {
  if (refcount_dec_and_test(&d->users))
    kfree(d);
}

int dir_use(struct tracker_dir *d, int fail) {
  refcount_inc(&d->users); // expected-note{{Reference to '&d->users' taken by refcount_inc()}}
  if (fail) // expected-note{{Assuming 'fail' is not equal to 0}} expected-note{{Taking true branch}}
    return -EIO; // expected-warning{{Reference to '&d->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&d->users' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}

int dir_pend_undo(struct tracker_dir *d, int fail) {
  refcount_inc(&d->pending);
  if (fail) {
    refcount_dec(&d->pending);
    return -EAGAIN; // no-warning
  }
  return 0;
}

int dir_pend(struct tracker_dir *d, int fail) {
  refcount_inc(&d->pending); // expected-note{{Reference to '&d->pending' taken by refcount_inc()}}
  if (fail) // expected-note{{Assuming 'fail' is not equal to 0}} expected-note{{Taking true branch}}
    return -EBUSY; // expected-warning{{Reference to '&d->pending' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}} expected-note{{Reference to '&d->pending' taken by refcount_inc() is not released on this error path (missing refcount_dec_and_test())}}
  return 0;
}
