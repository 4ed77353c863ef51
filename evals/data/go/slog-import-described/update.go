import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	// ... other imports unchanged ...
)

// ... existing code ...
	if err != nil {
		slog.ErrorContext(r.Context(), "create bookmark", "user", user, "err", err)
		writeError(w, http.StatusInternalServerError, "could not save bookmark")
		return
	}
	writeJSON(w, http.StatusCreated, created)
}
// ... existing code ...
