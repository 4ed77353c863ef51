int rb_put(struct ringbuf *rb, uint8_t byte)
{
	if (rb == NULL)
		return RB_EINVAL;
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
	if (rb == NULL || out == NULL)
		return RB_EINVAL;
	if (rb_is_empty(rb))
		return RB_EMPTY;
	*out = rb->data[RB_MASK(rb, rb->tail)];
	rb->tail++;
	return RB_OK;
}
