/* ... existing code ... */
struct line_reader {
	struct ringbuf *rb;
	char *line;
	size_t line_cap;
	size_t line_len;
	size_t lines_read;
	bool overflowed;
};
/* ... existing code ... */
	lr->line_len = 0;
	lr->lines_read = 0;
	lr->overflowed = false;
}
/* ... existing code ... */
			lr->line[lr->line_len] = '\0';
			lr->line_len = 0;
			lr->overflowed = false;
			lr->lines_read++;
			return overflowed ? RB_TOO_LONG : RB_OK;
/* ... existing code ... */
