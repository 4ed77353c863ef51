// ... existing code ...

func pagination(q url.Values) (limit, offset int, err error) {
	limit = defaultLimit
	if s := q.Get("limit"); s != "" {
		v, convErr := strconv.Atoi(s)
		if convErr != nil || v <= 0 {
			return 0, 0, errors.New("limit must be a positive integer")
		}
		limit = min(v, maxLimit)
	}
	if s := q.Get("offset"); s != "" {
		v, convErr := strconv.Atoi(s)
		if convErr != nil || v < 0 {
			return 0, 0, errors.New("offset must be a non-negative integer")
		}
		offset = v
	}
	return limit, offset, nil
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	// ... existing code ...
	limit, offset, err := pagination(r.URL.Query())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	// ... existing code ...
}

// ... existing code ...
