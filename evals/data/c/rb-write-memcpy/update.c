size_t rb_write(struct ringbuf *rb, const uint8_t *src, size_t len)
{
	size_t n = len < rb_free(rb) ? len : rb_free(rb);
	size_t start = RB_MASK(rb, rb->head);
	size_t first = n < rb->capacity - start ? n : rb->capacity - start;

	memcpy(&rb->data[start], src, first);
	memcpy(rb->data, src + first, n - first);
	rb->head += n;
	rb->dropped += len - n;
	return n;
}
