package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/doctext"
	"github.com/tenderbase/tenderbase/internal/llm"
)

// tender is the purchase the recorded answers speak of.
const tender = "../docanalysis/testdata/tenders/32615892406"

// step is one recorded answer of the endpoint: a status, headers and the
// body of a file of testdata; hang holds the request until the client
// gives up.
type step struct {
	status int
	file   string
	header map[string]string
	hang   bool
}

// recorder is the endpoint: it answers the steps in order and keeps what
// was asked.
type recorder struct {
	t     *testing.T
	steps []step
	mu    sync.Mutex
	reqs  []*http.Request
	body  []map[string]any
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		rec.t.Errorf("request body is not JSON: %v", err)
	}
	rec.mu.Lock()
	n := len(rec.reqs)
	rec.reqs = append(rec.reqs, r)
	rec.body = append(rec.body, body)
	rec.mu.Unlock()
	if n >= len(rec.steps) {
		rec.t.Errorf("request %d: no answer recorded for it", n+1)
		http.Error(w, "no answer recorded", http.StatusTeapot)
		return
	}
	s := rec.steps[n]
	if s.hang {
		<-r.Context().Done()
		return
	}
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(s.status)
	w.Write(readFile(rec.t, s.file))
}

func (rec *recorder) requests() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readTender returns the files of the tender with their text, as the
// service reads them.
func readTender(t *testing.T) []docanalysis.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(tender, "*.pdf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no documentation in %s: %v", tender, err)
	}
	var files []docanalysis.File
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := doctext.Extract(context.Background(), filepath.Base(p), bytes.NewReader(data), int64(len(data)), doctext.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, docanalysis.File{Name: filepath.Base(p), Text: txt.Text})
	}
	return files
}

// serve starts the endpoint and a client of it; more changes the config.
func serve(t *testing.T, steps []step, more func(*llm.Config)) (*llm.Client, *recorder) {
	t.Helper()
	rec := &recorder{t: t, steps: steps}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	cfg := llm.Config{
		URL: srv.URL + "/v1/", Model: "gpt-4o-mini", Key: "sk-test-key",
		Timeout: 5 * time.Second, RatePerMinute: 6000, Retries: 2,
		Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
		PriceIn: 150_000, PriceOut: 600_000,
	}
	if more != nil {
		more(&cfg)
	}
	c, err := llm.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

const printForm = "zakupki.gov.ru_223_purchase_public_print-form_show.html.pdf"

// wantProse is the prose of completion.json once its quotes are checked.
func wantProse() *docanalysis.Prose {
	at := func(line, page int) docanalysis.Locator {
		return docanalysis.Locator{File: printForm, Paragraph: line, Page: page}
	}
	return &docanalysis.Prose{
		Summary: []docanalysis.Statement{
			{Text: "Закупается автомобиль УАЗ-3163 (Patriot), запрос котировок в электронной форме.",
				Quote: "Наименование закупки: Поставка автомобиля УАЗ-3163 (Patriot)", At: at(4, 1)},
			{Text: "Начальная цена договора — 2 257 500 рублей.",
				Quote: "Начальная (максимальная) цена договора: 2 257 500.00 Российский рубль", At: at(34, 1)},
			{Text: "Ни обеспечения заявки, ни обеспечения исполнения договора вносить не нужно.",
				Quote: "Обеспечение заявки не требуется. Обеспечение исполнения договора не требуется", At: at(38, 1)},
			{Text: "Поставка в Ярославскую область.", Quote: "Место поставки (адрес): Ярославская область", At: at(64, 1)},
		},
		Risks: []docanalysis.Statement{
			{Text: "На подачу заявок восемь дней: с 08.04.2026 до 16.04.2026 09:00.",
				Quote: "Дата и время окончания подачи заявок (по местному времени): 16.04.2026 09:00", At: at(84, 2)},
		},
		Model:   "gpt-4o-mini-2024-07-18",
		Usage:   docanalysis.Usage{PromptTokens: 2954, CompletionTokens: 512, CostMicroUSD: 443 + 307},
		Dropped: 3,
	}
}

func TestWriteProse(t *testing.T) {
	files := readTender(t)
	ok := step{status: 200, file: "completion.json"}
	limited := step{status: 429, file: "rate-limited.json", header: map[string]string{"Retry-After": "1"}}
	failed := step{status: 500, file: "server-error.json"}
	malformed := step{status: 200, file: "completion-malformed.json"}
	repaired := wantProse()
	repaired.Usage = docanalysis.Usage{PromptTokens: 2954 * 2, CompletionTokens: 512 + 131, CostMicroUSD: 886 + 386}
	for _, tt := range []struct {
		name     string
		steps    []step
		more     func(*llm.Config)
		want     *docanalysis.Prose
		note     string
		requests int
	}{
		{name: "answer", steps: []step{ok}, want: wantProse(), requests: 1},
		{name: "429 then answer", steps: []step{limited, ok}, want: wantProse(), requests: 2},
		{name: "500 then answer", steps: []step{failed, ok}, want: wantProse(), requests: 2},
		{name: "429 every time", steps: []step{limited, limited, limited},
			note:     "the summary and the judgement of risks were not written: the model's endpoint answered 429 Too Many Requests (asked 3 times): Rate limit reached for gpt-4o-mini",
			requests: 3},
		{name: "500 every time", steps: []step{failed, failed}, more: func(c *llm.Config) { c.Retries = 1 },
			note:     "the summary and the judgement of risks were not written: the model's endpoint answered 500 Internal Server Error (asked 2 times): The server had an error while processing your request. Sorry about that!",
			requests: 2},
		{name: "no answer in time", steps: []step{{hang: true}},
			more: func(c *llm.Config) { c.Timeout, c.Retries = 50*time.Millisecond, 0 },
			note: "the summary and the judgement of risks were not written: the model did not answer within 50ms", requests: 1},
		{name: "malformed then answer", steps: []step{malformed, ok}, want: repaired, requests: 2},
		{name: "malformed twice", steps: []step{malformed, malformed},
			want: &docanalysis.Prose{Model: "gpt-4o-mini-2024-07-18", Usage: docanalysis.Usage{PromptTokens: 2954 * 2, CompletionTokens: 262, CostMicroUSD: 886 + 157}},
			note: "the summary and the judgement of risks were not written: the model's answer is not the JSON asked for: not JSON: ", requests: 2},
		{name: "response_format refused", steps: []step{{status: 400, file: "response-format-refused.json"}, ok}, want: wantProse(), requests: 2},
		{name: "ollama", steps: []step{{status: 200, file: "completion-ollama.json"}}, more: func(c *llm.Config) { c.PriceIn, c.PriceOut = 0, 0 },
			want: &docanalysis.Prose{
				Summary: wantProse().Summary[:2], Risks: wantProse().Risks, Model: "qwen2.5:14b",
				Usage: docanalysis.Usage{PromptTokens: 3307, CompletionTokens: 298},
			}, requests: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, rec := serve(t, tt.steps, tt.more)
			a, err := docanalysis.AnalyzeWith(context.Background(), files, c)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(docanalysis.Analyze(files).Answers, a.Answers); diff != "" {
				t.Errorf("the extraction changed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, a.Prose); diff != "" {
				t.Errorf("prose (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(a.ProseNote, tt.note) || (tt.note == "") != (a.ProseNote == "") {
				t.Errorf("note %q, want it to begin %q", a.ProseNote, tt.note)
			}
			if got := rec.requests(); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

// TestRequest checks what is asked: the path, the key, the model, JSON
// mode, and the documentation within the budget.
func TestRequest(t *testing.T) {
	files := readTender(t)
	c, rec := serve(t, []step{
		{status: 400, file: "response-format-refused.json"},
		{status: 200, file: "completion-malformed.json"},
		{status: 200, file: "completion.json"},
		{status: 200, file: "completion.json"},
	}, func(c *llm.Config) { c.Budget = llm.MinBudget })
	if _, err := docanalysis.AnalyzeWith(context.Background(), files, c); err != nil {
		t.Fatal(err)
	}
	if _, err := docanalysis.AnalyzeWith(context.Background(), files, c); err != nil {
		t.Fatal(err)
	}
	r := rec.reqs[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		t.Errorf("asked %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer sk-test-key" {
		t.Errorf("Authorization %q", got)
	}
	first := rec.body[0]
	if first["model"] != "gpt-4o-mini" || first["temperature"] != 0.0 {
		t.Errorf("model %v, temperature %v", first["model"], first["temperature"])
	}
	if diff := cmp.Diff(map[string]any{"type": "json_object"}, first["response_format"]); diff != "" {
		t.Errorf("response_format (-want +got):\n%s", diff)
	}
	for i, body := range rec.body[1:] {
		if _, ok := body["response_format"]; ok {
			t.Errorf("request %d: response_format sent again after the endpoint refused it", i+2)
		}
	}
	msgs := first["messages"].([]any)
	user := msgs[1].(map[string]any)["content"].(string)
	if n := utf8.RuneCountInString(user); n > llm.MinBudget {
		t.Errorf("%d characters of documentation sent, more than the budget of %d", n, llm.MinBudget)
	}
	for _, want := range []string{"Обеспечение заявки не требуется.", "- advance: not stated", "=== " + printForm + " ==="} {
		if !strings.Contains(user, want) {
			t.Errorf("the documentation sent lacks %q:\n%s", want, user)
		}
	}
	repair := rec.body[2]["messages"].([]any)
	if len(repair) != 4 || repair[2].(map[string]any)["role"] != "assistant" || !strings.Contains(repair[3].(map[string]any)["content"].(string), "not the JSON object asked for") {
		t.Errorf("the repair request does not send the answer back with what is wrong: %v", repair)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []llm.Config{
		{URL: "", Model: "m"},
		{URL: "ftp://host/v1", Model: "m"},
		{URL: "http://localhost:11434/v1", Model: " "},
		{URL: "http://localhost:11434/v1", Model: "m", Budget: 100},
		{URL: "http://localhost:11434/v1", Model: "m", Retries: -1},
	} {
		if _, err := llm.New(cfg, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

func TestParsePrice(t *testing.T) {
	for in, want := range map[string]int64{"0.15": 150_000, "2.5": 2_500_000, "$10": 10_000_000, "0.000001": 1, "0": 0, ".6": 600_000} {
		got, err := llm.ParsePrice(in)
		if err != nil || got != want {
			t.Errorf("ParsePrice(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "0.0000001", "abc", "1.2.3", "+1", "99999999999999"} {
		if got, err := llm.ParsePrice(in); err == nil {
			t.Errorf("ParsePrice(%q) = %d, want an error", in, got)
		}
	}
}

func TestCost(t *testing.T) {
	for _, tt := range []struct {
		tokens int
		price  int64
		want   int64
	}{
		{2954, 150_000, 443}, // 443.1
		{512, 600_000, 307},  // 307.2
		{1, 500_000, 1},      // 0.5, rounded up
		{1, 499_999, 0},
		{1_000_000, 2_500_000, 2_500_000},
	} {
		if got := llm.Cost(tt.tokens, tt.price); got != tt.want {
			t.Errorf("Cost(%d, %d) = %d, want %d", tt.tokens, tt.price, got, tt.want)
		}
	}
}
