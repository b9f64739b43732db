package tenderbase_test

import (
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://hooks.example.org/path", "https://hooks.example.org/path"},
		{"https://user:pa55@hooks.example.org/path?token=t0k#frag", "https://hooks.example.org/path?…"},
		{"https://user@hooks.example.org:8443/p?", "https://hooks.example.org:8443/p?…"},
		{"smtp://mailer:s3cret@mail.example.org:587?tls=none", "smtp://mail.example.org:587?…"},
		{"http://[::1]:80/a b", "http://[::1]:80/a%20b"},
		{"https://user:pa55@host/%zz?token=t0k", "a URL that does not parse"},
	} {
		if got := tenderbase.RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRedactText checks that no token or password in a sync's error, in
// the forms a publisher's answer or a client's error may hold it, reaches
// what a caller reads, while the rest of the message stays readable.
func TestRedactText(t *testing.T) {
	const token = "5f1d8a3e-token-0b7c"
	for _, c := range []struct{ in, want string }{
		{"eis: 77/PRIZ/epNotificationEF2020/2026-11-20: archive is not a whole ZIP archive",
			"eis: 77/PRIZ/epNotificationEF2020/2026-11-20: archive is not a whole ZIP archive"},
		{`request to https://int.zakupki.gov.ru/dl?ticket=abc: Get "https://int.zakupki.gov.ru/dl?ticket=abc&individualPerson_token=` + token + `": EOF`,
			`request to https://int.zakupki.gov.ru/dl?…: Get "https://int.zakupki.gov.ru/dl?…": EOF`},
		{"https://user:pa55w0rd@fedresurs.example/v1/auth answered 401.",
			"https://fedresurs.example/v1/auth answered 401."},
		{"the EIS answered 500: <soap:Fault><individualPerson_token>" + token + "</individualPerson_token></soap:Fault>",
			"the EIS answered 500: <soap:Fault><individualPerson_token>…</individualPerson_token></soap:Fault>"},
		{"request header individualPerson_token: " + token + " refused",
			"request header individualPerson_token: … refused"},
		{`answered 400: {"login":"tb","password":"hunter22"}`, `answered 400: {"login":"tb","password":"…"}`},
		{"Authorization: Bearer eyJhbGciOi.x.y expired", "Authorization: … expired"},
		{"the EIS refused the token (error 5: token " + token + " unknown)", "the EIS refused the token (error 5: token … unknown)"},
	} {
		got := tenderbase.RedactText(c.in, token, "hunter22")
		if got != c.want {
			t.Errorf("RedactText(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
		if strings.Contains(got, token) || strings.Contains(got, "hunter22") || strings.Contains(got, "pa55w0rd") {
			t.Errorf("RedactText(%q) = %q holds a secret", c.in, got)
		}
	}
}
