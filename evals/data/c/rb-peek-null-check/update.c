/* ... existing code ... */

int rb_peek(const struct ringbuf *rb, size_t offset, uint8_t *out)
{
    if (rb == NULL || out == NULL)
        return RB_EINVAL;
    if (offset >= rb_used(rb))
        return RB_EMPTY;
    *out = rb->data[RB_MASK(rb, rb->tail + offset)];
    return RB_OK;
}

/* ... existing code ... */
