// Package email sends the mailings' e-mail over SMTP, through go-mail: it
// speaks STARTTLS and implicit TLS, authenticates, and writes the MIME
// parts and encoded headers that Russian subjects and names need.
package email

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/tenderbase/tenderbase"
)

// Config says where and how to send.
type Config struct {
	Host string
	Port int
	// TLS is how the connection is protected: "starttls" (the default:
	// STARTTLS, required), "tls" (implicit TLS, smtps) or "none" (a relay
	// on this machine or a test server only).
	TLS                string
	Username, Password string
	// From is the sender, an address with or without a name:
	// "Tenderbase <mail@example.com>".
	From string
	// TLSConfig verifies the server; nil uses the system's roots.
	TLSConfig *tls.Config
	Timeout   time.Duration
}

// ParseURL reads the SMTP server of a URL:
// smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465
// (implicit TLS), smtp://host:25?tls=none (no TLS: a local relay only).
func ParseURL(raw, from string) (Config, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return Config{}, fmt.Errorf("SMTP URL %s: want smtp://user:password@host:587 or smtps://user:password@host:465", tenderbase.Quote(tenderbase.RedactURL(raw)))
	}
	c := Config{Host: u.Hostname(), From: from, Timeout: 30 * time.Second}
	switch u.Scheme {
	case "smtp":
		c.TLS, c.Port = "starttls", 587
		if mode := u.Query().Get("tls"); mode != "" {
			if mode != "starttls" && mode != "none" {
				return Config{}, fmt.Errorf("SMTP URL: tls=%s: want starttls or none", mode)
			}
			c.TLS = mode
		}
	case "smtps":
		c.TLS, c.Port = "tls", 465
	default:
		return Config{}, fmt.Errorf("SMTP URL %s: the scheme is smtp or smtps", tenderbase.Quote(tenderbase.RedactURL(raw)))
	}
	if p := u.Port(); p != "" {
		if c.Port, err = strconv.Atoi(p); err != nil {
			return Config{}, fmt.Errorf("SMTP URL: port %q", p)
		}
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if strings.TrimSpace(from) == "" {
		return Config{}, fmt.Errorf("mail needs a sender address (--mail-from)")
	}
	return c, nil
}

// Message is one e-mail.
type Message struct {
	To      string
	Subject string
	Text    string // the plain text part
	HTML    string // the HTML part
	// ID is the Message-ID without brackets: the same for every attempt
	// at one delivery, so that a mail sent twice across a crash is one
	// message to the recipient's mail system.
	ID string
	// Unsubscribe is the one-click unsubscribe URL (RFC 8058), "" for
	// none.
	Unsubscribe string
}

// Sender sends messages over SMTP, one connection a message.
type Sender struct{ cfg Config }

// New returns a Sender of cfg.
func New(cfg Config) *Sender { return &Sender{cfg: cfg} }

// Send sends m. A refusal for good, a 5xx answer, which retrying will not
// change, is tenderbase.Undeliverable.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg(gomail.WithCharset(gomail.CharsetUTF8), gomail.WithEncoding(gomail.EncodingQP))
	if err := msg.From(s.cfg.From); err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "sender %q: %v", s.cfg.From, err)
	}
	if err := msg.To(m.To); err != nil {
		return tenderbase.Undeliverable(fmt.Errorf("recipient %q: %w", m.To, err))
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.ID)
	msg.SetDate()
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	if m.Unsubscribe != "" {
		msg.SetGenHeaderPreformatted("List-Unsubscribe", "<"+m.Unsubscribe+">")
		msg.SetGenHeaderPreformatted("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	client, err := gomail.NewClient(s.cfg.Host, s.options()...)
	if err != nil {
		return fmt.Errorf("SMTP client: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		if se, ok := errors.AsType[*gomail.SendError](err); ok && !se.IsTemp() && se.ErrorCode() >= 500 {
			return tenderbase.Undeliverable(err)
		}
		return fmt.Errorf("send to %s: %w", m.To, err)
	}
	return nil
}

func (s *Sender) options() []gomail.Option {
	opts := []gomail.Option{gomail.WithPort(s.cfg.Port), gomail.WithTimeout(s.cfg.Timeout)}
	switch s.cfg.TLS {
	case "tls":
		opts = append(opts, gomail.WithSSL())
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.cfg.TLSConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(s.cfg.TLSConfig))
	}
	if s.cfg.Username != "" {
		// The server says which mechanisms it offers; PLAIN and LOGIN
		// are what providers take over TLS.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	return opts
}
