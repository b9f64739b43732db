package httpserver

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Anonymous bounds the callers that come without a key (the export's free
// view), per client address, so that a free key is never worse off than no
// key at all.
type Anonymous struct {
	// RatePerMinute and Burst are the limit of one client address; a zero
	// rate takes the free plan's.
	RatePerMinute, Burst int
	// TrustedProxies are the addresses of the reverse proxies in front of
	// the service. A request from one of them is counted against the
	// address its ClientIPHeader names; from anywhere else the header is
	// ignored, since any client can send it.
	TrustedProxies []netip.Prefix
	// ClientIPHeader is the header in which the trusted proxies put the
	// client's address: X-Forwarded-For (the default), where each proxy
	// appends the address it got the request from, or a header holding one
	// address such as X-Real-IP.
	ClientIPHeader string
}

// clientAddress returns the address an anonymous caller is counted by: the
// peer of the connection, or, when the peer is a trusted proxy, the last
// address in the client header that is not itself a trusted proxy. An IPv6
// address is counted by its /64, the block one host or home gets, so that
// a client cannot dodge the limit by changing addresses within it.
func (a Anonymous) clientAddress(r *http.Request) string {
	peer := remoteAddr(r)
	if peer.IsValid() && a.trusted(peer) {
		if forwarded, ok := a.forwardedAddr(r); ok {
			peer = forwarded
		}
	}
	if !peer.IsValid() {
		return r.RemoteAddr
	}
	if peer.Is6() {
		return netip.PrefixFrom(peer, 64).Masked().String()
	}
	return peer.Unmap().String()
}

// forwardedAddr reads the client header of a request a trusted proxy
// passed on: the rightmost address not of a trusted proxy, since the
// addresses to its left were written by the client or a proxy not trusted.
func (a Anonymous) forwardedAddr(r *http.Request) (netip.Addr, bool) {
	header := a.ClientIPHeader
	if header == "" {
		header = "X-Forwarded-For"
	}
	var hops []string
	for _, v := range r.Header.Values(header) {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return netip.Addr{}, false
		}
		addr = addr.Unmap()
		if !a.trusted(addr) {
			return addr, true
		}
	}
	return netip.Addr{}, false
}

func (a Anonymous) trusted(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range a.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// remoteAddr is the address of the connection's peer.
func remoteAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return addr.Unmap()
}
