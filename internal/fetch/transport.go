package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
)

// Transport returns the transport of the sync's clients: Go's default one,
// which takes its proxy from HTTPS_PROXY, HTTP_PROXY and NO_PROXY
// (http.ProxyFromEnvironment), and trusts the system's certificates and,
// when caFile is not "", the PEM certificates in it too: the Russian root
// certificate authority (Mintsifry) that the EIS's certificate is issued
// under, which a system outside Russia may lack. It returns nil, the
// default, when caFile is "".
func Transport(caFile string) (http.RoundTripper, error) {
	if caFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("read the certificates to trust: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("read the certificates to trust: " + caFile + " holds no PEM certificate")
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = http.ProxyFromEnvironment
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return t, nil
}
