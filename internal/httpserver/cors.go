package httpserver

import (
	"net/http"

	"github.com/rs/cors"

	"github.com/tenderbase/tenderbase/internal/origin"
)

// browserHeaders are the request headers a browser client may send: its key,
// the MCP transport's own headers and a request id of its choosing.
var browserHeaders = []string{
	"Authorization", "Content-Type", "Accept",
	"Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id",
	requestIDHeader,
}

// exposedHeaders are the response headers a browser client may read: the
// MCP transport's, the export's paging and plan headers, and what a refusal
// says in headers.
var exposedHeaders = []string{
	"Mcp-Session-Id", "Mcp-Protocol-Version",
	requestIDHeader,
	"X-Total-Count", "X-Page", "X-Per-Page", "X-Row-Cap", "X-Notice", "X-Restricted-Fields",
	"Retry-After", "WWW-Authenticate",
}

// newCORS returns the CORS answers of the routes browser clients reach, for
// the origins the policy allows: the same policy that guards /mcp against
// DNS rebinding. A preflight is answered here, before any key is asked
// for, since browsers send it without one; an origin not allowed gets no
// CORS headers, so the browser keeps the answer from the page.
func newCORS(allowed origin.Policy) *cors.Cors {
	return cors.New(cors.Options{
		AllowOriginFunc: allowed.Allows,
		AllowedMethods:  []string{http.MethodGet, http.MethodPost},
		AllowedHeaders:  browserHeaders,
		ExposedHeaders:  exposedHeaders,
		// Browsers cap it lower (Chromium at 2 hours); 10 minutes spares a
		// preflight per call without pinning a changed policy for long.
		MaxAge: 600,
	})
}
