package tenderbase_test

import (
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
