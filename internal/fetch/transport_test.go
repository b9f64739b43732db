package fetch

import (
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestTransportThroughProxy runs a client in a process of its own, since
// Go reads the proxy variables once a process: HTTPS_PROXY names a local
// proxy, which tunnels to a TLS server whose certificate only the file
// given to Transport makes trusted. Without the file, the client sees
// what a system that lacks the publisher's root certificate sees.
func TestTransportThroughProxy(t *testing.T) {
	if os.Getenv("FETCH_TEST_TARGET") != "" {
		proxyChild(t)
		return
	}
	target := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "through") }))
	defer target.Close()
	caFile := t.TempDir() + "/ca.pem"
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: target.Certificate().Raw})
	if err := os.WriteFile(caFile, block, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var tunnels []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		mu.Lock()
		tunnels = append(tunnels, r.Host)
		mu.Unlock()
		up, err := net.Dial("tcp", target.Listener.Addr().String())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		down, _, _ := w.(http.Hijacker).Hijack()
		io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { io.Copy(up, down); up.Close() }()
		io.Copy(down, up)
		down.Close()
	}))
	defer proxy.Close()
	// example.com is a name the test server's certificate holds; the
	// proxy, not the resolver, decides where it leads.
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	cmd := exec.Command(os.Args[0], "-test.run=^TestTransportThroughProxy$", "-test.v")
	cmd.Env = append(os.Environ(), "HTTPS_PROXY="+proxy.URL, "NO_PROXY=", "no_proxy=",
		"FETCH_TEST_TARGET=https://example.com:"+port+"/", "FETCH_TEST_CA="+caFile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the client through the proxy: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(tunnels) != 2 || tunnels[0] != "example.com:"+port {
		t.Errorf("tunnels %v, want two to example.com:%s", tunnels, port)
	}
}

// proxyChild is the client of TestTransportThroughProxy.
func proxyChild(t *testing.T) {
	url := os.Getenv("FETCH_TEST_TARGET")
	bare := New("test", quick, nil, nil)
	if _, err := bare.Fetch(context.Background(), Request{URL: url}); err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Errorf("without the certificate: %v, want it unknown", err)
	}
	tr, err := Transport(os.Getenv("FETCH_TEST_CA"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := New("test", quick, tr, nil).Fetch(context.Background(), Request{URL: url})
	if err != nil || string(body) != "through" {
		t.Errorf("with the certificate: %q, %v", body, err)
	}
}

func TestTransportRefusesAFileWithoutCertificates(t *testing.T) {
	if tr, err := Transport(""); tr != nil || err != nil {
		t.Errorf("no file: %v, %v; want the default transport", tr, err)
	}
	bad := t.TempDir() + "/ca.pem"
	os.WriteFile(bad, []byte("not a certificate"), 0o600)
	if _, err := Transport(bad); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("a file without certificates: %v", err)
	}
}
