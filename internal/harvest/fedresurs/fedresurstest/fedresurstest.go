// Package fedresurstest is a recorded fedresurs EFRSB REST service (v1) for
// tests: it logs in, issues JWTs and answers pages of messages in the shapes
// a public client of the service shows (NovikovRoman/efrsb), refusing what
// the service refuses (error 1000 to 1010), and lets a test inject faults.
package fedresurstest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// moscow is the zone of the service's times, which carry none.
var moscow = time.FixedZone("MSK", 3*60*60)

// timeLayout is how the service's parameters and answers write a time.
const timeLayout = "2006-01-02T15:04:05"

// Message is an item of a page, as the service gives it with
// includeContent=true.
type Message struct {
	GUID        string `json:"guid"`
	Number      string `json:"number"`
	DatePublish string `json:"datePublish"` // Moscow time without a zone: "2026-11-20T09:00:00.123"
	Type        string `json:"type"`
	Content     string `json:"content,omitempty"`
}

// Request is a request for a page, as the service read it.
type Request struct {
	Feed          string // "messages", "trade-messages"
	Begin, End    time.Time
	Offset, Limit int
	Types         []string
}

// Fault is what the service does instead of answering, once, to the first
// request whose key starts with Prefix: "auth" for a login, or
// "FEED/DAY/OFFSET" for a page ("messages/2026-11-20/2", DAY being that
// of datePublishBegin).
type Fault = harvesttest.Fault

// Service is a recorded fedresurs service.
type Service struct {
	t               *testing.T
	Server          *httptest.Server
	login, password string
	// TTL is the lifetime of the tokens it issues.
	TTL time.Duration

	faults harvesttest.Faults

	mu       sync.Mutex
	messages map[string][]Message // by feed
	valid    map[string]bool      // tokens issued and not revoked
	issued   []string
	logins   int
	requests []Request
	refused  int // requests answered 401
}

// New returns a service that takes login and password, closed when the
// test ends.
func New(t *testing.T, login, password string) *Service {
	s := &Service{t: t, login: login, password: password, TTL: 12 * time.Hour,
		messages: map[string][]Message{}, valid: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/auth", s.auth)
	mux.HandleFunc("GET /v1/messages", s.list("messages"))
	mux.HandleFunc("GET /v1/trade-messages", s.list("trade-messages"))
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// URL returns the service's base address, as BaseURL takes it.
func (s *Service) URL() string { return s.Server.URL }

// Add publishes messages in feed.
func (s *Service) Add(feed string, m ...Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages[feed] = append(s.messages[feed], m...)
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

// Revoke makes the service refuse every token issued so far, as it does
// an expired one: 401.
func (s *Service) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.valid)
}

// Logins counts the requests to /v1/auth.
func (s *Service) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

// Requests returns the requests for pages that the service read, faults
// and refusals included.
func (s *Service) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Refused counts the requests for pages answered 401.
func (s *Service) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Issued returns the tokens the service issued.
func (s *Service) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.issued)
}

func (s *Service) auth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.logins++
	s.mu.Unlock()
	if f := s.faults.Take("auth"); f != nil {
		f(w, r)
		return
	}
	var in struct{ Login, Password string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || r.Header.Get("Content-Type") != "application/json" {
		Refuse(w, 1000, "Не заполнен обязательный параметр запроса - login")
		return
	}
	switch {
	case in.Login != s.login:
		Refuse(w, 2000, "Пользователь не найден")
		return
	case in.Password != s.password:
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	token := s.issue(in.Login)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"jwt": token})
}

// issue makes a token that expires after TTL, signed with nothing.
func (s *Service) issue(login string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]any{"sub": login, "jti": len(s.issued) + 1, "exp": time.Now().Add(s.TTL).Unix()})
	token := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(claims) + "." + enc.EncodeToString([]byte("signature"))
	s.issued = append(s.issued, token)
	s.valid[token] = true
	return token
}

// Refuse answers 400 with the service's error JSON.
func Refuse(w http.ResponseWriter, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]any{"code": code, "message": message})
}

// list answers a request for a page of feed.
func (s *Service) list(feed string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		req, code, why := s.read(feed, q)
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		key := fmt.Sprintf("%s/%s/%s", feed, strings.Split(q.Get("datePublishBegin"), "T")[0], q.Get("offset"))
		if f := s.faults.Take(key); f != nil {
			f(w, r)
			return
		}
		if !s.authorized(r) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if code != 0 {
			Refuse(w, code, why)
			return
		}
		total, items := s.page(req, q.Get("includeContent") == "true")
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"total": total, "pageData": items})
	}
}

func (s *Service) authorized(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok || !s.valid[token] {
		s.refused++
		return false
	}
	return true
}

// read reads the parameters of a request for a page, and the error the
// service answers to them, if any.
func (s *Service) read(feed string, q map[string][]string) (Request, int, string) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	req := Request{Feed: feed}
	if t := get("type"); t != "" {
		req.Types = strings.Split(t, ",")
	}
	var err1, err2 error
	req.Begin, err1 = time.ParseInLocation(timeLayout, get("datePublishBegin"), moscow)
	req.End, err2 = time.ParseInLocation(timeLayout, get("datePublishEnd"), moscow)
	offset, err3 := strconv.Atoi(get("offset"))
	limit, err4 := strconv.Atoi(get("limit"))
	req.Offset, req.Limit = offset, limit
	switch {
	case get("datePublishBegin") == "" || get("datePublishEnd") == "":
		return req, 1000, "Не заполнен обязательный параметр запроса - datePublishBegin и datePublishEnd"
	case err1 != nil || err2 != nil || err3 != nil || err4 != nil || offset < 0 || limit < 1 || req.End.Before(req.Begin):
		return req, 1002, "В параметре указано некорректное значение"
	case limit > 500:
		return req, 1009, "Превышен лимит запроса - 500"
	case req.End.Sub(req.Begin) > 31*24*time.Hour:
		return req, 1010, "Разница между datePublishEnd и datePublishBegin не может быть больше 31 дня"
	case get("sort") != "" && get("sort") != "asc" && get("sort") != "desc":
		return req, 1002, "В параметре sort указано некорректное значение"
	}
	for _, t := range req.Types {
		if !knownTypes[feed][t] {
			return req, 1001, "Не найден код параметра type: " + t
		}
	}
	return req, 0, ""
}

// knownTypes are the type codes the service knows, by feed: the ones a
// public client lists (NovikovRoman/efrsb consts.go) that tests may ask for.
var knownTypes = map[string]map[string]bool{
	"messages": set("Auction", "Auction2", "ChangeAuction", "ChangeAuction2", "TradeResult", "CancelAuctionTradeResult",
		"Annul", "ArbitralDecree", "Meeting", "MeetingResult", "Other", "SaleContractResult", "SaleContractResult2"),
	"trade-messages": set("BiddingInvitation", "BiddingDeclaration", "BiddingResult", "BiddingCancel", "BiddingFail", "Annulment"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// page returns the messages of req, oldest first, and how many match in all.
// Both ends of the period are taken.
func (s *Service) page(req Request, content bool) (int, []Message) {
	s.mu.Lock()
	var match []Message
	for _, m := range s.messages[req.Feed] {
		at := published(s.t, m)
		if at.Before(req.Begin) || at.After(req.End) || (len(req.Types) > 0 && !slices.Contains(req.Types, m.Type)) {
			continue
		}
		match = append(match, m)
	}
	s.mu.Unlock()
	slices.SortStableFunc(match, func(a, b Message) int { return published(s.t, a).Compare(published(s.t, b)) })
	total := len(match)
	match = append([]Message{}, match[min(req.Offset, total):min(req.Offset+req.Limit, total)]...)
	if !content {
		for i := range match {
			match[i].Content = ""
		}
	}
	return total, match
}

func published(t *testing.T, m Message) time.Time {
	at, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", m.DatePublish, moscow)
	if err != nil {
		t.Errorf("message %s: datePublish %q: %v", m.Number, m.DatePublish, err)
	}
	return at
}
