// ... existing code ...
	mux.HandleFunc("POST /bookmarks", h.create)
	mux.HandleFunc("DELETE /bookmarks/{id}", h.delete)
}
// ... existing code ...
	writeJSON(w, http.StatusCreated, created)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
// ... existing code ...
