package tools

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// bothStores returns a new SQLite store and a new PostgreSQL store, by
// name, each closed when the test ends.
func bothStores(t *testing.T) map[string]tenderbase.Store {
	t.Helper()
	pg, err := postgres.Open(context.Background(), pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return map[string]tenderbase.Store{"sqlite": newStore(t), "postgres": pg}
}

// importProtocols imports the EIS protocol fixtures files of internal/source/eis
// into store, as `tenderbase import` reads them, beside recs.
func importProtocols(t *testing.T, store tenderbase.Store, files []string, recs ...tenderbase.Record) {
	t.Helper()
	ctx := context.Background()
	if _, err := store.Put(ctx, recs); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join("..", "source", "eis", "testdata", "protocol", f))
	}
	sum, err := importer.Import(ctx, store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 || sum.Records == 0 {
		t.Fatalf("import of %v: %+v, %v", files, sum, err)
	}
}

// lotWinner is a winner of one lot as ru.contractByNum shows it.
type lotWinner struct {
	Lot   int
	INN   string
	Price float64
}

// TestProtocolWinnersThroughTheTools imports a protocol of each family
// whose winners used to be lost and reads, through ru.contractByNum, the
// winner INN and price of each lot, through ru.detail the tender's state,
// on both stores.
func TestProtocolWinnersThroughTheTools(t *testing.T) {
	tests := []struct {
		file, number, law string
		want              []lotWinner
	}{
		// A legacy quotation: WIN_OFFER is the winner.
		{"fcsProtocolZK_0348300011718000213_17926544.xml", "0348300011718000213", "44",
			[]lotWinner{{0, "5022054318", 248300}}},
		// A legacy competition of two lots in one document.
		{"fcsProtocolOK2_0131200001017003945_16208817.xml", "0131200001017003945", "44",
			[]lotWinner{{1, "3664123590", 1598250.5}, {2, "3662098451", 412300}}},
		// A 223-FZ quotation: W is the winner, F (the same price, later) is not.
		{"purchaseProtocolZK_two_lots.xml", "31704958210", "223",
			[]lotWinner{{1, "7447259016", 78450}, {2, "7447259016", 49980}}},
		// A purchase from a single supplier.
		{"purchaseProtocolPAEP_one_lot.xml", "31806154902", "223",
			[]lotWinner{{1, "1660271592", 187632.4}}},
	}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			var files []string
			var notices []tenderbase.Record
			for _, tt := range tests {
				files = append(files, tt.file)
				n := notice(tt.number, tenderbase.TenderActive)
				n.Law = tt.law
				notices = append(notices, n)
			}
			importProtocols(t, store, files, notices...)
			set := New(store, nil)
			for _, tt := range tests {
				res, _ := decodeCall[winnerResult](t, set, tenderbase.PlanGuru, "ru.contractByNum", `{"tend_num": "`+tt.number+`"}`)
				if diff := gocmp.Diff(tt.want, lotWinners(t, res)); diff != "" {
					t.Errorf("%s: winners (-want +got):\n%s", tt.file, diff)
				}
				if got := detailState(t, set, tt.number); got.State != tenderbase.TenderCompleted {
					t.Errorf("%s: ru.detail: state %q from %q; want completed", tt.file, got.State, got.StateFrom)
				}
			}
		})
	}
}

// lotWinners returns the winners of the protocols in force of res, each
// with its lot, in the order of lots, and checks that they are the winners
// ru.contractByNum lists.
func lotWinners(t *testing.T, res winnerResult) []lotWinner {
	t.Helper()
	var got []lotWinner
	for _, raw := range res.Protocols {
		var p tenderbase.Protocol
		decodeJSON(t, raw, &p)
		for _, w := range p.Winners() {
			got = append(got, lotWinner{p.LotNumber, w.INN, w.Price})
		}
	}
	slices.SortStableFunc(got, func(a, b lotWinner) int { return cmp.Compare(a.Lot, b.Lot) })
	var inForce, listed []lotWinner
	for _, w := range got {
		inForce = append(inForce, lotWinner{INN: w.INN, Price: w.Price})
	}
	for _, w := range res.Winners {
		listed = append(listed, lotWinner{INN: w.INN, Price: w.Price})
	}
	if diff := gocmp.Diff(inForce, listed); diff != "" {
		t.Errorf("winners ru.contractByNum lists (-protocols +listed):\n%s", diff)
	}
	return got
}

// TestMaskedParticipantIsNoParty: the placeholder INN of a masked
// participant is neither stored nor found, while its application still
// counts in its protocol; the winner of both lots of the 223-FZ quotation
// has won twice.
func TestMaskedParticipantIsNoParty(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			importProtocols(t, store, []string{"fcsProtocolZK_0348300011718000213_17926544.xml", "purchaseProtocolZK_two_lots.xml"})
			set := New(store, nil)
			_, err := call(t, set, asPlan(tenderbase.PlanGuru), "contragent.byInn", `{"inn": "0000000000"}`)
			if tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
				t.Errorf("byInn of the placeholder: %v; want not found", err)
			}
			res, _ := decodeCall[innResult](t, set, tenderbase.PlanGuru, "contragent.byInn", `{"inn": "7447259016"}`)
			if a := res.AsParticipant; a == nil || a.Protocols != 2 || a.Wins != 2 {
				t.Errorf("byInn of the winner: as_participant %+v; want 2 protocols, 2 wins", a)
			}
			zk, _ := decodeCall[winnerResult](t, set, tenderbase.PlanGuru, "ru.contractByNum", `{"tend_num": "0348300011718000213"}`)
			var p tenderbase.Protocol
			decodeJSON(t, zk.Protocols[0], &p)
			if len(p.Participants) != 4 || p.Participants[2].Name != "Участник 3" || p.Participants[2].INN != "" {
				t.Errorf("participants of the quotation: %+v; want 4, the third the masked one without its INN", p.Participants)
			}
		})
	}
}
