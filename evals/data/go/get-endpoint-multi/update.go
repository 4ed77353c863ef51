// ... existing code ...
func (h *Handler) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /bookmarks", h.list)
	mux.HandleFunc("GET /bookmarks/{id}", h.get)
	mux.HandleFunc("POST /bookmarks", h.create)
	// ... existing code ...
}
// ... existing code ...
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "limit": limit, "offset": offset})
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	user, ok := h.userID(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "login required")
		return
	}
	id, err := parseID(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid id")
		return
	}
	b, err := h.store.Get(r.Context(), user, id)
	switch {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "bookmark not found")
	case err != nil:
		writeError(w, http.StatusInternalServerError, "could not load bookmark")
	default:
		writeJSON(w, http.StatusOK, b)
	}
}

// ... existing code ...
