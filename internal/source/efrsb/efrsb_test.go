package efrsb

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

var _ importer.Decoder = Format{}

// decodeFile decodes a fixture into its lots and its refusals; it fails
// on an event.
func decodeFile(t *testing.T, name string) ([]*tenderbase.Lot, []error) {
	t.Helper()
	lots, events, errs := decodeEvents(t, name)
	if len(events) > 0 {
		t.Fatalf("%s: %d lot events", name, len(events))
	}
	return lots, errs
}

// decodeEvents decodes a fixture into its lots, its lot events and its
// refusals.
func decodeEvents(t *testing.T, name string) ([]*tenderbase.Lot, []*tenderbase.LotEvent, []error) {
	t.Helper()
	recs, errs := sourcetest.DecodeFile(t, Format{}, filepath.Join("testdata", name))
	var events []*tenderbase.LotEvent
	recs = slices.DeleteFunc(recs, func(r tenderbase.Record) bool {
		e, ok := r.(*tenderbase.LotEvent)
		if ok {
			events = append(events, e)
		}
		return ok
	})
	return sourcetest.Lots(t, recs), events, errs
}

func msk(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02T15:04:05", s, tenderbase.Moscow)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var (
	debtor = tenderbase.Party{INN: "2901163485", OGRN: "1072901012345", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ПОМОРТОРГ"`,
		Address: "163000, АРХАНГЕЛЬСКАЯ ОБЛ, ГОРОД АРХАНГЕЛЬСК, ПРОСПЕКТ ТРОИЦКИЙ, ДОМ 52"}
	manager = tenderbase.Party{INN: "290121446610", Name: "Кузнецов Андрей Викторович", Address: "163000, г. Архангельск, а/я 117"}
)

func TestAuction(t *testing.T) {
	lots, errs := decodeFile(t, "auction-message.xml")
	if len(errs) > 0 || len(lots) != 2 {
		t.Fatalf("%d lots, errors %v", len(lots), errs)
	}
	m := manager
	m.Contact.Email = "kuznetsov.au@example.ru"
	want := &tenderbase.Lot{
		ID: "efrsb-983185_2", Source: "fedresurs", NoticeNumber: "983185", LotNumber: 2,
		Title:       "Автотопливозаправщик АТЗ-5633, 2012 года выпуска, оранжевый",
		Description: "Автотопливозаправщик АТЗ-5633, 2012 года выпуска, оранжевый",
		Category:    "Автомобили", CategoryCode: "0106008", BiddingType: "bankruptcy", BiddingForm: "Открытый аукцион",
		Status: "active", Region: 29, StartPrice: 1600000, Deposit: 160000, PriceStep: 80000, Currency: "RUB",
		Debtor: debtor, Manager: m, CaseNumber: "А05-11728/2014", Platform: "Российский аукционный дом",
		PublishedAt:  time.Date(2016, 3, 25, 10, 20, 52, 510_000_000, tenderbase.Moscow),
		BiddingStart: msk(t, "2016-03-28T10:00:00"), BiddingEnd: msk(t, "2016-05-04T10:00:00"), AuctionDate: msk(t, "2016-05-05T11:00:00"),
		TermsAt: time.Date(2016, 3, 25, 10, 20, 52, 510_000_000, tenderbase.Moscow),
		URL:     "https://fedresurs.ru/bankruptmessages/49c9c91deb4d878922a4b92828d7ec6a",
	}
	if diff := cmp.Diff(want, lots[1]); diff != "" {
		t.Errorf("lot 2 (-want +got):\n%s", diff)
	}
	if l := lots[0]; l.PriceStep != 0 || l.Deposit != 146468.29 || l.ID != "efrsb-983185_1" {
		t.Errorf("lot 1: %s step %v deposit %v; want no step (nil) and 10%% deposit", l.ID, l.PriceStep, l.Deposit)
	}
}

// TestPageAndMerge reads a page of the REST service and merges its
// documents with the auction the way a store does: the change moves the
// dates of lot 1, the result closes both lots, and the platform's
// invitation adds the organizer and the trade's number.
func TestPageAndMerge(t *testing.T) {
	auction, _ := decodeFile(t, "auction-message.xml")
	page, events, errs := decodeEvents(t, "messages-page.json")
	if len(page) != 3 {
		t.Fatalf("%d lots from the page, want 1 changed and 2 results", len(page))
	}
	wantAnnul := []*tenderbase.LotEvent{{
		ID: "efrsb-1003001", Source: "fedresurs", Type: "annulment", Document: "Annul", Number: "1003001", Message: "983190",
		PublishedAt: time.Date(2016, 5, 14, 10, 0, 0, 0, tenderbase.Moscow), Reason: "Сообщение опубликовано ошибочно.",
		URL: "https://fedresurs.ru/bankruptmessages/8a9b0c1d2e3f40518293a4b5c6d7e8f9",
	}}
	if diff := cmp.Diff(wantAnnul, events); diff != "" {
		t.Errorf("events of the page (-want +got):\n%s", diff)
	}
	var said []string
	for _, err := range errs {
		said = append(said, err.Error())
	}
	for _, want := range []string{
		`message "1003002" is of type ArbitralDecree, not an auction`,
		`message "1003003" (TradeResult) has no content: ask the service with includeContent=true`,
	} {
		if !strings.Contains(strings.Join(said, "\n"), want) {
			t.Errorf("refusals %q lack %q", said, want)
		}
	}
	invitation, errs := decodeFile(t, "bidding-invitation.xml")
	if len(errs) > 0 || len(invitation) != 1 {
		t.Fatalf("invitation: %d lots, %v", len(invitation), errs)
	}
	merge := func(docs ...[]*tenderbase.Lot) map[string]*tenderbase.Lot {
		stored := map[string]*tenderbase.Lot{}
		for _, l := range slices.Concat(docs...) {
			if s, ok := stored[l.ID]; ok {
				l = l.Merge(s).(*tenderbase.Lot)
			}
			stored[l.ID] = l
		}
		return stored
	}
	// Newest first, as a sync reads them: the change still sets the dates
	// the result came after, and the page stays the announcement's.
	reversed := slices.Clone(page)
	slices.Reverse(reversed)
	backwards := merge(invitation, reversed, auction)["efrsb-983185_1"]
	if backwards.AuctionDate != msk(t, "2016-05-12T11:00:00") || backwards.Status != "failed" || !strings.Contains(backwards.URL, "0d5b7b6e") {
		t.Errorf("lot 1 merged newest first: auction %v, %s, %s", backwards.AuctionDate, backwards.Status, backwards.URL)
	}
	stored := merge(auction, page, invitation)
	if len(stored) != 2 {
		t.Fatalf("%d lots stored, want 2: %v", len(stored), stored)
	}
	one, two := stored["efrsb-983185_1"], stored["efrsb-983185_2"]
	if one.AuctionDate != msk(t, "2016-05-12T11:00:00") || one.BiddingEnd != msk(t, "2016-05-11T10:00:00") || !strings.Contains(one.URL, "0d5b7b6e") {
		t.Errorf("lot 1 auction %v, applications until %v, page %s: the change moved them", one.AuctionDate, one.BiddingEnd, one.URL)
	}
	if one.Status != "failed" || one.Result == nil || one.Result.Outcome != "failed" || one.Result.Reason != "Не поступило ни одной заявки" {
		t.Errorf("lot 1 %s %+v", one.Status, one.Result)
	}
	if one.Organizer.INN != "2901252720" || one.TradeNumber != "РАД-98765" || one.StartPrice != 1464682.87 {
		t.Errorf("lot 1 organizer %q trade %q price %v", one.Organizer.INN, one.TradeNumber, one.StartPrice)
	}
	if !one.PublishedAt.Equal(time.Date(2016, 3, 25, 10, 20, 52, 510_000_000, tenderbase.Moscow)) {
		t.Errorf("lot 1 published %v: the first publication dates it", one.PublishedAt)
	}
	wantWinner := &tenderbase.LotResult{Outcome: "sold", Price: 1760000,
		Winner:      tenderbase.Party{INN: "290203145508", Name: "Лебедев Олег Игоревич", Address: "г. Северодвинск"},
		PublishedAt: msk(t, "2016-05-13T16:40:00"), Document: "TradeResult", Message: "1002417"}
	if diff := cmp.Diff(wantWinner, two.Result); diff != "" || two.Status != "completed" || two.StartPrice != 1600000 {
		t.Errorf("lot 2 %s at %v, result (-want +got):\n%s", two.Status, two.StartPrice, diff)
	}
}

// TestPositions: a record or a refusal names the message's place in the
// page, whatever number of lots the messages before it gave.
func TestPositions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "messages-page.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs, refused []int
	err = Format{}.Decode("page", bytes.NewReader(data), func(position int, rec tenderbase.Record, err error) error {
		if err != nil {
			refused = append(refused, position)
		} else {
			recs = append(recs, position)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs, []int{1, 2, 2, 3}) || !slices.Equal(refused, []int{4, 5}) {
		t.Errorf("records at %v, refusals at %v; want [1 2 2 3] and [4 5]", recs, refused)
	}
}

func TestBadInput(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"broken xml", `<MessageData><Number>1</Number>`, "does not parse"},
		{"broken json", `{"pageData": [`, "does not parse"},
		{"no lots", `<MessageData><Number>5</Number><MessageInfo MessageType="Auction"><Auction><LotTable/></Auction></MessageInfo></MessageData>`, "has no lots"},
		{"no order", `<MessageData><Number>5</Number><MessageInfo MessageType="Auction"><Auction><LotTable><AuctionLot><StartPrice>1</StartPrice></AuctionLot></LotTable></Auction></MessageInfo></MessageData>`, "has no Order"},
		{"no number", `<MessageData><MessageInfo MessageType="Auction"><Auction><LotTable/></Auction></MessageInfo></MessageData>`, "without its number"},
		{"cancellation naming nothing", `<MessageData><Number>7</Number><MessageInfo MessageType="CancelAuctionTradeResult"><CancelAuctionTradeResult><Text>x</Text></CancelAuctionTradeResult></MessageInfo></MessageData>`, "does not name the message it cancels"},
		{"result without auction", `<MessageData><Number>6</Number><MessageInfo MessageType="TradeResult"><TradeResult/></MessageInfo></MessageData>`, "does not name its auction"},
	} {
		_, errs := sourcetest.Decode(t, Format{}, []byte(tt.body))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) || tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
			t.Errorf("%s: %v, want one invalid saying %q", tt.name, errs, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{`<MessageData/>`, true},
		{`<Messages><MessageData/></Messages>`, true},
		{`<BiddingInvitation TradeId="1"/>`, true},
		{`<Envelope><Body><SetBiddingInvitation><BiddingInvitation/></SetBiddingInvitation></Body></Envelope>`, true},
		{`<Envelope><Body><getDocsByOrgRegionResponse/></Body></Envelope>`, false},
		{`{"total": 0, "pageData": []}`, true},
		{`{"content": []}`, false},
		{`<TED_EXPORT/>`, false},
	} {
		if got := (Format{}).Detect([]byte(tt.body)); got != tt.want {
			t.Errorf("Detect(%s) = %v", tt.body, got)
		}
	}
}

// TestCancellationsThroughAStore imports the messages of one auction into a
// real store, file by file in the order given: a cancelled result leaves
// every lot it reported without a result, and a cancelled auction cancels
// its lots even when the cancellation comes first.
func TestCancellationsThroughAStore(t *testing.T) {
	cancelled := &tenderbase.LotResult{Outcome: "cancelled", Reason: "Торги отменены в связи с заключением мирового соглашения.",
		PublishedAt: msk(t, "2016-05-21T09:30:00"), Document: "CancelAuctionTradeResult", Message: "1004200"}
	for _, tt := range []struct {
		name   string
		files  []string
		status string
		result *tenderbase.LotResult
	}{
		{"result cancelled", []string{"auction-message.xml", "messages-page.json", "cancel-result.xml"}, "active", nil},
		{"auction cancelled first", []string{"cancel-auction.xml", "auction-message.xml", "messages-page.json"}, "cancelled", cancelled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := make([]string, len(tt.files))
			for i, f := range tt.files {
				files[i] = filepath.Join("testdata", f)
			}
			ctx, store := t.Context(), sourcetest.Store(t, Format{}, files...)
			for _, key := range []string{"efrsb-983185_1", "efrsb-983185_2"} {
				r, err := store.Get(ctx, tenderbase.KindLot, key)
				if err != nil {
					t.Fatal(err)
				}
				l := r.(*tenderbase.Lot)
				if diff := cmp.Diff(tt.result, l.Result); diff != "" || l.Status != tt.status || l.SourceStatus != "CancelAuctionTradeResult" {
					t.Errorf("lot %s: %s (%s), result (-want +got):\n%s", key, l.Status, l.SourceStatus, diff)
				}
			}
		})
	}
}
