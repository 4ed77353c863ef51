// Package bookmarks serves the bookmark API: list, create, update and delete a user's bookmarks.
package bookmarks

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrNotFound is returned by a Store when no bookmark has the given id for the user.
var ErrNotFound = errors.New("bookmark not found")

const (
	defaultLimit = 50
	maxLimit     = 200
	maxTitleLen  = 300
)

// Bookmark is one saved link.
type Bookmark struct {
	ID        int64     `json:"id"`
	UserID    string    `json:"-"`
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	Tags      []string  `json:"tags"`
	CreatedAt time.Time `json:"created_at"`
}

// Store persists bookmarks. The SQL implementation lives in store_pg.go.
type Store interface {
	List(ctx context.Context, userID string, tag string, limit, offset int) ([]Bookmark, error)
	Get(ctx context.Context, userID string, id int64) (Bookmark, error)
	Create(ctx context.Context, b Bookmark) (Bookmark, error)
	Update(ctx context.Context, b Bookmark) error
	Delete(ctx context.Context, userID string, id int64) error
}

// Handler wires the Store to HTTP.
type Handler struct {
	store  Store
	userID func(*http.Request) (string, bool)
	now    func() time.Time
}

// NewHandler returns a Handler; userID extracts the authenticated user from a request.
func NewHandler(store Store, userID func(*http.Request) (string, bool)) *Handler {
	return &Handler{store: store, userID: userID, now: time.Now}
}

// Routes registers the handler's endpoints on mux.
func (h *Handler) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /bookmarks", h.list)
	mux.HandleFunc("POST /bookmarks", h.create)
	mux.HandleFunc("PUT /bookmarks/{id}", h.update)
	mux.HandleFunc("DELETE /bookmarks/{id}", h.delete)
}

type bookmarkInput struct {
	URL   string   `json:"url"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
}

func (in *bookmarkInput) validate() error {
	u, err := url.Parse(in.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("url must be an absolute http(s) URL")
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		in.Title = u.Host
	}
	if len(in.Title) > maxTitleLen {
		return errors.New("title is too long")
	}
	for i, tag := range in.Tags {
		in.Tags[i] = strings.ToLower(strings.TrimSpace(tag))
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func parseID(r *http.Request) (int64, error) {
	return strconv.ParseInt(r.PathValue("id"), 10, 64)
}

func pagination(q url.Values) (limit, offset int) {
	limit = defaultLimit
	if v, err := strconv.Atoi(q.Get("limit")); err == nil && v > 0 {
		limit = min(v, maxLimit)
	}
	if v, err := strconv.Atoi(q.Get("offset")); err == nil && v >= 0 {
		offset = v
	}
	return limit, offset
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	user, ok := h.userID(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "login required")
		return
	}
	limit, offset := pagination(r.URL.Query())
	items, err := h.store.List(r.Context(), user, r.URL.Query().Get("tag"), limit, offset)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "could not list bookmarks")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "limit": limit, "offset": offset})
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	user, ok := h.userID(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "login required")
		return
	}
	var in bookmarkInput
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body")
		return
	}
	if err := in.validate(); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	created, err := h.store.Create(r.Context(), Bookmark{
		UserID:    user,
		URL:       in.URL,
		Title:     in.Title,
		Tags:      in.Tags,
		CreatedAt: h.now().UTC(),
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "could not save bookmark")
		return
	}
	writeJSON(w, http.StatusCreated, created)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) {
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
	existing, err := h.store.Get(r.Context(), user, id)
	if errors.Is(err, ErrNotFound) {
		writeError(w, http.StatusNotFound, "bookmark not found")
		return
	} else if err != nil {
		writeError(w, http.StatusInternalServerError, "could not load bookmark")
		return
	}
	var in bookmarkInput
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body")
		return
	}
	if err := in.validate(); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	existing.URL, existing.Title, existing.Tags = in.URL, in.Title, in.Tags
	if err := h.store.Update(r.Context(), existing); err != nil {
		writeError(w, http.StatusInternalServerError, "could not save bookmark")
		return
	}
	writeJSON(w, http.StatusOK, existing)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
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
	switch err := h.store.Delete(r.Context(), user, id); {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "bookmark not found")
	case err != nil:
		writeError(w, http.StatusInternalServerError, "could not delete bookmark")
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
