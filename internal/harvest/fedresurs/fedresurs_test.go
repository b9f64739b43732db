package fedresurs

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/fedresurs/fedresurstest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/efrsb"
)

const fixtures = "../../source/efrsb/testdata/"

const (
	login    = "tenderbase"
	password = "s3cret-Passw0rd"
)

// day is the day the recorded service publishes, in Moscow.
var day = time.Date(2026, 11, 20, 0, 0, 0, 0, moscow)

// scope is that one whole day.
var scope = harvest.Scope{Since: day, Until: day.AddDate(0, 0, 1)}

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(1, 4)

// pageSize is small, for a day to take several pages.
const pageSize = 2

// dayOfMessages returns a service publishing a day of the messages of one
// auction, made of the importer's fixtures: the announcement, its change,
// its result, an annulment and a cancellation (three pages of two), a
// platform's invitation, and messages that are not to be fetched.
func dayOfMessages(t *testing.T) *fedresurstest.Service {
	s := fedresurstest.New(t, login, password)
	page := pageItems(t)
	s.Add("messages",
		message("983185", "Auction", "2026-11-20T09:00:00.250", fixture(t, "auction-message.xml")),
		published(page["983190"], "2026-11-20T10:00:00"),
		published(page["1002417"], "2026-11-20T11:00:00"),
		published(page["1003001"], "2026-11-20T12:00:00"),
		message("1004100", "CancelAuctionTradeResult", "2026-11-20T13:00:00", fixture(t, "cancel-result.xml")),
		// Not a trade message: its type is not asked for.
		published(page["1003002"], "2026-11-20T14:00:00"),
		// The next day's, just after midnight.
		message("1009999", "CancelAuctionTradeResult", "2026-11-21T00:00:00.500", fixture(t, "cancel-result.xml")),
	)
	s.Add("trade-messages", message("77001", "BiddingInvitation", "2026-11-20T15:00:00", fixture(t, "bidding-invitation.xml")))
	return s
}

// wantKeys are the records a day of messages holds, by kind.
var wantKeys = map[tenderbase.Kind][]string{
	tenderbase.KindLot:      {"efrsb-983185_1", "efrsb-983185_2"},
	tenderbase.KindLotEvent: {"efrsb-1003001", "efrsb-1004100"},
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(fixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pageItems returns the messages of the importer's page fixture, by number.
func pageItems(t *testing.T) map[string]fedresurstest.Message {
	t.Helper()
	var page struct{ PageData []fedresurstest.Message }
	if err := json.Unmarshal([]byte(fixture(t, "messages-page.json")), &page); err != nil {
		t.Fatal(err)
	}
	items := map[string]fedresurstest.Message{}
	for _, m := range page.PageData {
		items[m.Number] = m
	}
	return items
}

func message(number, typ, at, content string) fedresurstest.Message {
	return fedresurstest.Message{GUID: "0f0e0d0c0b0a49088706" + number, Number: number, DatePublish: at, Type: typ, Content: content}
}

func published(m fedresurstest.Message, at string) fedresurstest.Message {
	m.DatePublish = at
	return m
}

// decoders read what the service publishes.
var decoders = []importer.Decoder{efrsb.Format{}}

// rig is a runner over a store of its own, and what it logged.
type rig struct {
	*harvesttest.Rig
	log *lockedBuffer
}

// eachStore runs test on a fresh SQLite store and a fresh PostgreSQL one.
func eachStore(t *testing.T, test func(t *testing.T, r *rig)) {
	harvesttest.EachStore(t, decoders, func(t *testing.T, r *harvesttest.Rig) { test(t, logged(r)) })
}

// sqliteRig returns a rig on a fresh SQLite store only.
func sqliteRig(t *testing.T) *rig {
	return logged(harvesttest.NewRig(t, "sqlite", filepath.Join(t.TempDir(), "store.db"), decoders))
}

// logged makes r log everything, for checkSecrets to read.
func logged(r *harvesttest.Rig) *rig {
	log := &lockedBuffer{}
	r.Runner.Logger = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return &rig{Rig: r, log: log}
}

// source returns the source asking s with the given password, and checks
// when the test ends that what was logged and recorded holds neither the
// password nor a token, and that no request asked more than a day.
func (r *rig) source(t *testing.T, s *fedresurstest.Service, password string) *Source {
	t.Cleanup(func() { r.checkSecrets(t, s, password); checkWindows(t, s) })
	return New(Config{BaseURL: s.URL(), Login: login, Password: password, PageSize: pageSize, Fetch: quick}, r.Runner.Logger)
}

func (r *rig) checkSecrets(t *testing.T, s *fedresurstest.Service, password string) {
	t.Helper()
	states, _ := r.Store.SyncStates(context.Background())
	said := r.log.String()
	for _, st := range states {
		said += st.LastError + st.LastRejection
	}
	if password != "" && strings.Contains(said, password) {
		t.Errorf("the log or the status shows the password")
	}
	for i, jwt := range s.Issued() {
		if strings.Contains(said, jwt) {
			t.Errorf("the log or the status shows token %d", i+1)
		}
	}
}

// checkWindows fails unless every request asked for at most one day, from
// a Moscow midnight.
func checkWindows(t *testing.T, s *fedresurstest.Service) {
	t.Helper()
	for _, q := range s.Requests() {
		if q.End.Sub(q.Begin) > 24*time.Hour || !q.Begin.Equal(midnight(q.Begin)) || q.End.Before(q.Begin) {
			t.Errorf("request for %s from %s to %s: want at most a day from midnight", q.Feed, q.Begin, q.End)
		}
	}
}

// checkStore fails unless the store holds the day's records, each once,
// and not the next day's.
func (r *rig) checkStore(t *testing.T) {
	t.Helper()
	r.CheckRecords(t, wantKeys)
	if _, err := r.Store.Get(context.Background(), tenderbase.KindLotEvent, "efrsb-1009999"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("the next day's message was stored: %v", err)
	}
}

// records returns the day's records as stored.
func (r *rig) records(t *testing.T) map[string]tenderbase.Record {
	t.Helper()
	out := map[string]tenderbase.Record{}
	for kind, keys := range wantKeys {
		for _, key := range keys {
			rec, err := r.Store.Get(context.Background(), kind, key)
			if err != nil {
				t.Fatal(err)
			}
			out[key] = rec
		}
	}
	return out
}

func TestSyncDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		r.checkStore(t)
		st := r.State(t)
		if st.Partitions != 2 || st.Files != 4 || st.LastError != "" || st.LastSuccess.IsZero() || st.Rejected != 0 || st.Inserted != 4 {
			t.Errorf("state %+v, want 2 partitions, 4 pages, 4 records inserted, none rejected, a success", st)
		}
		if !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
		var asked []string
		for _, q := range s.Requests() {
			asked = append(asked, q.Feed+" "+q.Begin.Format(timeLayout)+" "+q.End.Format(timeLayout)+" "+strings.Join(q.Types, ","))
			if q.Limit != pageSize {
				t.Errorf("limit %d, want %d", q.Limit, pageSize)
			}
		}
		types := strings.Join(DefaultFeeds[0].Types, ",")
		want := []string{
			"messages 2026-11-20T00:00:00 2026-11-21T00:00:00 " + types,
			"messages 2026-11-20T00:00:00 2026-11-21T00:00:00 " + types,
			"messages 2026-11-20T00:00:00 2026-11-21T00:00:00 " + types,
			"trade-messages 2026-11-20T00:00:00 2026-11-21T00:00:00 BiddingInvitation",
		}
		if diff := cmp.Diff(want, asked); diff != "" {
			t.Errorf("requests (-want +got):\n%s", diff)
		}
		if got := offsets(s, "messages"); !slices.Equal(got, []int{0, 2, 4}) {
			t.Errorf("offsets %v, want 0 2 4", got)
		}
		if s.Logins() != 1 {
			t.Errorf("%d logins, want 1", s.Logins())
		}
		// The invitation merged into the announcement's lot.
		lot, err := r.Store.Get(context.Background(), tenderbase.KindLot, "efrsb-983185_1")
		if err != nil || lot.(*tenderbase.Lot).TradeNumber != "РАД-98765" {
			t.Errorf("lot 1: %+v, %v; want the platform's trade number", lot, err)
		}
		// A second run asks for nothing: the day is completed.
		asked0 := len(s.Requests())
		if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		if n := len(s.Requests()) - asked0; n != 0 {
			t.Errorf("a second run sent %d requests, want 0", n)
		}
	})
}

func offsets(s *fedresurstest.Service, feed string) []int {
	var out []int
	for _, q := range s.Requests() {
		if q.Feed == feed {
			out = append(out, q.Offset)
		}
	}
	return out
}

// TestSyncEmptyDay: a day without messages is one request a feed, and
// completed.
func TestSyncEmptyDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		before := harvest.Scope{Since: day.AddDate(0, 0, -1), Until: day}
		if err := r.Runner.Run(context.Background(), before, []harvest.Source{r.source(t, s, password)}); err != nil {
			t.Fatal(err)
		}
		st := r.State(t)
		if st.Partitions != 2 || st.Files != 0 || !st.Through.Equal(day) || len(s.Requests()) != 2 {
			t.Errorf("state %+v after %d requests, want 2 partitions and no file from 2 requests", st, len(s.Requests()))
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		s.Add("messages", message("1005000", "Auction", "2026-11-20T16:00:00", `<MessageData><MessageInfo MessageType="Auction"><Auction><LotTable>`))
		s.Inject(
			fault("auth", harvesttest.Status(502)),
			fault("messages/2026-11-20/0", harvesttest.Status(503)),
			fault("messages/2026-11-20/2", harvesttest.Slow),
			fault("messages/2026-11-20/4", cutJSON),
			fault("messages/2026-11-20/4", harvesttest.Truncated(`{"total": 7, "pageData": [`)),
			fault("trade-messages/2026-11-20/0", harvesttest.Status(500)),
		)
		if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		r.checkStore(t)
		st := r.State(t)
		if st.Partitions != 2 || st.LastError != "" || st.Rejected != 1 || st.Files != 4 {
			t.Errorf("state %+v, want 2 partitions, 4 pages, no error, 1 rejected", st)
		}
		if !strings.Contains(st.LastRejection, "fedresurs-messages-2026-11-20-4.json") || !strings.Contains(st.LastRejection, `"1005000" does not parse`) {
			t.Errorf("last rejection %q does not name the page and the malformed message", st.LastRejection)
		}
		if !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
	})
}

func TestSyncExpiredToken(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		// The token expires before the second page.
		s.Inject(fault("messages/2026-11-20/2", func(w http.ResponseWriter, _ *http.Request) {
			s.Revoke()
			w.WriteHeader(http.StatusUnauthorized)
		}))
		if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		r.checkStore(t)
		if s.Logins() != 2 || s.Refused() != 0 {
			t.Errorf("%d logins and %d requests refused after, want 2 logins, none refused", s.Logins(), s.Refused())
		}
		if got := offsets(s, "messages"); !slices.Equal(got, []int{0, 2, 2, 4}) {
			t.Errorf("offsets %v, want 0 2 2 4: the refused page asked again", got)
		}
	})
}

// TestTokenRenewedBeforeExpiry: a token about to expire by its exp claim
// is replaced before a request, not after a refusal.
func TestTokenRenewedBeforeExpiry(t *testing.T) {
	r := sqliteRig(t)
	s := dayOfMessages(t)
	src := r.source(t, s, password)
	var ahead atomic.Int64
	src.session.now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	// Half a day passes while the second page is asked.
	s.Inject(fault("messages/2026-11-20/2", func(w http.ResponseWriter, _ *http.Request) {
		ahead.Store(int64(s.TTL - time.Minute))
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	if err := r.Run(t, scope, src); err != nil {
		t.Fatal(err)
	}
	if s.Logins() != 2 || s.Refused() != 0 {
		t.Errorf("%d logins, %d refused; want 2 logins and none refused", s.Logins(), s.Refused())
	}
}

func TestSyncFreshTokenRefused(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		s.Inject(fault("messages/2026-11-20/2", harvesttest.Status(401)), fault("messages/2026-11-20/2", harvesttest.Status(401)))
		err := r.Run(t, scope, r.source(t, s, password))
		if !errors.Is(err, ErrLogin) {
			t.Fatalf("run: %v, want ErrLogin", err)
		}
		st := r.State(t)
		if !strings.Contains(st.LastError, "refused a token it had just issued") || st.Partitions != 0 {
			t.Errorf("state %+v, want the refusal and nothing completed", st)
		}
		if s.Logins() != 2 || len(s.Requests()) != 3 {
			t.Errorf("%d logins, %d requests; want 2 and 3: the walk stops", s.Logins(), len(s.Requests()))
		}
	})
}

func TestSyncRefusedLogin(t *testing.T) {
	for _, tt := range []struct {
		name, login, password, want string
		logins                      int
	}{
		{"unknown user", "nobody", password, "error 2000: Пользователь не найден", 1},
		{"wrong password", login, "wrong-password", "401: wrong login or password", 1},
		{"account blocked", login, password, "error 2002: Пользователь заблокирован", 1},
		{"no password", login, "", "no login or password given", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eachStore(t, func(t *testing.T, r *rig) {
				s := dayOfMessages(t)
				if tt.name == "account blocked" {
					s.Inject(fault("auth", func(w http.ResponseWriter, _ *http.Request) {
						fedresurstest.Refuse(w, 2002, "Пользователь заблокирован")
					}))
				}
				src := r.source(t, s, tt.password)
				src.session.login = tt.login
				err := r.Run(t, scope, src)
				if !errors.Is(err, ErrLogin) {
					t.Fatalf("run: %v, want ErrLogin", err)
				}
				st := r.State(t)
				if !strings.Contains(st.LastError, tt.want) || st.Partitions != 0 {
					t.Errorf("state %+v, want %q and nothing completed", st, tt.want)
				}
				if s.Logins() != tt.logins || len(s.Requests()) != 0 {
					t.Errorf("%d logins, %d requests; want %d and none", s.Logins(), len(s.Requests()), tt.logins)
				}
			})
		})
	}
}

func TestSyncResumesAfterInterruption(t *testing.T) {
	want := reference(t)
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		ctx, cancel := context.WithCancel(context.Background())
		// The second page hangs until the run is interrupted.
		s.Inject(fault("messages/2026-11-20/2", func(w http.ResponseWriter, req *http.Request) {
			cancel()
			<-req.Context().Done()
		}))
		err := r.Runner.Run(ctx, scope, []harvest.Source{r.source(t, s, password)})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		if st := r.State(t); st.LastError != "interrupted" || st.Partitions != 0 || st.Files != 1 || !st.Through.IsZero() {
			t.Errorf("state %+v, want interrupted after the first page, nothing completed", st)
		}
		if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		r.checkStore(t)
		st := r.State(t)
		if st.Partitions != 2 || st.Inserted != 4 || !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want 2 partitions completed over both runs, 4 records inserted", st)
		}
		// The first page, fetched twice, changed nothing the second time.
		if diff := cmp.Diff(want, r.records(t)); diff != "" {
			t.Errorf("records after a resumed run differ from those of a run without a stop (-want +got):\n%s", diff)
		}
		if got := offsets(s, "messages"); !slices.Equal(got, []int{0, 2, 0, 2, 4}) {
			t.Errorf("offsets %v, want 0 2, then the day again: 0 2 4", got)
		}
	})
}

// reference returns the day's records as a run without faults stores them.
func reference(t *testing.T) map[string]tenderbase.Record {
	r := sqliteRig(t)
	s := dayOfMessages(t)
	if err := r.Run(t, scope, r.source(t, s, password)); err != nil {
		t.Fatal(err)
	}
	return r.records(t)
}

func TestSyncRefusedRequest(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		s.Inject(fault("messages/2026-11-20/0", func(w http.ResponseWriter, _ *http.Request) {
			fedresurstest.Refuse(w, 1010, "Разница между datePublishEnd и datePublishBegin не может быть больше 31 дня")
		}))
		err := r.Run(t, scope, r.source(t, s, password))
		if err == nil || !strings.Contains(err.Error(), "error 1010") {
			t.Fatalf("run: %v, want error 1010", err)
		}
		if st := r.State(t); !strings.Contains(st.LastError, "error 1010: Разница") || st.Partitions != 0 {
			t.Errorf("state %+v, want error 1010 and nothing completed", st)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want 1: a refusal is not asked again, and stops the walk", n)
		}
	})
}

func TestSyncToday(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		s.Add("messages",
			message("1006001", "CancelAuctionTradeResult", "2026-11-21T03:00:00", fixture(t, "cancel-result.xml")),
			message("1006002", "CancelAuctionTradeResult", "2026-11-21T06:00:00", fixture(t, "cancel-result.xml")),
		)
		now := day.AddDate(0, 0, 1).Add(5*time.Hour + 30*time.Minute)
		r.Runner.Now = func() time.Time { return now }
		run := func() {
			t.Helper()
			if err := r.Runner.Run(context.Background(), harvest.Scope{Since: day}, []harvest.Source{r.source(t, s, password)}); err != nil {
				t.Fatal(err)
			}
		}
		run()
		st := r.State(t)
		if st.Partitions != 2 || !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want the day completed and today not", st)
		}
		if !r.has(t, "efrsb-1006001") || r.has(t, "efrsb-1006002") {
			t.Errorf("today's message of 03:00 should be stored, that of 06:00 not yet")
		}
		// An hour later, today is asked again, whole; the day before not.
		asked := len(s.Requests())
		now = now.Add(time.Hour)
		run()
		var again []string
		for _, q := range s.Requests()[asked:] {
			again = append(again, q.Feed+" "+q.Begin.Format(timeLayout)+" "+q.End.Format(timeLayout))
		}
		// Three messages since midnight: two pages.
		want := []string{"messages 2026-11-21T00:00:00 2026-11-21T06:30:00", "messages 2026-11-21T00:00:00 2026-11-21T06:30:00",
			"trade-messages 2026-11-21T00:00:00 2026-11-21T06:30:00"}
		if diff := cmp.Diff(want, again); diff != "" {
			t.Errorf("requests of the second run (-want +got):\n%s", diff)
		}
		if !r.has(t, "efrsb-1006002") {
			t.Errorf("today's message of 06:00 is not stored after the second run")
		}
		if st := r.State(t); st.Partitions != 2 || !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want today still not completed", st)
		}
	})
}

func (r *rig) has(t *testing.T, event string) bool {
	t.Helper()
	_, err := r.Store.Get(context.Background(), tenderbase.KindLotEvent, event)
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Fatal(err)
	}
	return err == nil
}

func TestPartitions(t *testing.T) {
	since := day.AddDate(0, 0, -40).Add(15 * time.Hour)
	until := day.Add(5*time.Hour + 30*time.Minute + 17*time.Second + 500*time.Millisecond)
	parts := partitions(DefaultFeeds, since, until)
	if len(parts) != 41*2 {
		t.Fatalf("%d partitions, want 41 days of 2 feeds", len(parts))
	}
	for i, p := range parts {
		whole := i < 40*2
		if p.end.Sub(p.begin) > 24*time.Hour || !p.begin.Equal(midnight(p.begin)) || p.whole != whole {
			t.Errorf("partition %s from %s to %s, whole %v", p.name(), p.begin, p.end, p.whole)
		}
	}
	if first, last := parts[0], parts[len(parts)-1]; first.name() != "messages/2026-10-11" || last.name() != "trade-messages/2026-11-20" ||
		!last.end.Equal(day.Add(5*time.Hour+30*time.Minute+17*time.Second)) {
		t.Errorf("first %s, last %s up to %s", first.name(), last.name(), last.end)
	}
	if n := len(partitions(DefaultFeeds, day, day)); n != 0 {
		t.Errorf("%d partitions of an empty scope", n)
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, jwt    string
		exp, renewAt time.Time
	}{
		{"twelve hours", token(`{"exp":1795208400}`), time.Unix(1795208400, 0), time.Unix(1795208400, 0).Add(-5 * time.Minute)},
		{"a minute", token(`{"exp":` + unix(now.Add(time.Minute)) + `}`), now.Add(time.Minute), now.Add(54 * time.Second)},
		{"past already", token(`{"exp":` + unix(now.Add(-time.Minute)) + `}`), now.Add(-time.Minute), time.Time{}},
		{"no exp", token(`{"sub":"x"}`), time.Time{}, time.Time{}},
		{"not a JWT", "opaque-token", time.Time{}, time.Time{}},
		{"garbled claims", "a.!!!.c", time.Time{}, time.Time{}},
	} {
		exp := expiry(tt.jwt)
		if !exp.Equal(tt.exp) || !renewal(exp, now).Equal(tt.renewAt) {
			t.Errorf("%s: expiry %s, renewal %s; want %s, %s", tt.name, exp, renewal(exp, now), tt.exp, tt.renewAt)
		}
	}
}

func token(claims string) string {
	return "eyJhbGciOiJIUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(claims)) + ".c2ln"
}

func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// cutJSON answers a page cut short: whole as HTTP, not as JSON.
func cutJSON(w http.ResponseWriter, _ *http.Request) {
	io.WriteString(w, `{"total": 7, "pageData": [{"guid": "1", "number": "1", "type": "Auction", "content": "<MessageData>`)
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) fedresurstest.Fault {
	return fedresurstest.Fault{Prefix: prefix, Do: do}
}

// lockedBuffer is a log that several goroutines write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A day whose list fails every attempt is set aside: the data is current
// past it, and a later run whose walk no longer holds it tries it again.
func TestSyncFailingDayIsSetAside(t *testing.T) {
	eachStore(t, func(t *testing.T, r *rig) {
		s := dayOfMessages(t)
		down := fault("trade-messages/2026-11-20/0", harvesttest.Status(500))
		s.Inject(down, down, down, down) // every attempt of one run
		err := r.Run(t, scope, r.source(t, s, password))
		if err == nil || !strings.Contains(err.Error(), "1 of 2 partitions failed, set aside") {
			t.Fatalf("run: %v, want one partition set aside", err)
		}
		st := r.State(t)
		if st.SetAside != 1 || !strings.HasPrefix(st.LastSetAside, "trade-messages/2026-11-20: ") || !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want the day's trade messages set aside, and the data current past them", st)
		}
		next := harvest.Scope{Since: day.AddDate(0, 0, 1), Until: day.AddDate(0, 0, 2)}
		if err := r.Run(t, next, r.source(t, s, password)); err != nil {
			t.Fatal(err)
		}
		// The platform's invitation, of the day set aside, is in.
		lot, err := r.Store.Get(context.Background(), tenderbase.KindLot, "efrsb-983185_1")
		if err != nil || lot.(*tenderbase.Lot).TradeNumber != "РАД-98765" {
			t.Errorf("lot 1: %+v, %v; want the platform's trade number", lot, err)
		}
		if st := r.State(t); st.SetAside != 0 || st.Partitions != 4 {
			t.Errorf("state %+v, want the partition set aside mended and 4 completed", st)
		}
	})
}
