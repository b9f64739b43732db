package docjobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/docjobs/docjobstest"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

const (
	auction  = docjobstest.Auction
	withScan = docjobstest.WithScan
	other    = docjobstest.Other
)

type store interface {
	tenderbase.Store
	tenderbase.AnalysisStore
}

func bothStores() map[string]func(t *testing.T) store {
	return map[string]func(t *testing.T) store{
		"sqlite": func(t *testing.T) store {
			s, err := sqlite.Open(t.Context(), t.TempDir()+"/store.db", nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(t *testing.T) store {
			s, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

func tenderDocs(t *testing.T, number string) []*tenderbase.Doc { return docjobstest.Docs(t, number) }

func put(t *testing.T, st tenderbase.Store, docs []*tenderbase.Doc) { docjobstest.Put(t, st, docs) }

func rules(ctx context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
	return docanalysis.Analyze(files), nil
}

var (
	guru     = tenderbase.Key{ID: "k_guru", Account: "a_guru", Plan: tenderbase.PlanGuru}
	free     = tenderbase.Key{ID: "k_free", Account: "a_free", Plan: tenderbase.PlanFree}
	standard = tenderbase.Key{ID: "k_std", Account: "a_std", Plan: tenderbase.PlanStandard}
)

func service(st store, analyze docjobs.Analyzer) *docjobs.Service {
	return docjobs.New(docjobs.Config{Store: st, Analyses: st, Analyze: analyze, AnalyzerID: "rules",
		WebhookPolicy: webhook.Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		Webhooks:      webhook.NewSender(webhook.Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, "tenderbase-test"),
		Backoff:       func(int) time.Duration { return time.Millisecond }})
}

func made(t *testing.T, st store, account string) int {
	t.Helper()
	n, err := st.AnalysesMade(t.Context(), account, tenderbase.AnalysisMonth(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func answer(r docjobs.Result, q docanalysis.Question) (docjobs.Answer, bool) {
	for _, a := range r.Answers {
		if a.Question == string(q) {
			return a, true
		}
	}
	return docjobs.Answer{}, false
}

// TestAnalysisStoredAndMadeAgain analyses a real tender, serves the
// analysis again from the store without counting it, and makes it again
// once a new version of the notice adds a file.
func TestAnalysisStoredAndMadeAgain(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			docs := tenderDocs(t, auction)
			put(t, st, docs[:len(docs)-1])
			svc := service(st, rules)
			first, err := svc.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if first.FromStore || made(t, st, guru.Account) != 1 {
				t.Fatalf("first analysis: from store %v, %d made", first.FromStore, made(t, st, guru.Account))
			}
			if a, ok := answer(first, docanalysis.ApplicationSecurity); !ok || !strings.Contains(a.Quote, "не требуется") || !strings.Contains(a.At, "Печатная форма.pdf") {
				t.Errorf("application_security: %+v", a)
			}
			again, err := svc.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if !again.FromStore || again.Version != first.Version || made(t, st, guru.Account) != 1 {
				t.Errorf("repeat: from store %v, version %s then %s, %d made", again.FromStore, first.Version, again.Version, made(t, st, guru.Account))
			}
			// The notice's next version adds the draft contract.
			put(t, st, docs[len(docs)-1:])
			third, err := svc.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if third.FromStore || third.Version == first.Version || made(t, st, guru.Account) != 2 {
				t.Errorf("new documentation: from store %v, version %s, %d made", third.FromStore, third.Version, made(t, st, guru.Account))
			}
			if third.FilesRead != len(docs) {
				t.Errorf("%d files read, want %d", third.FilesRead, len(docs))
			}
			if _, ok := answer(third, docanalysis.Payment); !ok {
				t.Errorf("payment, in the draft contract added, not found: %+v", third.NotStated)
			}
		})
	}
}

// TestFilesWithoutText: a photograph saved as a PDF is listed with why.
func TestFilesWithoutText(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			put(t, st, tenderDocs(t, withScan))
			r, err := service(st, rules).Analyze(t.Context(), guru, withScan)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.FilesWithoutText) != 1 || r.FilesWithoutText[0].File != "Фото шильдиков экскаватора.pdf" ||
				!strings.Contains(r.FilesWithoutText[0].Reason, "scan") {
				t.Errorf("files without text: %+v", r.FilesWithoutText)
			}
		})
	}
}

// TestPlansAndAllowance: free and standard are refused naming the plans;
// an account past its allowance is told so, and still served what is
// stored.
func TestPlansAndAllowance(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			put(t, st, tenderDocs(t, auction))
			put(t, st, tenderDocs(t, other))
			svc := service(st, rules)
			for _, k := range []tenderbase.Key{free, standard} {
				_, err := svc.Analyze(t.Context(), k, auction)
				if tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN || !strings.Contains(err.Error(), "guru and corporate") {
					t.Errorf("%s: %v", k.Plan, err)
				}
				_, err = svc.CreateJob(t.Context(), k, docjobs.JobRequest{PurchaseNumbers: []string{auction}})
				if tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN {
					t.Errorf("%s job: %v", k.Plan, err)
				}
			}
			if _, err := svc.Analyze(t.Context(), guru, auction); err != nil {
				t.Fatal(err)
			}
			allowance := tenderbase.Plans[tenderbase.PlanGuru].AnalysesPerMonth
			if _, err := st.CountAnalysis(t.Context(), guru.Account, tenderbase.AnalysisMonth(time.Now()), allowance-1, allowance, guru.Plan, time.Now()); err != nil {
				t.Fatal(err)
			}
			_, err := svc.Analyze(t.Context(), guru, other)
			if tenderbase.ErrorCode(err) != tenderbase.ERATELIMITED || !strings.Contains(err.Error(), "100 analyses") {
				t.Errorf("past the allowance: %v", err)
			}
			if r, err := svc.Analyze(t.Context(), guru, auction); err != nil || !r.FromStore {
				t.Errorf("stored analysis past the allowance: %v", err)
			}
			if _, err := svc.Analyze(t.Context(), guru, "0000000000000000001"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
				t.Errorf("no documentation: %v", err)
			}
			if _, err := svc.Analyze(t.Context(), guru, "12; DROP"); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Errorf("no purchase number: %v", err)
			}
		})
	}
}

// TestTimeout: an analyser that runs past its time fails the analysis,
// which is given back to the allowance.
func TestTimeout(t *testing.T) {
	st := bothStores()["sqlite"](t)
	put(t, st, tenderDocs(t, auction))
	svc := docjobs.New(docjobs.Config{Store: st, Analyses: st, Timeout: time.Millisecond,
		Analyze: func(ctx context.Context, _ []docanalysis.File) (docanalysis.Analysis, error) {
			<-ctx.Done()
			return docanalysis.Analysis{}, ctx.Err()
		}})
	_, err := svc.Analyze(t.Context(), guru, auction)
	if tenderbase.ErrorCode(err) != tenderbase.ETIMEOUT {
		t.Fatalf("%v", err)
	}
	if n := made(t, st, guru.Account); n != 0 {
		t.Errorf("%d counted after a failure", n)
	}
}

// TestComparison lines two tenders up.
func TestComparison(t *testing.T) {
	st := bothStores()["sqlite"](t)
	put(t, st, tenderDocs(t, auction))
	put(t, st, tenderDocs(t, other))
	c, err := service(st, rules).Compare(t.Context(), guru, []string{auction, other})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != len(docanalysis.Questions) || len(c.Rows[0].Cells) != 2 || c.Rows[0].Cells[0].Quote == "" {
		t.Errorf("comparison: %+v", c.Rows[0])
	}
	if _, err := service(st, rules).Compare(t.Context(), guru, []string{auction}); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
		t.Errorf("one tender: %v", err)
	}
}

// receiver is a CRM's webhook: it keeps what it was posted and verifies
// the signature with the job's secret.
type receiver struct {
	mu     sync.Mutex
	bodies [][]byte
	sigs   []string
	srv    *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.bodies = append(r.bodies, body)
		r.sigs = append(r.sigs, req.Header.Get(webhook.SignatureHeader))
		r.mu.Unlock()
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// TestJobEndToEnd: a job is made, stopped in the middle of its analysis,
// run again at the next start, polled, and its result posted to the
// webhook, signed; a second job for the same documentation is done at
// once from the store.
func TestJobEndToEnd(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			put(t, st, tenderDocs(t, auction))
			crm := newReceiver(t)
			started := make(chan struct{})
			stopping := service(st, func(ctx context.Context, _ []docanalysis.File) (docanalysis.Analysis, error) {
				close(started)
				<-ctx.Done()
				return docanalysis.Analysis{}, ctx.Err()
			})
			job, err := stopping.CreateJob(t.Context(), guru, docjobs.JobRequest{PurchaseNumbers: []string{auction}, WebhookURL: crm.srv.URL + "/hook"})
			if err != nil {
				t.Fatal(err)
			}
			if job.State != tenderbase.JobQueued || job.Secret == "" {
				t.Fatalf("job made: %+v", job)
			}
			ctx, stop := context.WithCancel(t.Context())
			done := make(chan error)
			go func() { done <- stopping.RunPending(ctx) }()
			<-started
			stop() // the server stops in the middle of the analysis
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			polled, err := stopping.Job(t.Context(), guru, job.ID)
			if err != nil || polled.State != tenderbase.JobRunning {
				t.Fatalf("after the stop: %+v, %v", polled, err)
			}
			// The next start picks it up.
			restarted := service(st, rules)
			if err := restarted.RunPending(t.Context()); err != nil {
				t.Fatal(err)
			}
			polled, err = restarted.Job(t.Context(), guru, job.ID)
			if err != nil || polled.State != tenderbase.JobDone || polled.Webhook != tenderbase.WebhookDelivered {
				t.Fatalf("after the restart: %+v, %v", polled, err)
			}
			var result docjobs.Result
			if err := json.Unmarshal(polled.Result, &result); err != nil || result.FromStore || len(result.Answers) == 0 {
				t.Fatalf("result: %+v, %v", result, err)
			}
			if _, err := restarted.Job(t.Context(), tenderbase.Key{Account: "a_other", Plan: tenderbase.PlanGuru}, job.ID); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
				t.Errorf("another account's job: %v", err)
			}
			crm.mu.Lock()
			if len(crm.bodies) != 1 {
				t.Fatalf("%d webhooks posted", len(crm.bodies))
			}
			if err := webhook.Verify(job.Secret, crm.sigs[0], crm.bodies[0], time.Now(), time.Minute); err != nil {
				t.Errorf("signature: %v", err)
			}
			if err := webhook.Verify("whsec_other", crm.sigs[0], crm.bodies[0], time.Now(), time.Minute); err == nil {
				t.Errorf("verified with another secret")
			}
			var posted tenderbase.AnalysisJob
			if err := json.Unmarshal(crm.bodies[0], &posted); err != nil || posted.ID != job.ID || posted.State != tenderbase.JobDone || len(posted.Result) == 0 {
				t.Errorf("posted: %s, %v", crm.bodies[0], err)
			}
			crm.mu.Unlock()
			if n := made(t, st, guru.Account); n != 1 {
				t.Errorf("%d analyses counted, want 1 (the stopped one given back)", n)
			}
			// The same documentation again: done at once, from the store.
			second, err := restarted.CreateJob(t.Context(), guru, docjobs.JobRequest{PurchaseNumbers: []string{auction}})
			if err != nil {
				t.Fatal(err)
			}
			if second.State != tenderbase.JobDone || !bytes.Contains(second.Result, []byte(`"from_store":true`)) {
				t.Errorf("second job: %s %s", second.State, second.Result)
			}
			if n := made(t, st, guru.Account); n != 1 {
				t.Errorf("%d analyses counted after a repeat, want 1", n)
			}
		})
	}
}

// TestTheSetThroughTheStores stores the documentation of every tender of
// the analysis's set (internal/docanalysis/testdata: 40 tenders, the
// answers read by hand) in each store and analyses it through the
// service: each analysis must be the one the extraction makes of the
// files read straight from disk, which TestExtractionAgainstTheSet
// scores against the hand's answers, so that the score holds on both
// stores; and a second request is served from the store unchanged.
func TestTheSetThroughTheStores(t *testing.T) {
	tenders := docjobstest.Tenders(t)
	direct := map[string]docanalysis.Analysis{}
	for _, number := range tenders {
		var files []docanalysis.File
		for _, d := range tenderDocs(t, number) {
			files = append(files, docanalysis.File{Name: d.FileName, Text: d.Text})
		}
		direct[number] = docanalysis.Analyze(files)
	}
	corporate := tenderbase.Key{ID: "k_corp", Account: "a_corp", Plan: tenderbase.PlanCorporate}
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			for _, number := range tenders {
				put(t, st, tenderDocs(t, number))
			}
			var mu sync.Mutex
			var got docanalysis.Analysis
			svc := service(st, func(ctx context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
				a := docanalysis.Analyze(files)
				mu.Lock()
				got = a
				mu.Unlock()
				return a, nil
			})
			for _, number := range tenders {
				first, err := svc.Analyze(t.Context(), corporate, number)
				if err != nil {
					t.Fatalf("%s: %v", number, err)
				}
				mu.Lock()
				a := got
				mu.Unlock()
				// The service says why a file has no text; the answers and
				// the files read are the extraction's own.
				for i := range a.Files {
					a.Files[i].Reason = ""
				}
				if diff := cmp.Diff(direct[number], a); diff != "" {
					t.Errorf("%s: the analysis of the stored documentation differs from that of the files (-files +stored):\n%s", number, diff)
				}
				again, err := svc.Analyze(t.Context(), corporate, number)
				if err != nil {
					t.Fatalf("%s again: %v", number, err)
				}
				if !again.FromStore {
					t.Errorf("%s: the second request was made again, not served from the store", number)
				}
				again.FromStore = false
				if diff := cmp.Diff(first, again); diff != "" {
					t.Errorf("%s: served from the store, the analysis changed (-made +served):\n%s", number, diff)
				}
			}
			if n := made(t, st, corporate.Account); n != len(tenders) {
				t.Errorf("%d analyses counted, want %d, one a tender", n, len(tenders))
			}
		})
	}
}

// proseWriter writes one statement on the quote, or fails with err.
type proseWriter struct {
	quote string
	err   error
}

func (w proseWriter) WriteProse(context.Context, docanalysis.Analysis, []docanalysis.File) (docanalysis.Prose, error) {
	if w.err != nil {
		return docanalysis.Prose{Model: "m", Usage: docanalysis.Usage{PromptTokens: 100}}, w.err
	}
	return docanalysis.Prose{Model: "m", Usage: docanalysis.Usage{PromptTokens: 1000, CompletionTokens: 200, CostMicroUSD: 270},
		Summary: []docanalysis.Statement{{Text: "Обеспечение заявки не нужно.", Quote: w.quote}}}, nil
}

// TestProseDelivered analyses a real tender with a model's prose: the
// answer carries its statements with where their quotes stand, the model
// and the cost, and is stored; when the model fails, the answer has the
// extraction and says so, is not counted, and the next request asks the
// model again.
func TestProseDelivered(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			put(t, st, tenderDocs(t, auction))
			with := func(w docanalysis.ProseWriter) docjobs.Analyzer {
				return func(ctx context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
					return docanalysis.AnalyzeWith(ctx, files, w)
				}
			}
			failing := service(st, with(proseWriter{err: errors.New("the model answered 503")}))
			r, err := failing.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Answers) == 0 || !strings.Contains(r.Prose.Note, "503") || len(r.Summary) != 0 {
				t.Errorf("model failed: %d answers, note %q, summary %v; want the extraction and the failure said", len(r.Answers), r.Prose.Note, r.Summary)
			}
			if n := made(t, st, guru.Account); n != 0 {
				t.Errorf("an analysis whose model failed counted: %d made", n)
			}
			svc := service(st, with(proseWriter{quote: "Обеспечение заявок не требуется"}))
			r, err = svc.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if r.FromStore {
				t.Fatal("the analysis whose model failed was served from the store")
			}
			if len(r.Summary) != 1 || !strings.Contains(r.Summary[0].At, "Печатная форма.pdf") || r.Prose.Model != "m" || r.Prose.CostMicroUSD != 270 || r.Prose.Note != "" {
				t.Errorf("prose: summary %+v, prose %+v", r.Summary, r.Prose)
			}
			again, err := svc.Analyze(t.Context(), guru, auction)
			if err != nil {
				t.Fatal(err)
			}
			if !again.FromStore || len(again.Summary) != 1 || made(t, st, guru.Account) != 1 {
				t.Errorf("repeat: from store %v, summary %+v, %d made", again.FromStore, again.Summary, made(t, st, guru.Account))
			}
		})
	}
}
