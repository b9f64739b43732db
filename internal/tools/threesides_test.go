package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/efrsb"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

// TestOneOrganizationFromThreeSides imports, into each store, an EGRUL
// extract of an organization, an EIS notice naming it as the customer and
// a fedresurs auction selling its estate as a bankrupt, each through its
// own importer, and finds all three in one contragent.byInn answer. The
// notice and the auction are published files whose INN is set to the
// extract's: no published set of files names one organization thrice.
func TestOneOrganizationFromThreeSides(t *testing.T) {
	const inn = "9901003878" // the cooperative of the EGRUL extract
	extract := filepath.Join(sharedData, "egrul", "kmakeev__egrul", "VO_RUGFO_0000_9965_20251116_c16d3011-7d08-44a1-b93c-9af6842a34d0.xml")
	notice := filepath.Join(sharedData, "eis44-notices", "ISErmakov__zakupkigovru", "epNotificationEF2020_0162100008725000054_1_019AA4796C7075FAACB870598DA461E3.xml")
	if _, err := os.Stat(extract); err != nil {
		t.Skipf("the shared data folder is not beside this checkout: %v", err)
	}
	dir := t.TempDir()
	copyWithINN(t, notice, filepath.Join(dir, "notice.xml"), "6616004892", inn)
	copyWithINN(t, filepath.Join("..", "source", "efrsb", "testdata", "auction-message.xml"), filepath.Join(dir, "auction.xml"), "2901163485", inn)
	decoders := []importer.Decoder{eis.Format{}, egrul.Format{}, efrsb.Format{}}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum, err := importer.Import(context.Background(), store, []string{extract, dir}, importer.Options{Decoders: decoders})
			if err != nil || sum.Rejected != 0 || sum.Files != 3 {
				t.Fatalf("import: %v; %d files, %d rejected", err, sum.Files, sum.Rejected)
			}
			got, _ := decodeCall[struct {
				Name string `json:"name"`
				Org  struct {
					OGRN   string `json:"ogrn"`
					Status string `json:"status"`
				} `json:"org"`
				AsCustomer struct {
					Tenders int `json:"tenders"`
				} `json:"as_customer"`
				Lots lotActivity `json:"lots"`
			}](t, New(store, nil), tenderbase.PlanGuru, "contragent.byInn", `{"inn": "`+inn+`"}`)
			if got.Org.OGRN != "1039923000732" || got.Name != `ПОТРЕБИТЕЛЬСКИЙ КООПЕРАТИВ "ГАРАЖНО-СТРОИТЕЛЬНЫЙ КООПЕРАТИВ № 53"` {
				t.Errorf("register side: %q, OGRN %q", got.Name, got.Org.OGRN)
			}
			if got.AsCustomer.Tenders != 1 {
				t.Errorf("procurement side: %d tenders as customer, want the notice", got.AsCustomer.Tenders)
			}
			var ids []string
			for _, e := range got.Lots.Items {
				ids = append(ids, e.Role+" "+e.ID)
			}
			slices.Sort(ids)
			if got.Lots.AsDebtor != 2 || !slices.Equal(ids, []string{"debtor efrsb-983185_1", "debtor efrsb-983185_2"}) {
				t.Errorf("bankruptcy side: %d lots as debtor, items %v", got.Lots.AsDebtor, ids)
			}
		})
	}
}

// copyWithINN copies a published file, with one INN set to another.
func copyWithINN(t *testing.T, from, to, old, inn string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not name INN %s", from, old)
	}
	if err := os.WriteFile(to, bytes.ReplaceAll(data, []byte(old), []byte(inn)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLotSourcesThroughTheStores imports the torgi.gov.ru and fedresurs
// fixtures into each store: the lots are searched by words and by region,
// the documents of one bankruptcy auction are one lot, cancelled at last by
// the cancellation of the auction, and an organizer's lots are its by INN.
func TestLotSourcesThroughTheStores(t *testing.T) {
	dirs := []string{filepath.Join("..", "source", "torgi", "testdata"), filepath.Join("..", "source", "efrsb", "testdata")}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum, err := importer.Import(context.Background(), store, dirs, importer.Options{Decoders: []importer.Decoder{torgi.Format{}, efrsb.Format{}}})
			if err != nil {
				t.Fatal(err)
			}
			// The notice cancellation and two messages of the REST page (a
			// court decree, one without content) are refused, each saying
			// why; the page's annulment, the two cancellations and the five
			// cancellations, stops, resumption and annulment of the
			// open-data list are lot events.
			if sum.Records != 20 || sum.Rejected != 3 {
				t.Errorf("imported %d records, %d rejected; want 20 and 3", sum.Records, sum.Rejected)
			}
			set := New(store, nil)
			found, _ := decodeCall[struct {
				Total int `json:"total"`
				Items []struct {
					ID string `json:"id"`
				} `json:"items"`
			}](t, set, tenderbase.PlanGuru, "torgi.search", `{"query": "гараж", "regions": [23]}`)
			if found.Total != 1 || found.Items[0].ID != "23000050620000000112_7" {
				t.Errorf("torgi.search гараж in region 23: %+v", found)
			}
			lot, _ := decodeCall[tenderbase.Lot](t, set, tenderbase.PlanGuru, "torgi.detail", `{"id": "efrsb-983185_2"}`)
			if lot.Status != "cancelled" || lot.Result == nil || lot.Result.Message != "1004200" || lot.StartPrice != 1600000 || lot.Debtor.INN != "2901163485" || lot.Platform == "" {
				t.Errorf("merged bankruptcy lot: %s, %+v, start %v, debtor %q", lot.Status, lot.Result, lot.StartPrice, lot.Debtor.INN)
			}
			// The list stops, resumes and at last cancels the notice of
			// the open data.
			notice, _ := decodeCall[tenderbase.Lot](t, set, tenderbase.PlanGuru, "torgi.detail", `{"id": "21000035130000000412_1"}`)
			if notice.Status != "cancelled" || notice.SourceStatus != "noticeCancel" || notice.Result == nil || notice.Result.Document != "noticeCancel" {
				t.Errorf("cancelled open-data lot: %s (%s), %+v", notice.Status, notice.SourceStatus, notice.Result)
			}
			byInn, _ := decodeCall[struct {
				Lots lotActivity `json:"lots"`
			}](t, set, tenderbase.PlanGuru, "contragent.byInn", `{"inn": "3652003045"}`)
			if byInn.Lots.AsOrganizer != 2 || byInn.Lots.AsDebtor != 0 {
				t.Errorf("organizer 3652003045: %+v", byInn.Lots)
			}
			manager, _ := decodeCall[struct {
				Lots lotActivity `json:"lots"`
			}](t, set, tenderbase.PlanGuru, "contragent.byInn", `{"inn": "290121446610"}`)
			if manager.Lots.AsOrganizer != 2 {
				t.Errorf("arbitration manager 290121446610 announced %d lots, want 2", manager.Lots.AsOrganizer)
			}
		})
	}
}
