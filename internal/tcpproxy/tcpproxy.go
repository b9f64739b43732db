// Package tcpproxy forwards TCP connections to a server, and can cut them
// and let them through again: the tests and the load bench put it between
// the service and its PostgreSQL or Redis to make an outage of that server
// without touching it, since others use it too.
package tcpproxy

import (
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// Proxy forwards the connections made to its address to a target. Cut
// closes its listener and every connection, as when the server goes away:
// a new connection is refused, one open is reset. Restore listens again on
// the same address. It is safe for concurrent use.
type Proxy struct {
	addr   string
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
}

// Start listens on a loopback port and forwards what comes to target, a
// host:port.
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: %w", target, err)
	}
	p := &Proxy{addr: ln.Addr().String(), target: target}
	p.serve(ln)
	return p, nil
}

// Addr returns the host:port the proxy listens on.
func (p *Proxy) Addr() string { return p.addr }

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

// forward copies between c and a new connection to the target, until
// either side closes or the proxy is cut.
func (p *Proxy) forward(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil {
		// Cut while this connection was being made.
		p.mu.Unlock()
		c.Close()
		s.Close()
		return
	}
	p.conns = append(p.conns, c, s)
	p.mu.Unlock()
	go func() { io.Copy(s, c); s.Close() }()
	io.Copy(c, s)
	c.Close()
}

// Cut closes the listener and every connection. Cutting a cut proxy does
// nothing.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// Restore listens again on the proxy's address, which may linger for a
// moment after the close; a proxy that is not cut is left as it is.
func (p *Proxy) Restore() error {
	p.mu.Lock()
	up := p.ln != nil
	p.mu.Unlock()
	if up {
		return nil
	}
	var err error
	for range 50 {
		var ln net.Listener
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			p.serve(ln)
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("proxy to %s: listen again on %s: %w", p.target, p.addr, err)
}
