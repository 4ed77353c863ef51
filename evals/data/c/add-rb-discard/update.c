#include <assert.h>
#include <stddef.h>
#include <stdint.h>
// ... existing code ...
	rb->dropped = 0;
	assert(rb_used(rb) == 0);
	return RB_OK;
}
// ... existing code ...
int rb_peek(const struct ringbuf *rb, size_t offset, uint8_t *out)
{
	// ... existing code ...
}

size_t rb_discard(struct ringbuf *rb, size_t len)
{
	size_t n = len < rb_used(rb) ? len : rb_used(rb);

	rb->tail += n;
	return n;
}

// ... existing code ...
