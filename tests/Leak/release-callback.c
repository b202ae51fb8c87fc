// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,on %s
// RUN: %analyze -analyzer-checker=refcount.Leak %inline -verify=expected,off %s -analyzer-config refcount:DisableRules=release-callback-puts
// RUN: %analyze -analyzer-checker=refcount.Leak %proto -verify=expected,off %s -analyzer-config refcount:DisableRules=release-callback-puts

/* refcount.Leak, rule release-callback-puts: a put of a device whose
 * release callback this path installed runs that callback, and the counts
 * its body puts on other fields of the same structure are its to drop
 * (drivers/char/tpm/tpm2-space.c tpm_devs_add(): get_device(&chip->dev) on
 * behalf of chip->devs, put by tpm_devs_release(); with the rule off the
 * error path reads as a leak, `off`). Reported in both modes: a callback
 * that puts nothing, and a callback never installed. */

struct chip { int num; struct device dev; struct device devs; };

static void chip_devs_release(struct device *d) {
  struct chip *c = container_of(d, struct chip, devs);
  put_device(&c->dev);
}

static void chip_devs_forget(struct device *d) {
  struct chip *c = container_of(d, struct chip, devs);
  c->num = 0;
}

int chip_devs_add_ok(struct chip *chip) {
  int rc;
  device_initialize(&chip->devs);
  get_device(&chip->dev); // off-note{{Reference to '&chip->dev' taken by get_device()}}
  chip->devs.release = chip_devs_release;
  rc = dev_set_name(&chip->devs, "tpmrm%d", chip->num);
  if (rc) // off-note{{Assuming 'rc' is not equal to 0}} off-note{{Taking true branch}}
    goto err; // off-note{{Control jumps to line 39}}
  rc = device_add(&chip->devs);
  if (rc)
    goto err;
  return 0;
err:
  put_device(&chip->devs); // off-note{{Reference to '&chip->devs' released by put_device()}}
  return rc; // off-warning{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}} off-note{{Returning the nonzero status of dev_set_name(): a failure, by the kernel's 0-or-errno convention}} off-note{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}}
}

int chip_devs_add_bad(struct chip *chip) {
  int rc;
  device_initialize(&chip->devs);
  get_device(&chip->dev); // expected-note{{Reference to '&chip->dev' taken by get_device()}}
  chip->devs.release = chip_devs_forget;
  rc = device_add(&chip->devs); // expected-note{{The call to device_add() fails: it keeps nothing, and the object is still this path's to put}}
  if (rc) // expected-note{{'rc' is not equal to 0}} expected-note{{Taking true branch}}
    goto err; // expected-note{{Control jumps to line 53}}
  return 0;
err:
  put_device(&chip->devs); // expected-note{{Reference to '&chip->devs' released by put_device()}}
  return rc; // LEAK: the callback puts nothing expected-warning{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}}
}

int chip_devs_add_unset(struct chip *chip) {
  int rc;
  device_initialize(&chip->devs);
  get_device(&chip->dev); // expected-note{{Reference to '&chip->dev' taken by get_device()}}
  rc = device_add(&chip->devs); // expected-note{{The call to device_add() fails: it keeps nothing, and the object is still this path's to put}}
  if (rc) // expected-note{{'rc' is not equal to 0}} expected-note{{Taking true branch}}
    goto err; // expected-note{{Control jumps to line 66}}
  return 0;
err:
  put_device(&chip->devs); // expected-note{{Reference to '&chip->devs' released by put_device()}}
  return rc; // LEAK: no callback installed here expected-warning{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}} expected-note{{Reference to '&chip->dev' taken by get_device() is not released on this error path (missing put_device())}}
}
