package httpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// challenge is the WWW-Authenticate header of every 401: it names the
// scheme the service takes (RFC 6750).
const challenge = `Bearer realm="tenderbase"`

// maxTokenBytes bounds a Bearer token; real secrets are 46 bytes.
const maxTokenBytes = 256

// queryKeyParams are query parameters in which clients put keys. The MCP
// and debug endpoints never read them, since a URL ends up in logs and
// browser histories; a request that tries gets told why it failed.
var queryKeyParams = []string{"access_token", "api_key", "api_code", "key"}

// requireKey lets through only requests that carry an active key in
// "Authorization: Bearer <key>", and puts the key in the request's context.
// Every other request is answered 401 with a challenge; the challenge adds
// error="invalid_token" when a token was given but opens nothing.
func (s *Server) requireKey(next http.Handler) http.Handler {
	return s.keyed(next, s.writeError)
}

// requireMCPKey is requireKey for /mcp. A key that could not be looked up
// for the store's outage is answered in JSON-RPC, as every call the outage
// stops, so that an MCP client reads the outage one way; the refusals of a
// key stay plain 401s (docs/mcp.md).
func (s *Server) requireMCPKey(next http.Handler) http.Handler {
	return s.keyed(next, func(w http.ResponseWriter, r *http.Request, err error) {
		if tenderbase.ErrorCode(err) == tenderbase.EUNAVAILABLE {
			s.mcp.WriteUnavailable(w, r, err)
			return
		}
		s.writeError(w, r, err)
	})
}

// keyed is requireKey with writeErr writing the failures of the lookup.
func (s *Server) keyed(next http.Handler, writeErr func(w http.ResponseWriter, r *http.Request, err error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, err := bearerToken(r)
		if err != nil {
			s.refuse(w, r, err, challenge)
			return
		}
		k, err := s.authenticate(r.Context(), token)
		if err != nil {
			setChallenge(w, err, challenge+`, error="invalid_token"`)
			writeErr(w, r, err)
			return
		}
		reqinfo.From(r.Context()).KeyID = k.ID
		next.ServeHTTP(w, r.WithContext(tenderbase.NewContextWithKey(r.Context(), k)))
	})
}

// refuse writes err, with the challenge when err is a refusal of the key.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error, challenge string) {
	setChallenge(w, err, challenge)
	s.writeError(w, r, err)
}

// setChallenge sets the WWW-Authenticate header of the answer to err when
// err is a refusal of the key (not when the key store failed).
func setChallenge(w http.ResponseWriter, err error, challenge string) {
	if tenderbase.ErrorCode(err) == tenderbase.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", challenge)
	}
}

// hasAuthorization reports whether the request carries an Authorization
// header with something in it.
func hasAuthorization(r *http.Request) bool {
	values := r.Header.Values("Authorization")
	return len(values) > 1 || len(values) == 1 && strings.TrimSpace(values[0]) != ""
}

// bearerToken returns the token of the request's Authorization header, or
// an EUNAUTHORIZED error saying why there is none.
func bearerToken(r *http.Request) (string, error) {
	values := r.Header.Values("Authorization")
	switch {
	case len(values) > 1:
		return "", unauthorized("more than one Authorization header")
	case len(values) == 0 || strings.TrimSpace(values[0]) == "":
		if keyInQuery(r) {
			return "", unauthorized("keys are not accepted in the query string")
		}
		return "", unauthorized("no Authorization header")
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", unauthorized("the Authorization header is not a Bearer token")
	}
	if token = strings.TrimSpace(token); token == "" {
		return "", unauthorized("the Authorization header has no token after Bearer")
	}
	return token, nil
}

// unauthorized returns an EUNAUTHORIZED error that says what was wrong and
// what to send instead.
func unauthorized(problem string) error {
	return tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "%s; send the header Authorization: Bearer <key>", problem)
}

func keyInQuery(r *http.Request) bool {
	q := r.URL.Query()
	for _, p := range queryKeyParams {
		if q.Has(p) {
			return true
		}
	}
	return false
}

// authenticate returns the active key whose secret is token.
func (s *Server) authenticate(ctx context.Context, token string) (tenderbase.Key, error) {
	if s.cfg.Keys == nil {
		return tenderbase.Key{}, errors.New("authenticate: the server has no key store")
	}
	if len(token) > maxTokenBytes || strings.ContainsAny(token, " \t") {
		return tenderbase.Key{}, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "malformed Bearer token")
	}
	k, err := s.cfg.Keys.Authenticate(ctx, token)
	if err != nil {
		return tenderbase.Key{}, fmt.Errorf("authenticate: %w", err)
	}
	return k, nil
}

// keyFromParam returns the key whose secret is value, the export's optional
// api_code or Bearer token: an empty value is no key and no error (the
// caller gets the free view), while a value given that opens nothing is
// EUNAUTHORIZED, never a silent downgrade.
func (s *Server) keyFromParam(r *http.Request, value string) (tenderbase.Key, bool, error) {
	if value == "" {
		return tenderbase.Key{}, false, nil
	}
	k, err := s.authenticate(r.Context(), value)
	if err != nil {
		return tenderbase.Key{}, false, err
	}
	return k, true, nil
}
