package tcpproxy

import (
	"bufio"
	"io"
	"net"
	"testing"
)

// TestCutAndRestore checks that the proxy forwards, refuses and resets
// while cut, and forwards again once restored.
func TestCutAndRestore(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	p, err := Start(echo.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Cut()
	open := roundTrip(t, p.Addr())
	p.Cut()
	if _, err := net.Dial("tcp", p.Addr()); err == nil {
		t.Error("a connection to a cut proxy was accepted")
	}
	if _, err := bufio.NewReader(open).ReadString('\n'); err == nil {
		t.Error("a connection open when the proxy was cut still reads")
	}
	if err := p.Restore(); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, p.Addr())
}

// roundTrip sends a line through the proxy at addr, checks that it comes
// back and returns the connection, open.
func roundTrip(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, "ping\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || line != "ping\n" {
		t.Fatalf("echo through the proxy: %q, %v", line, err)
	}
	return c
}
