package httpserver

import (
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
)

// healthProbeKey is the key /health looks a tender up by: plain text that
// every store holds, so that the lookup reaches the store's index (a key a
// store cannot hold is answered without asking it). Whether a record has
// the key does not matter: found or not found, the store answered.
const healthProbeKey = "health-probe"

// health answers GET /health: 200 when the store answers a lookup, cheaply,
// through its index.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	_, err := s.store.Get(r.Context(), tenderbase.KindTender, healthProbeKey)
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		return fmt.Errorf("health: store check: %w", err)
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}
