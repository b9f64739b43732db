package webhook

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

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
		err := (&Sender{Client: srv.Client(), UserAgent: "test"}).Send(t.Context(), srv.URL, "d_1", "whsec_x", []byte(`{"a":1}`))
		srv.Close()
		if (err == nil) != c.delivered || tenderbase.IsUndeliverable(err) != c.forGood {
			t.Errorf("answer %d: %v, undeliverable %v; want delivered %v, for good %v", c.status, err, tenderbase.IsUndeliverable(err), c.delivered, c.forGood)
		}
		if got.Header.Get(DeliveryHeader) != "d_1" || Verify("whsec_x", got.Header.Get(SignatureHeader), body, time.Now(), time.Minute) != nil {
			t.Errorf("answer %d: the request's delivery or signature does not check", c.status)
		}
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
