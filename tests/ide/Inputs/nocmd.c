// Not in compile_commands.json: clangd uses its fallback command, which
// knows no -I for the kernel header.
#include <kernel-inline.h>

int nocmd(void)
{
	return 0;
}
