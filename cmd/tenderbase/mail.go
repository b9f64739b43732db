package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/email"
	"github.com/tenderbase/tenderbase/internal/mailing"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// mailConfig is how serve sends the subscriptions' mailings.
type mailConfig struct {
	// Off keeps this server from running the mailings, where another one
	// runs them.
	Off bool
	// SMTP is the URL of the SMTP server; "" sends no e-mail (webhooks go,
	// and mail waits with an error that says why).
	SMTP string
	// From is the sender of the e-mail.
	From string
	// CAFile, when set, names PEM certificates the SMTP server's must
	// chain to, for a relay with a private CA.
	CAFile string
	// PublicURL is where people reach this service, for the unsubscribe
	// links.
	PublicURL string
	Every     time.Duration
	// Webhooks says which addresses the webhooks may be posted to.
	Webhooks webhook.Policy
}

// mailFlags adds the flags of the mailings to fs.
func (c *cli) mailFlags(fs *flag.FlagSet, mc *mailConfig) error {
	mc.Off = c.getenv("TENDERBASE_MAILINGS") == "off"
	fs.Func("mailings", "`on` or off: whether this server runs the subscriptions' mailings; several servers may all run them (env TENDERBASE_MAILINGS)", func(s string) error {
		switch s {
		case "on":
			mc.Off = false
		case "off":
			mc.Off = true
		default:
			return errors.New("on or off")
		}
		return nil
	})
	fs.StringVar(&mc.SMTP, "smtp", c.getenv("TENDERBASE_SMTP"),
		"`URL` of the SMTP server of the mailings: smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465 (env TENDERBASE_SMTP)")
	fs.StringVar(&mc.From, "mail-from", c.getenv("TENDERBASE_MAIL_FROM"),
		"sender `ADDRESS` of the mailings, e.g. \"Tenderbase <tenders@example.com>\" (env TENDERBASE_MAIL_FROM)")
	fs.StringVar(&mc.CAFile, "smtp-ca", c.getenv("TENDERBASE_SMTP_CA"),
		"`PATH` of PEM certificates the SMTP server's must chain to, for a relay with a private CA (env TENDERBASE_SMTP_CA)")
	fs.StringVar(&mc.PublicURL, "public-url", c.getenv("TENDERBASE_PUBLIC_URL"),
		"`URL` at which people reach this service, such as https://tenders.example.com, for the mailings' unsubscribe links (env TENDERBASE_PUBLIC_URL)")
	return errors.Join(c.webhookAllowFlag(fs, &mc.Webhooks),
		c.durationVar(fs, &mc.Every, "mail-every", "TENDERBASE_MAIL_EVERY", mailing.DefaultEvery,
			"`DURATION` between two rounds of the mailings (env TENDERBASE_MAIL_EVERY)"))
}

// webhookAllowFlag adds --webhook-allow to fs, which sets the networks p
// allows besides the public internet, from TENDERBASE_WEBHOOK_ALLOW when
// not given.
func (c *cli) webhookAllowFlag(fs *flag.FlagSet, p *webhook.Policy) error {
	set := func(s string) error {
		prefixes, err := parsePrefixes(splitList(s))
		if err != nil {
			return err
		}
		p.Allowed = prefixes
		return nil
	}
	fs.Func("webhook-allow", "comma-separated `NETWORKS`, CIDR blocks or addresses, that webhooks may point at besides the public internet, "+
		"such as an internal receiver's 10.0.5.0/24; loopback, private and link-local addresses are refused otherwise (env TENDERBASE_WEBHOOK_ALLOW)", set)
	if err := set(c.getenv("TENDERBASE_WEBHOOK_ALLOW")); err != nil {
		return fmt.Errorf("TENDERBASE_WEBHOOK_ALLOW: %w", err)
	}
	return nil
}

// check says what is wrong with the mailings' configuration before
// anything starts.
func (mc mailConfig) check() error {
	if mc.SMTP != "" {
		if _, err := email.ParseURL(mc.SMTP, mc.From); err != nil {
			return fmt.Errorf("--smtp: %w", err)
		}
	}
	if mc.PublicURL != "" {
		u, err := url.Parse(mc.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--public-url %q: want an http or https URL such as https://tenders.example.com", mc.PublicURL)
		}
	}
	return nil
}

// sender returns the SMTP sender of mc, nil without a server.
func (mc mailConfig) sender() (*email.Sender, error) {
	if mc.SMTP == "" {
		return nil, nil
	}
	cfg, err := email.ParseURL(mc.SMTP, mc.From)
	if err != nil {
		return nil, fmt.Errorf("--smtp: %w", err)
	}
	if mc.CAFile != "" {
		pem, err := os.ReadFile(mc.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--smtp-ca: %w", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--smtp-ca %s: no PEM certificate in it", mc.CAFile)
		}
		cfg.TLSConfig = &tls.Config{RootCAs: roots, ServerName: cfg.Host, MinVersion: tls.VersionTLS12}
	}
	return email.New(cfg), nil
}

// startMailings starts the subscriptions' mailings of serve, and returns
// what stops them and waits for them to stop. A store that keeps no
// subscriptions has none to run.
func startMailings(ctx context.Context, cfg serveConfig, store tenderbase.Store, logger *slog.Logger) (stop func(), err error) {
	ms, ok := store.(mailing.Store)
	if cfg.Mail.Off || !ok || cfg.HTTP.Tools == nil {
		return func() {}, nil
	}
	mail, err := cfg.Mail.sender()
	if err != nil {
		return nil, err
	}
	if mail == nil {
		logger.Info("no SMTP server (--smtp): the mailings' e-mail waits until one is configured; webhooks go")
	}
	post := webhook.NewSender(cfg.Mail.Webhooks, "tenderbase/"+currentBuild().shortVersion())
	mc := mailing.Config{Every: cfg.Mail.Every, PublicURL: strings.TrimRight(cfg.Mail.PublicURL, "/")}
	if cfg.HTTP.Metrics != nil {
		mc.Observer = cfg.HTTP.Metrics
	}
	svc := mailing.New(ms, cfg.HTTP.Tools, mailer(mail), post, mc, logger.With("part", "mailings"))
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.Run(ctx)
	}()
	return func() { cancel(); <-done }, nil
}

// mailer returns mail as the mailings take it: a nil interface, not a nil
// pointer in one, when there is no SMTP server.
func mailer(mail *email.Sender) mailing.Mailer {
	if mail == nil {
		return nil
	}
	return mail
}
