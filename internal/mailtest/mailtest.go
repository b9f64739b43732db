// Package mailtest runs, for tests, what the mailings are sent to: a real
// SMTP server (go-smtp) that takes mail only over STARTTLS and after
// AUTH PLAIN, and a webhook receiver that checks signatures.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/tenderbase/tenderbase/internal/webhook"
)

// Credentials the SMTP server takes.
const (
	Username = "mailer"
	Password = "s3cret-пароль"
)

// Mail is a message the SMTP server received, read back.
type Mail struct {
	From    string
	To      []string
	Raw     []byte
	Header  mail.Header
	Subject string // decoded from RFC 2047
	Text    string // the text/plain part, decoded
	HTML    string // the text/html part, decoded
	TLS     bool   // it came over TLS
}

// SMTP is a running SMTP server.
type SMTP struct {
	Host string
	Port int
	// Roots trusts the server's certificate, which CAPEM holds.
	Roots *tls.Config
	CAPEM []byte

	mu   sync.Mutex
	mail []Mail
	// Refuse, when set, answers each DATA with it instead of taking the
	// message.
	refuse *smtp.SMTPError
}

// StartSMTP starts an SMTP server on a free local port, stopped when the
// test ends.
func StartSMTP(t testing.TB) *SMTP {
	t.Helper()
	cert, roots := selfSigned(t)
	s := &SMTP{Roots: roots, CAPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{server: s, conn: c}, nil }))
	srv.Domain = "localhost"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Host, s.Port = "127.0.0.1", ln.Addr().(*net.TCPAddr).Port
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// Refuse makes the server answer every message with a permanent (5xx) or
// temporary (4xx) error; 0 takes them again.
func (s *SMTP) Refuse(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code == 0 {
		s.refuse = nil
		return
	}
	s.refuse = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 0, 0}, Message: "refused by the test"}
}

// Mail returns the messages received so far.
func (s *SMTP) Mail() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mail...)
}

type session struct {
	server *SMTP
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if _, tls := s.conn.TLSConnectionState(); !tls {
			return errors.New("authenticate over TLS")
		}
		if username != Username || password != Password {
			return errors.New("wrong username or password")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.server.mu.Lock()
	defer s.server.mu.Unlock()
	if s.server.refuse != nil {
		return s.server.refuse
	}
	m, err := parse(raw)
	if err != nil {
		return err
	}
	_, m.TLS = s.conn.TLSConnectionState()
	m.From, m.To = s.from, s.to
	s.server.mail = append(s.server.mail, m)
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// parse reads a message's subject and its text and HTML parts.
func parse(raw []byte) (Mail, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, err
	}
	m := Mail{Raw: raw, Header: msg.Header}
	if m.Subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return m, err
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return m, err
	}
	parts := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := parts.NextPart()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return m, err
		}
		var body io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			body = quotedprintable.NewReader(p)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			return m, err
		}
		switch ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct {
		case "text/plain":
			m.Text = string(b)
		case "text/html":
			m.HTML = string(b)
		}
	}
}

// selfSigned returns a certificate for 127.0.0.1 and a client TLS
// configuration that trusts it alone.
func selfSigned(t testing.TB) (tls.Certificate, *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
}

// HookPolicy allows the webhook receivers StartHook starts, which listen
// on 127.0.0.1, as an operator allows an internal receiver
// (tenderbase serve --webhook-allow 127.0.0.1/32).
var HookPolicy = webhook.Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}

// Hook is a webhook receiver.
type Hook struct {
	URL    string
	secret func() string

	mu       sync.Mutex
	requests []HookRequest
	failures int // answer the next ones 503
}

// HookRequest is a request the receiver took.
type HookRequest struct {
	Delivery string
	Body     []byte
	// Verified says whether the signature checked with the secret.
	Verified bool
}

// StartHook starts a webhook receiver, stopped when the test ends; secret
// returns the secret its signatures are checked with, which is known only
// once the subscription is made.
func StartHook(t testing.TB, secret func() string) *Hook {
	h := &Hook{secret: secret}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.failures > 0 {
			h.failures--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		verified := webhook.Verify(h.secret(), r.Header.Get(webhook.SignatureHeader), body, time.Now(), 5*time.Minute) == nil
		h.requests = append(h.requests, HookRequest{Delivery: r.Header.Get(webhook.DeliveryHeader), Body: body, Verified: verified})
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL + "/hook"
	return h
}

// Fail makes the receiver answer the next n requests 503.
func (h *Hook) Fail(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failures = n
}

// Requests returns the requests taken so far.
func (h *Hook) Requests() []HookRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]HookRequest(nil), h.requests...)
}
