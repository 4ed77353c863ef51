/*
 * ringbuf.c - fixed-capacity byte ring buffer with a line splitter on top.
 *
 * Used by the serial console driver: bytes arrive from the UART interrupt,
 * the main loop drains complete lines and hands them to the command parser.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include "ringbuf.h"

#define RB_MIN_CAPACITY 16u
#define RB_IS_POWER_OF_TWO(x) (((x) != 0u) && (((x) & ((x) - 1u)) == 0u))
#define RB_MASK(rb, i) ((i) & ((rb)->capacity - 1u))

enum rb_status {
	RB_OK = 0,
	RB_EMPTY = -1,
	RB_FULL = -2,
	RB_EINVAL = -3,
	RB_TOO_LONG = -4,
};

struct ringbuf {
	uint8_t *data;
	size_t capacity;
	size_t head;
	size_t tail;
	size_t dropped;
};

struct line_reader {
	struct ringbuf *rb;
	char *line;
	size_t line_cap;
	size_t line_len;
	bool overflowed;
};

static inline size_t rb_used(const struct ringbuf *rb)
{
	return rb->head - rb->tail;
}

static inline size_t rb_free(const struct ringbuf *rb)
{
	return rb->capacity - rb_used(rb);
}

int rb_init(struct ringbuf *rb, uint8_t *storage, size_t capacity)
{
	if (rb == NULL || storage == NULL)
		return RB_EINVAL;
	if (capacity < RB_MIN_CAPACITY || !RB_IS_POWER_OF_TWO(capacity))
		return RB_EINVAL;

	rb->data = storage;
	rb->capacity = capacity;
	rb->head = 0;
	rb->tail = 0;
	rb->dropped = 0;
	return RB_OK;
}

void rb_reset(struct ringbuf *rb)
{
	rb->head = 0;
	rb->tail = 0;
}

bool rb_is_empty(const struct ringbuf *rb)
{
	return rb_used(rb) == 0;
}

bool rb_is_full(const struct ringbuf *rb)
{
	return rb_free(rb) == 0;
}

int rb_put(struct ringbuf *rb, uint8_t byte)
{
	if (rb_is_full(rb)) {
		rb->dropped++;
		return RB_FULL;
	}
	rb->data[RB_MASK(rb, rb->head)] = byte;
	rb->head++;
	return RB_OK;
}

int rb_get(struct ringbuf *rb, uint8_t *out)
{
	if (rb_is_empty(rb))
		return RB_EMPTY;
	*out = rb->data[RB_MASK(rb, rb->tail)];
	rb->tail++;
	return RB_OK;
}

size_t rb_write(struct ringbuf *rb, const uint8_t *src, size_t len)
{
	size_t n = len < rb_free(rb) ? len : rb_free(rb);
	size_t i;

	for (i = 0; i < n; i++)
		rb->data[RB_MASK(rb, rb->head + i)] = src[i];
	rb->head += n;
	rb->dropped += len - n;
	return n;
}

size_t rb_read(struct ringbuf *rb, uint8_t *dst, size_t len)
{
	size_t n = len < rb_used(rb) ? len : rb_used(rb);
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = rb->data[RB_MASK(rb, rb->tail + i)];
	rb->tail += n;
	return n;
}

int rb_peek(const struct ringbuf *rb, size_t offset, uint8_t *out)
{
	if (offset >= rb_used(rb))
		return RB_EMPTY;
	*out = rb->data[RB_MASK(rb, rb->tail + offset)];
	return RB_OK;
}

size_t rb_dropped(const struct ringbuf *rb)
{
	return rb->dropped;
}

void lr_init(struct line_reader *lr, struct ringbuf *rb, char *line, size_t line_cap)
{
	lr->rb = rb;
	lr->line = line;
	lr->line_cap = line_cap;
	lr->line_len = 0;
	lr->overflowed = false;
}

/*
 * Pull bytes until a '\n' completes a line. Returns RB_OK with a
 * NUL-terminated line (CR stripped), RB_EMPTY when more input is needed,
 * or RB_TOO_LONG once per line that did not fit into the buffer.
 */
int lr_next_line(struct line_reader *lr)
{
	uint8_t byte;

	while (rb_get(lr->rb, &byte) == RB_OK) {
		if (byte == '\r')
			continue;
		if (byte == '\n') {
			bool overflowed = lr->overflowed;

			lr->line[lr->line_len] = '\0';
			lr->line_len = 0;
			lr->overflowed = false;
			return overflowed ? RB_TOO_LONG : RB_OK;
		}
		if (lr->line_len + 1 >= lr->line_cap) {
			lr->overflowed = true;
			continue;
		}
		lr->line[lr->line_len++] = (char)byte;
	}
	return RB_EMPTY;
}

const char *rb_strerror(int status)
{
	switch (status) {
	case RB_OK:
		return "ok";
	case RB_EMPTY:
		return "buffer empty";
	case RB_FULL:
		return "buffer full";
	case RB_EINVAL:
		return "invalid argument";
	case RB_TOO_LONG:
		return "line too long";
	default:
		return "unknown error";
	}
}
