package webhook

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Policy says which addresses a webhook may be posted to: public ones,
// and those of the networks an operator allowed, such as an internal
// receiver's. The zero Policy allows public addresses only.
type Policy struct {
	// Allowed are networks allowed although they are not public
	// (tenderbase serve --webhook-allow).
	Allowed []netip.Prefix
}

// nonPublic are the ranges a webhook is not posted to unless allowed,
// besides those netip.Addr classifies itself (loopback, private,
// link-local, multicast, unspecified), each with what it is.
var nonPublic = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "of \"this network\" (RFC 791)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "of the carrier-grade NAT's shared space (RFC 6598)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved for protocol assignments (RFC 6890)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "reserved for documentation (RFC 5737)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved for benchmarking (RFC 2544)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "reserved for documentation (RFC 5737)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "reserved for documentation (RFC 5737)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (RFC 1112) or the broadcast address"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible, deprecated (RFC 4291)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "of local-use NAT64 (RFC 8215)"},
	{netip.MustParsePrefix("100::/64"), "a discard prefix (RFC 6666)"},
	{netip.MustParsePrefix("2001::/23"), "reserved for protocol assignments (RFC 2928)"},
	{netip.MustParsePrefix("2001:db8::/32"), "reserved for documentation (RFC 3849)"},
	{netip.MustParsePrefix("fec0::/10"), "site-local, deprecated (RFC 3879)"},
}

// embedsIPv4 are IPv6 prefixes whose addresses carry an IPv4 address in
// their last (NAT64) or in their second to fourth bytes (6to4), which is
// then what is reached.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// RefusedError is the error of an address a Policy does not allow.
type RefusedError struct {
	Addr netip.Addr
	What string // "loopback", "private (RFC 1918)"...
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("address %s is %s: webhooks go to public addresses only, unless the operator allows its network (tenderbase serve --webhook-allow)", e.Addr, e.What)
}

// CheckAddr returns a *RefusedError when p does not allow a webhook to
// be posted to a.
func (p Policy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	for _, allowed := range p.Allowed {
		if allowed.Contains(a) {
			return nil
		}
	}
	if what := nonPublicKind(a); what != "" {
		return &RefusedError{Addr: a, What: what}
	}
	return nil
}

// nonPublicKind says what a is when it is no public address, "" when it
// is one.
func nonPublicKind(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "no address"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate() && a.Is4():
		return "private (RFC 1918)"
	case a.IsPrivate():
		return "a unique local address (RFC 4193)"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	}
	for _, r := range nonPublic {
		if r.prefix.Contains(a) {
			return r.what
		}
	}
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return embedded(netip.AddrFrom4([4]byte(b[12:16])), "NAT64")
	case sixToFour.Contains(a):
		return embedded(netip.AddrFrom4([4]byte(b[2:6])), "6to4")
	}
	return ""
}

// embedded says what an IPv6 address is that reaches the IPv4 address v4
// through a translation.
func embedded(v4 netip.Addr, through string) string {
	if what := nonPublicKind(v4); what != "" {
		return through + " of " + v4.String() + ", which is " + what
	}
	return ""
}

// CheckURL checks the URL of a webhook about to be stored: EINVALID when
// its host is an address p does not allow, or a name that always is one
// (localhost). A name is checked again, with every address it resolves
// to, at each delivery, when the address connected to is checked
// (Client): what a name resolves to today says nothing of tomorrow.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "webhook %s is no URL", tenderbase.Quote(tenderbase.RedactURL(raw)))
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	var addrs []netip.Addr
	switch a, err := netip.ParseAddr(host); {
	case err == nil:
		addrs = []netip.Addr{a}
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		// RFC 6761: these names are the loopback, whatever DNS says.
		addrs = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()}
	case numeric(host):
		return tenderbase.Errorf(tenderbase.EINVALID,
			"webhook %s: host %s is numeric but no dotted IPv4 address; give the address as 203.0.113.7 or a name",
			tenderbase.Quote(tenderbase.RedactURL(raw)), tenderbase.Quote(host))
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return tenderbase.Errorf(tenderbase.EINVALID, "webhook %s: %v", tenderbase.Quote(tenderbase.RedactURL(raw)), err)
		}
	}
	return nil
}

// numeric reports whether host's last label is a number, as in the
// shorthand 127.1 or 0x7f000001 that some resolvers take for an address
// and that no top-level domain is.
func numeric(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	return last != "" && strings.Trim(last, "0123456789abcdefx") == "" && last[0] >= '0' && last[0] <= '9'
}

// Timeouts of a webhook's request: connecting, and the whole exchange.
const (
	dialTimeout    = 10 * time.Second
	requestTimeout = 30 * time.Second
	maxRedirects   = 5
)

// Client returns the HTTP client that posts webhooks under p. Its dialer
// checks every address it connects to, after the name was resolved, so
// that neither a name that resolves to an internal address nor a redirect
// to one reaches it. It uses no proxy from the environment: the address
// checked must be the receiver's.
func (p Policy) Client() *http.Client {
	dialer := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second, Control: p.control}
	transport := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        10,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   requestTimeout,
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			return nil
		},
	}
}

// control is the dialer's check of the address it is about to connect
// to, "ip:port" once resolved.
func (p Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connect to %q: not an address and port", address)
	}
	return p.CheckAddr(ap.Addr())
}

// isRefused reports whether err is, or wraps, a *RefusedError.
func isRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}
