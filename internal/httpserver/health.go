package httpserver

import (
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
)

// healthProbeKey is a key no record has. Looking it up touches the store
// through its index without scanning anything, which makes a cheap check
// that the store answers.
const healthProbeKey = "\x00health"

// health answers GET /health.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	_, err := s.store.Get(r.Context(), tenderbase.KindTender, healthProbeKey)
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		return fmt.Errorf("health: store check: %w", err)
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}
