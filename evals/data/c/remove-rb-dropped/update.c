/* ... existing code ... */
	*out = rb->data[RB_MASK(rb, rb->tail + offset)];
	return RB_OK;
}

void lr_init(struct line_reader *lr, struct ringbuf *rb, char *line, size_t line_cap)
{
/* ... existing code ... */
