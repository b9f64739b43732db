package fedresurs

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase/internal/fetch"
)

// ErrLogin is returned, wrapped, when the service refuses the login, or a
// token it has just issued: no request will succeed until the account is
// mended.
var ErrLogin = errors.New("fedresurs refused the login")

// errNoLogin stops a run whose login failed for another reason: the
// service is down or answered garbage. Nothing can be asked without a token.
var errNoLogin = errors.New("could not log in to fedresurs")

// renewAhead is how long before its expiry a token is replaced, at most a
// tenth of its lifetime.
const renewAhead = 5 * time.Minute

// session logs in to the service and keeps the token it gives. The login,
// the password and the token are sent to the service only: never logged,
// never in an error.
type session struct {
	client          *fetch.Client
	url             string // of /v1/auth
	login, password string
	logger          *slog.Logger
	now             func() time.Time

	mu      sync.Mutex
	jwt     string
	renewAt time.Time // zero: when the service refuses it
}

// token returns the current token, logging in first when there is none or
// it expires soon.
func (s *session) token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jwt != "" && (s.renewAt.IsZero() || s.now().Before(s.renewAt)) {
		return s.jwt, nil
	}
	if err := s.logIn(ctx); err != nil {
		return "", err
	}
	return s.jwt, nil
}

// drop forgets jwt, which the service refused, so that the next token is a
// new one.
func (s *session) drop(jwt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jwt == jwt {
		s.jwt = ""
	}
}

// logIn asks the service for a token: POST /v1/auth {"login", "password"}
// answers {"jwt"}.
func (s *session) logIn(ctx context.Context) error {
	body, err := json.Marshal(map[string]string{"login": s.login, "password": s.password})
	if err != nil {
		return err
	}
	var jwt string
	_, err = s.client.Fetch(ctx, fetch.Request{
		Method: http.MethodPost,
		URL:    s.url,
		Header: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}},
		Body:   body,
		Check: func(r io.ReaderAt, size int64) error {
			var answer struct {
				JWT string `json:"jwt"`
			}
			if err := json.NewDecoder(io.NewSectionReader(r, 0, size)).Decode(&answer); err != nil || answer.JWT == "" {
				return errors.New("the answer to the login holds no jwt")
			}
			jwt = answer.JWT
			return nil
		},
	})
	if err != nil {
		return loginFailed(err)
	}
	exp := expiry(jwt)
	s.jwt, s.renewAt = jwt, renewal(exp, s.now())
	s.logger.Info("logged in", "expires", exp)
	return nil
}

// loginFailed says why a login failed: ErrLogin when the service refused
// the account (400 with error 2000, 2001 or 2002, or 401), errNoLogin
// otherwise.
func loginFailed(err error) error {
	var refused *fetch.StatusError
	if !errors.As(err, &refused) || ctxDone(err) {
		return fmt.Errorf("%w: %w", errNoLogin, err)
	}
	switch refused.Status {
	case http.StatusBadRequest:
		r := readRefusal(refused)
		return fmt.Errorf("%w (error %d: %s)", ErrLogin, r.Code, r.Message)
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w (%d: wrong login or password)", ErrLogin, refused.Status)
	}
	return fmt.Errorf("%w: %w", errNoLogin, err)
}

func ctxDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// expiry returns the moment a JWT expires, from its exp claim, or zero
// when it does not say. The signature is not checked: only the service
// checks its tokens; the source reads the claim only to log in again in
// time.
func expiry(jwt string) time.Time {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return time.Time{}
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return time.Time{}
	}
	var claims struct {
		Exp json.Number `json:"exp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return time.Time{}
	}
	sec, err := claims.Exp.Float64()
	if err != nil || sec <= 0 {
		return time.Time{}
	}
	return time.Unix(int64(sec), 0)
}

// renewal returns when a token expiring at exp, received at now, is to be
// replaced: renewAhead before exp, or a tenth of its lifetime before for a
// short one. Zero, for a token that does not say or whose exp is already
// past by the local clock, means "when the service refuses it": renewing
// by a clock that disagrees with the service's would log in before every
// request.
func renewal(exp, now time.Time) time.Time {
	life := exp.Sub(now)
	if exp.IsZero() || life <= 0 {
		return time.Time{}
	}
	return exp.Add(-min(renewAhead, life/10))
}
