package httpserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
)

// TestUnsubscribeLink follows a mailing's unsubscribe link as a person
// and as a mail client do: opening it changes nothing, the button or the
// one-click POST takes the recipient off, again as often as it comes, and
// a link with another token, recipient or subscription does nothing.
func TestUnsubscribeLink(t *testing.T) {
	store := demoStore(t)
	ctx := t.Context()
	sub, err := store.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-u", Name: "Кровля", Resource: "ru",
		Recipients: []string{"one@example.com", "two@example.com"}}, tenderbase.PlanStandard)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(httpserver.New(httpserver.Config{Subscriptions: store}, store, nil).Handler())
	t.Cleanup(ts.Close)
	link := func(id, recipient, token string) string {
		return ts.URL + "/unsubscribe?" + url.Values{"s": {id}, "r": {recipient}, "t": {token}}.Encode()
	}
	good := link(sub.ID, "one@example.com", tenderbase.UnsubscribeToken(sub.Secret, "one@example.com"))
	do := func(method, u string) (int, string) {
		t.Helper()
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader("List-Unsubscribe=One-Click")
		}
		req, err := http.NewRequestWithContext(ctx, method, u, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	recipients := func() []string {
		t.Helper()
		got, err := store.Subscription(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Recipients
	}

	for _, c := range []struct{ what, method, url string }{
		{"another's token", http.MethodPost, link(sub.ID, "two@example.com", tenderbase.UnsubscribeToken(sub.Secret, "one@example.com"))},
		{"no token", http.MethodPost, link(sub.ID, "one@example.com", "")},
		{"another subscription", http.MethodPost, link("s_00000000", "one@example.com", tenderbase.UnsubscribeToken(sub.Secret, "one@example.com"))},
	} {
		if status, page := do(c.method, c.url); status != http.StatusNotFound || !strings.Contains(page, "недействительна") {
			t.Errorf("%s: %d\n%s", c.what, status, page)
		}
	}
	if status, page := do(http.MethodGet, good); status != http.StatusOK || !strings.Contains(page, `<form method="post">`) || !strings.Contains(page, "«Кровля»") {
		t.Errorf("opening the link: %d\n%s", status, page)
	}
	if got := recipients(); len(got) != 2 {
		t.Fatalf("opening the link changed the recipients: %v", got)
	}
	for range 2 {
		if status, page := do(http.MethodPost, good); status != http.StatusOK || !strings.Contains(page, "отписан") {
			t.Errorf("one-click: %d\n%s", status, page)
		}
	}
	if got := recipients(); !slices.Equal(got, []string{"two@example.com"}) {
		t.Errorf("after one-click: %v, want two@ alone", got)
	}
}
