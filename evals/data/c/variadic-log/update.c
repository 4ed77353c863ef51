/* ... existing code ... */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
/* ... existing code ... */
static inline size_t rb_free(const struct ringbuf *rb)
{
	return rb->capacity - rb_used(rb);
}

static void rb_debug(const char *fmt, ...)
{
#ifdef RB_DEBUG
	va_list args;

	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
#else
	(void)fmt;
#endif
}
/* ... existing code ... */
	if (rb_is_full(rb)) {
		rb->dropped++;
		rb_debug("ringbuf: dropped byte 0x%02x (%zu total)\n", byte, rb->dropped);
		return RB_FULL;
	}
/* ... existing code ... */
