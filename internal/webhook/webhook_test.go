package webhook

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

// loopback allows the test servers, which listen on 127.0.0.1, as an
// operator allows an internal receiver.
var loopback = Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}

// TestSendOutcomes checks which answers deliver, which are retried and
// which refuse a delivery for good.
func TestSendOutcomes(t *testing.T) {
	for _, c := range []struct {
		status             int
		delivered, forGood bool
	}{
		{http.StatusNoContent, true, false},
		{http.StatusOK, true, false},
		{http.StatusBadRequest, false, true},
		{http.StatusGone, false, true},
		{http.StatusRequestTimeout, false, false},
		{http.StatusTooManyRequests, false, false},
		{http.StatusServiceUnavailable, false, false},
	} {
		var got *http.Request
		var body []byte
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r
			body = make([]byte, r.ContentLength)
			r.Body.Read(body)
			w.WriteHeader(c.status)
		}))
		err := NewSender(loopback, "test").Send(t.Context(), srv.URL, "d_1", "whsec_x", []byte(`{"a":1}`))
		srv.Close()
		if (err == nil) != c.delivered || tenderbase.IsUndeliverable(err) != c.forGood {
			t.Errorf("answer %d: %v, undeliverable %v; want delivered %v, for good %v", c.status, err, tenderbase.IsUndeliverable(err), c.delivered, c.forGood)
		}
		if got.Header.Get(DeliveryHeader) != "d_1" || Verify("whsec_x", got.Header.Get(SignatureHeader), body, time.Now(), time.Minute) != nil {
			t.Errorf("answer %d: the request's delivery or signature does not check", c.status)
		}
	}
}

// TestSendRedacts checks that no error of a failed attempt holds the
// URL's password or query: of an answer, of a connection refused, of a
// redirect.
func TestSendRedacts(t *testing.T) {
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.String(), http.StatusTemporaryRedirect)
	}))
	defer loop.Close()
	for _, base := range []string{busy.URL, closed.URL, loop.URL} {
		target := strings.Replace(base, "http://", "http://hookuser:pa55w0rd@", 1) + "/hook?token=t0k3n"
		err := NewSender(loopback, "test").Send(t.Context(), target, "d_1", "whsec_x", []byte(`{}`))
		if err == nil {
			t.Fatalf("%s: delivered", base)
		}
		if msg := err.Error(); strings.Contains(msg, "pa55w0rd") || strings.Contains(msg, "hookuser") || strings.Contains(msg, "t0k3n") {
			t.Errorf("the error holds the URL's credentials or query: %s", msg)
		}
	}
}

// TestSendRefusesAddresses checks that a webhook is not posted to an
// address the policy does not allow, whether the URL names it, a name
// resolves to it or a redirect leads to it.
func TestSendRefusesAddresses(t *testing.T) {
	reached := 0
	inner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ }))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	inner.Listener = ln
	inner.Start()
	defer inner.Close()
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/inside", http.StatusTemporaryRedirect)
	}))
	defer outer.Close()
	for _, c := range []struct {
		what   string
		policy Policy
		target string
	}{
		{"an address", Policy{}, inner.URL},
		{"a redirect", loopback, outer.URL},
	} {
		err := NewSender(c.policy, "test").Send(t.Context(), c.target, "d_1", "whsec_x", []byte(`{}`))
		if !tenderbase.IsUndeliverable(err) || !strings.Contains(fmt.Sprint(err), "is loopback") {
			t.Errorf("%s: %v; want undeliverable, of a loopback address", c.what, err)
		}
	}
	// The dialer checks the address a name resolves to, whatever the
	// URL's check said of the name.
	port := inner.Listener.Addr().(*net.TCPAddr).Port
	_, err = Policy{}.Client().Get("http://localhost:" + strconv.Itoa(port) + "/")
	if !isRefused(err) {
		t.Errorf("localhost resolved and connected: %v", err)
	}
	if reached > 0 {
		t.Errorf("the refused server took %d requests", reached)
	}
}

func TestCheckAddr(t *testing.T) {
	internal := Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("fd00:1::/32")}}
	for _, c := range []struct {
		addr   string
		policy Policy
		want   string // what the refusal says; "" allowed
	}{
		{"93.184.215.14", Policy{}, ""},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", Policy{}, ""},
		{"127.0.0.1", Policy{}, "loopback"},
		{"127.8.9.10", Policy{}, "loopback"},
		{"::1", Policy{}, "loopback"},
		{"::ffff:127.0.0.1", Policy{}, "loopback"},
		{"10.1.2.3", Policy{}, "private (RFC 1918)"},
		{"172.16.0.1", Policy{}, "private (RFC 1918)"},
		{"192.168.1.1", Policy{}, "private (RFC 1918)"},
		{"fd12::1", Policy{}, "a unique local address (RFC 4193)"},
		{"169.254.169.254", Policy{}, "link-local"},
		{"fe80::1", Policy{}, "link-local"},
		{"0.0.0.0", Policy{}, "unspecified"},
		{"::", Policy{}, "unspecified"},
		{"0.1.2.3", Policy{}, "of \"this network\" (RFC 791)"},
		{"224.0.0.1", Policy{}, "multicast"},
		{"ff02::1", Policy{}, "multicast"},
		{"100.64.0.1", Policy{}, "of the carrier-grade NAT's shared space (RFC 6598)"},
		{"100.127.255.255", Policy{}, "of the carrier-grade NAT's shared space (RFC 6598)"},
		{"100.128.0.1", Policy{}, ""},
		{"198.18.0.1", Policy{}, "reserved for benchmarking (RFC 2544)"},
		{"255.255.255.255", Policy{}, "reserved (RFC 1112) or the broadcast address"},
		{"2001:db8::1", Policy{}, "reserved for documentation (RFC 3849)"},
		{"64:ff9b::a9fe:a9fe", Policy{}, "NAT64 of 169.254.169.254, which is link-local"},
		{"64:ff9b::5db8:d70e", Policy{}, ""},
		{"2002:7f00:1::1", Policy{}, "6to4 of 127.0.0.1, which is loopback"},
		{"10.1.2.3", internal, ""},
		{"10.2.0.1", internal, "private (RFC 1918)"},
		{"fd00:1:2::3", internal, ""},
		{"::ffff:10.1.0.9", internal, ""},
	} {
		err := c.policy.CheckAddr(netip.MustParseAddr(c.addr))
		got := ""
		if r, ok := err.(*RefusedError); ok {
			got = r.What
		} else if err != nil {
			t.Errorf("%s: %v, not a *RefusedError", c.addr, err)
		}
		if got != c.want {
			t.Errorf("%s: refused as %q, want %q", c.addr, got, c.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url  string
		want string // a part of the error; "" accepted
	}{
		{"https://hooks.example.org/tb?token=x", ""},
		{"https://93.184.215.14/tb", ""},
		{"http://169.254.169.254/latest/meta-data/", "address 169.254.169.254 is link-local"},
		{"http://[::1]:8080/x", "address ::1 is loopback"},
		{"http://[fe80::1%25eth0]/x", "address fe80::1 is link-local"},
		{"http://127.0.0.1:9000/x", "address 127.0.0.1 is loopback"},
		{"http://localhost:9000/x", "is loopback"},
		{"http://hooks.localhost./x", "is loopback"},
		{"http://10.0.0.5/x", "is private (RFC 1918)"},
		{"http://2130706433/x", "numeric but no dotted IPv4 address"},
		{"http://127.1/x", "numeric but no dotted IPv4 address"},
		{"http://0x7f.0.0.1/x", "numeric but no dotted IPv4 address"},
		{"http://user:pa55@10.0.0.5/x?token=t0k", `webhook "http://10.0.0.5/x?…": address 10.0.0.5 is private`},
	} {
		err := Policy{}.CheckURL(c.url)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.url, err)
		case c.want != "" && (tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(fmt.Sprint(err), c.want)):
			t.Errorf("%s: %v; want EINVALID saying %q", c.url, err, c.want)
		}
	}
	if err := loopback.CheckURL("http://127.0.0.1:9000/x"); err != nil {
		t.Errorf("an allowed network refused: %v", err)
	}
}
func TestVerify(t *testing.T) {
	body, now := []byte(`{"delivery":"d_1"}`), time.Now()
	sig := Sign("whsec_x", body, now)
	for _, c := range []struct {
		what        string
		secret, sig string
		body        []byte
		at          time.Time
		ok          bool
	}{
		{"as signed", "whsec_x", sig, body, now, true},
		{"another secret", "whsec_y", sig, body, now, false},
		{"another body", "whsec_x", sig, []byte(`{"delivery":"d_2"}`), now, false},
		{"replayed later", "whsec_x", sig, body, now.Add(10 * time.Minute), false},
		{"no signature", "whsec_x", "", body, now, false},
		{"no time", "whsec_x", "v1=00", body, now, false},
	} {
		if err := Verify(c.secret, c.sig, c.body, c.at, 5*time.Minute); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.what, err, c.ok)
		}
	}
}
