package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tenderbase/tenderbase/internal/mailtest"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// A notice of the EIS and the final protocol of the same purchase, which
// ranks its applications: the protocol completes the tender.
var (
	eisSamples   = filepath.Join("..", "..", "shared", "data", "eis44-unverified-templates", "rezident1989__portal44_xml")
	eisNotice    = filepath.Join(eisSamples, "epNotificationEZT2020.xml")
	eisProtocol  = filepath.Join(eisSamples, "epProtocolEZT2020Final.xml")
	eisPurchase  = "0372200067923201237"
	mailingEvery = 200 * time.Millisecond
)

// TestMailingsEndToEnd is the mailings as a user meets them, on both
// stores: a subscription is created over MCP on a running server; a new
// EIS notice is imported by another process and mailed once, by e-mail
// over STARTTLS with authentication and by a signed webhook; the server
// restarts; the protocol naming the winner is imported and the winners
// mailing goes once; rounds after that send nothing more.
func TestMailingsEndToEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "mail.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(c.name, func(t *testing.T) { testMailingsEndToEnd(t, c.db(t)) })
	}
}

func testMailingsEndToEnd(t *testing.T, db string) {
	secret := run(t, "keys", "create", "--db", db, "--plan", "guru", "--name", "mailings")
	secret = strings.TrimSpace(strings.SplitN(secret, "\n", 2)[0])
	smtpServer := mailtest.StartSMTP(t)
	var hookSecret string
	hook := mailtest.StartHook(t, func() string { return hookSecret })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, smtpServer.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--db", db,
		"--smtp", (&url.URL{Scheme: "smtp", User: url.UserPassword(mailtest.Username, mailtest.Password),
			Host: net.JoinHostPort(smtpServer.Host, fmt.Sprint(smtpServer.Port))}).String(),
		"--smtp-ca", ca, "--mail-from", "Тендербейс <mail@tenderbase.test>", "--public-url", "https://tenderbase.test",
		"--mail-every", mailingEvery.String(), "--webhook-allow", "127.0.0.1/32"}
	s, stop := startPlain(t, flags...)

	session := connectAt(t, s.URL, secret)
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "subscriptions.create", Arguments: map[string]any{
		"name": "Канцелярия", "resource": "ru", "search": map[string]any{"query": "карандаши"},
		"winners": true, "recipients": []string{"buyer@example.com"}, "webhook": hook.URL,
	}})
	if err != nil || res.IsError {
		t.Fatalf("subscriptions.create: %v %v", err, textOf(res))
	}
	var created struct {
		Subscription struct{ ID string }
		Secret       string
	}
	remarshal(t, res.StructuredContent, &created)
	hookSecret = created.Secret

	run(t, "import", "--db", db, eisNotice)
	waitFor(t, "the new-tender mailing", func() bool { return len(smtpServer.Mail()) >= 1 && len(hook.Requests()) >= 1 })

	stop()
	s, stop = startPlain(t, flags...)
	defer stop()
	run(t, "import", "--db", db, eisProtocol)
	waitFor(t, "the winners mailing", func() bool { return len(smtpServer.Mail()) >= 2 && len(hook.Requests()) >= 2 })
	time.Sleep(5 * mailingEvery) // rounds that must send nothing more

	mails, hooks := smtpServer.Mail(), hook.Requests()
	if len(mails) != 2 || len(hooks) != 2 {
		t.Fatalf("%d mails and %d webhook requests, want exactly 2 and 2", len(mails), len(hooks))
	}
	fresh, won := mails[0], mails[1]
	if fresh.Subject != "Tenderbase · «Канцелярия»: 1 новая закупка" || !fresh.TLS || fresh.To[0] != "buyer@example.com" ||
		!strings.Contains(fresh.Text, eisPurchase) || !strings.Contains(fresh.HTML, "Уборы головные защитные") {
		t.Errorf("the new-tender mail: %q over TLS %v to %v\n%s", fresh.Subject, fresh.TLS, fresh.To, fresh.Text)
	}
	if won.Subject != "Tenderbase · «Канцелярия»: определены победители, 1 закупка" ||
		!strings.Contains(won.Text, "Победитель: заявка № 115300644, предложение 143808") {
		t.Errorf("the winners mail: %q\n%s", won.Subject, won.Text)
	}
	if !strings.Contains(fresh.Header.Get("From"), "mail@tenderbase.test") || fresh.Header.Get("List-Unsubscribe-Post") == "" {
		t.Errorf("headers: From %q, List-Unsubscribe-Post %q", fresh.Header.Get("From"), fresh.Header.Get("List-Unsubscribe-Post"))
	}
	for i, want := range []string{"new", "winners"} {
		var p struct {
			Delivery string
			Mailing  struct {
				Type  string
				Items []struct{ Key string }
			}
		}
		if err := json.Unmarshal(hooks[i].Body, &p); err != nil {
			t.Fatal(err)
		}
		if !hooks[i].Verified || p.Delivery != hooks[i].Delivery || p.Mailing.Type != want || len(p.Mailing.Items) != 1 || p.Mailing.Items[0].Key != eisPurchase {
			t.Errorf("webhook %d: verified %v, %+v; want the %s mailing of %s", i, hooks[i].Verified, p, want, eisPurchase)
		}
	}
}

// run runs the binary with args and returns what it printed.
func run(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(t.Context(), binPath, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("tenderbase %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// startPlain runs serve with flags and no demo, and waits until it listens.
func startPlain(t *testing.T, flags ...string) (*server, func()) {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, flags...)
	s, stop, err := startCommand(context.Background(), binPath, args, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s, stop
}

// connectAt connects the Go SDK client to the server at base with key.
func connectAt(t *testing.T, base, key string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "tenderbase-e2e", Version: "1.0.0"}, nil)
	session, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint:   base + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatalf("Go SDK client: connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// waitFor waits up to 30 s for done, failing the test after.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if done() {
			return
		}
	}
	t.Fatalf("no %s within 30 s", what)
}

// remarshal turns a decoded JSON value into v.
func remarshal(t *testing.T, from, v any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}
