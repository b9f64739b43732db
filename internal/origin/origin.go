// Package origin decides which browser origins may call the service: the
// MCP endpoint's defence against DNS rebinding and the CORS answers of every
// endpoint a browser client reaches read the same policy.
package origin

import (
	"net/url"
	"strings"
)

// Policy decides which browser origins may call. Pages served from this
// machine may; any other origin must be listed. This is the defence against
// DNS rebinding: a page on a hostile name that resolves to this machine
// still sends its own name as its origin.
type Policy struct {
	any     bool
	origins map[string]bool // "https://app.example.com"
	hosts   map[string]bool // "app.example.com"
}

// NewPolicy returns the policy that allows, beyond localhost, the origins
// listed: full origins ("https://app.example.com"), host names, or "*" for
// any.
func NewPolicy(allowed []string) Policy {
	p := Policy{origins: make(map[string]bool), hosts: make(map[string]bool)}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(a), "/"))
		switch {
		case a == "*":
			p.any = true
		case strings.Contains(a, "://"):
			p.origins[a] = true
		case a != "":
			p.hosts[a] = true
		}
	}
	return p
}

// Allows reports whether a request from origin may be served.
func (p Policy) Allows(origin string) bool {
	if p.any {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" and other opaque origins
	}
	host := strings.ToLower(u.Hostname())
	switch host {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return p.origins[strings.ToLower(origin)] || p.hosts[host]
}
