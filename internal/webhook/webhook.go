// Package webhook posts the mailings to subscribers' webhooks as JSON,
// signed so that a receiver can tell them from anyone else's requests.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Headers of a webhook request.
const (
	// SignatureHeader holds "t=<unix seconds>,v1=<hex HMAC-SHA256>" of
	// "<t>.<body>" under the subscription's secret: the time is signed
	// with the body, so that a request recorded cannot be replayed later.
	SignatureHeader = "X-Tenderbase-Signature"
	// DeliveryHeader holds the delivery's id, the same at every attempt:
	// a receiver that saw it already has the mailing.
	DeliveryHeader = "X-Tenderbase-Delivery"
)

// Sign returns the signature header of body sent at.
func Sign(secret string, body []byte, at time.Time) string {
	t := strconv.FormatInt(at.Unix(), 10)
	return "t=" + t + ",v1=" + mac(secret, t, body)
}

func mac(secret, t string, body []byte) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(t))
	h.Write([]byte("."))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// ErrBadSignature is Verify's answer for a request not signed with the
// secret, or signed too long ago.
var ErrBadSignature = errors.New("webhook: the signature does not match, or is too old")

// Verify checks a signature header of body, as a receiver does: signed
// with secret, no more than tolerance before now.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var t, v1 string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			t = v
		case "v1":
			v1 = v
		}
	}
	at, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v1 == "" {
		return ErrBadSignature
	}
	if d := now.Sub(time.Unix(at, 0)); d > tolerance || d < -tolerance {
		return ErrBadSignature
	}
	if !hmac.Equal([]byte(mac(secret, t, body)), []byte(v1)) {
		return ErrBadSignature
	}
	return nil
}

// Sender posts to webhooks, under a Policy.
type Sender struct {
	policy    Policy
	client    *http.Client
	userAgent string
}

// NewSender returns a Sender that posts to the addresses policy allows,
// as userAgent.
func NewSender(policy Policy, userAgent string) *Sender {
	return &Sender{policy: policy, client: policy.Client(), userAgent: userAgent}
}

// Send posts body to the URL target, signed with secret. A refusal for good is
// tenderbase.Undeliverable: a 4xx answer but 408 and 429, which retrying
// will not change, and an address the policy does not allow. No error
// holds the target's user information or query, which may carry a password
// or a token: the errors are logged and shown to the subscription's
// account.
func (s *Sender) Send(ctx context.Context, target, delivery, secret string, body []byte) error {
	shown := tenderbase.RedactURL(target)
	if err := s.policy.CheckURL(target); err != nil {
		return tenderbase.Undeliverable(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return tenderbase.Undeliverable(fmt.Errorf("webhook %s: %w", shown, redactError(err)))
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set(DeliveryHeader, delivery)
	req.Header.Set(SignatureHeader, Sign(secret, body, time.Now()))
	resp, err := s.client.Do(req)
	if err != nil {
		err = fmt.Errorf("webhook %s: %w", shown, redactError(err))
		if isRefused(err) {
			return tenderbase.Undeliverable(err)
		}
		return err
	}
	defer resp.Body.Close()
	// A little of the answer says why it was refused; the rest is not ours.
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code >= 400 && code < 500 && code != http.StatusRequestTimeout && code != http.StatusTooManyRequests:
		return tenderbase.Undeliverable(fmt.Errorf("webhook %s answered %s: %s", shown, resp.Status, strings.TrimSpace(string(text))))
	default:
		return fmt.Errorf("webhook %s answered %s: %s", shown, resp.Status, strings.TrimSpace(string(text)))
	}
}

// redactError redacts the URL that the errors of net/http repeat, the
// request's or a redirect's (a *url.Error), and which hides the password
// but not the query.
func redactError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = tenderbase.RedactURL(ue.URL)
	}
	return err
}
