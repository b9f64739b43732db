package httpserver

import (
	"context"
	"net/http"

	"github.com/tenderbase/tenderbase"
)

// health answers GET /health, the liveness probe: 200 while the process
// serves, whatever the store. A store that cannot be reached is no reason
// to restart the process (every instance would be restarted at once, and
// none would serve sooner); /ready follows the store instead.
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// healthProbeKey is the key the outage's probe looks a tender up by: plain
// text that every store holds, so that the lookup reaches the store's index
// (a key a store cannot hold is answered without asking it). Whether a
// record has the key does not matter: found or not found, the store
// answered.
const healthProbeKey = "health-probe"

// probeStore asks the store a lookup, cheaply, through its index.
func (s *Server) probeStore(ctx context.Context) error {
	_, err := s.store.Get(ctx, tenderbase.KindTender, healthProbeKey)
	return err
}
