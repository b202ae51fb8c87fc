// SPDX-License-Identifier: GPL-2.0
/*
 * Example: a subsystem's own get/put pair. gadget_find() and gadget_put()
 * live in another file, so krefcheck cannot see what they do: the
 * .krefcheck.yaml next to this file tells it. Without that file nothing is
 * reported here.
 */
#include <kernel-inline.h>

struct gadget;
struct gadget *gadget_find(int id);
struct gadget *gadget_get(struct gadget *g);
void gadget_put(struct gadget *g);
int gadget_power_on(struct gadget *g);
int gadget_program(struct gadget *g, const void *fw);

/* BUG (refcount.Leak): the error path returns without gadget_put(). */
int gadget_flash(int id, const void *fw)
{
	struct gadget *g = gadget_find(id);
	int err;

	if (!g)
		return -ENODEV;
	err = gadget_power_on(g);
	if (err)
		return err;
	err = gadget_program(g, fw);
	gadget_put(g);
	return err;
}

/* Fixed: every path after a successful gadget_find() puts it. */
int gadget_flash_fixed(int id, const void *fw)
{
	struct gadget *g = gadget_find(id);
	int err;

	if (!g)
		return -ENODEV;
	err = gadget_power_on(g);
	if (!err)
		err = gadget_program(g, fw);
	gadget_put(g);
	return err;
}
