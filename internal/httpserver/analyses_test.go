package httpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/docjobs/docjobstest"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tools"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// planKeys authenticates a key named after its plan, of an account of
// its own.
type planKeys struct{ tenderbase.KeyStore }

func (planKeys) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	p, err := tenderbase.ParsePlan(secret)
	if err != nil {
		return tenderbase.Key{}, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "unknown key")
	}
	return tenderbase.Key{ID: "k_" + secret, Account: "a_" + secret, Plan: p, Status: tenderbase.KeyActive}, nil
}

// TestAnalysisJobOverHTTP is a CRM's use of the analysis job on both
// stores: POST makes the job, GET polls it until done, the webhook comes
// signed with the secret the POST gave; the same request again is done
// at once from the store; docs.analyze's debug endpoint answers the
// stored analysis; free and standard keys are refused naming the plans.
func TestAnalysisJobOverHTTP(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			docjobstest.Put(t, store, docjobstest.Docs(t, docjobstest.Auction))
			as, _ := tenderbase.StoreAs[tenderbase.AnalysisStore](store)
			loopback := webhook.Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
			svc := docjobs.New(docjobs.Config{Store: store, Analyses: as, AnalyzerID: "rules", WebhookPolicy: loopback,
				Webhooks: webhook.NewSender(loopback, "test"), Poll: time.Hour,
				Analyze: func(_ context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
					return docanalysis.Analyze(files), nil
				}})
			set := tools.New(store, nil)
			set.SetAnalyses(svc)
			ts := httptest.NewServer(httpserver.New(httpserver.Config{Tools: set, Keys: planKeys{}, Limiter: fakeLimiter{}, Analyses: svc}, store, nil).Handler())
			t.Cleanup(ts.Close)

			var mu sync.Mutex
			var hooks []*http.Request
			var hookBodies [][]byte
			crm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				hooks, hookBodies = append(hooks, r), append(hookBodies, body)
				mu.Unlock()
			}))
			t.Cleanup(crm.Close)

			call := func(method, path, key, body string) (int, []byte) {
				t.Helper()
				req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+key)
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				resp, err := ts.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, b
			}
			for _, plan := range []string{"free", "standard"} {
				status, body := call("POST", "/analyses", plan, `{"purchase_number":"`+docjobstest.Auction+`"}`)
				if status != http.StatusForbidden || !strings.Contains(string(body), "guru and corporate") {
					t.Errorf("%s: %d %s", plan, status, body)
				}
				status, body = postTool(t, ts, "/mcp/docs/analyze", plan, `{"purchase_number":"`+docjobstest.Auction+`"}`)
				if status != http.StatusForbidden || !strings.Contains(string(body), "guru and corporate") {
					t.Errorf("%s, docs.analyze: %d %s", plan, status, body)
				}
			}
			for _, bad := range []string{`{}`, `{"purchase_number":"x1"}`, `{"purchase_numbers":["` + docjobstest.Auction + `"]}`, `{"tend_num":"1"}`,
				`{"purchase_number":"` + docjobstest.Auction + `","webhook_url":"http://10.0.0.1/hook"}`} {
				if status, body := call("POST", "/analyses", "guru", bad); status != http.StatusBadRequest {
					t.Errorf("%s: %d %s", bad, status, body)
				}
			}

			status, body := call("POST", "/analyses", "guru", `{"purchase_number":"`+docjobstest.Auction+`","webhook_url":"`+crm.URL+`/tenders"}`)
			var made struct {
				tenderbase.AnalysisJob
				Poll   string `json:"poll"`
				Secret string `json:"webhook_secret"`
			}
			if err := json.Unmarshal(body, &made); err != nil || status != http.StatusAccepted || made.State != tenderbase.JobQueued || made.Secret == "" {
				t.Fatalf("POST /analyses: %d %s", status, body)
			}
			if status, body := call("GET", made.Poll, "corporate", ""); status != http.StatusNotFound {
				t.Errorf("another account polls: %d %s", status, body)
			}
			if err := svc.RunPending(t.Context()); err != nil {
				t.Fatal(err)
			}
			status, body = call("GET", made.Poll, "guru", "")
			var polled struct {
				tenderbase.AnalysisJob
				Secret string `json:"webhook_secret"`
			}
			if err := json.Unmarshal(body, &polled); err != nil || status != http.StatusOK || polled.State != tenderbase.JobDone ||
				polled.Webhook != tenderbase.WebhookDelivered || polled.Secret != "" || !strings.Contains(string(polled.Result), "Печатная форма.pdf") {
				t.Fatalf("GET %s: %d %s", made.Poll, status, body)
			}
			mu.Lock()
			if len(hooks) != 1 || hooks[0].Header.Get(webhook.DeliveryHeader) != made.ID {
				t.Fatalf("%d webhooks", len(hooks))
			}
			if err := webhook.Verify(made.Secret, hooks[0].Header.Get(webhook.SignatureHeader), hookBodies[0], time.Now(), time.Minute); err != nil {
				t.Errorf("webhook signature: %v", err)
			}
			mu.Unlock()

			status, body = call("POST", "/analyses", "guru", `{"purchase_number":"`+docjobstest.Auction+`"}`)
			if status != http.StatusCreated || !strings.Contains(string(body), `"from_store":true`) || !strings.Contains(string(body), `"state":"done"`) {
				t.Errorf("the same documentation again: %d %s", status, body)
			}
			status, body = postTool(t, ts, "/mcp/docs/analyze", "guru", `{"purchase_number":"`+docjobstest.Auction+`"}`)
			if status != http.StatusOK || !strings.Contains(string(body), `"from_store":true`) {
				t.Errorf("docs.analyze: %d %s", status, body)
			}
			if n, err := as.AnalysesMade(t.Context(), "a_guru", tenderbase.AnalysisMonth(time.Now())); err != nil || n != 1 {
				t.Errorf("%d analyses counted, want 1: %v", n, err)
			}
		})
	}
}
