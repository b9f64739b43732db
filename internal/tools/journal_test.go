package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// applicant is a participant of a protocol that names it by journal number.
func applicant(journal, inn string, price float64, rank int) tenderbase.Participant {
	p := tenderbase.Participant{Price: price, Rank: rank, Winner: rank == 1, JournalNumber: journal}
	if inn != "" {
		p.Party = tenderbase.Party{INN: inn, Name: "ООО " + inn}
	}
	return p
}

// An auction protocol gives offers by journal number alone, its summary the
// participants and their places: the tools join them by journal number
// within a lot, whichever arrived first.
func TestParticipantsByJournalNumber(t *testing.T) {
	const number = "0373200041525000051"
	auction := protocol("p1", number, 0, 5, applicant("1", "", 100, 0), applicant("2", "", 90, 0))
	summary := protocol("p2", number, 0, 7, applicant("2", "7701000002", 0, 1), applicant("1", "7701000001", 0, 2))
	// Another lot numbers its applications apart: its journal number 1 is
	// someone else.
	otherLot := protocol("p3", number, 2, 6, applicant("1", "", 50, 1))
	recs := []tenderbase.Record{auction, summary, otherLot}
	wantWinners := []tenderbase.Participant{applicant("2", "7701000002", 90, 1), applicant("1", "", 50, 1)}
	wantAuction := []tenderbase.Participant{applicant("1", "7701000001", 100, 0), applicant("2", "7701000002", 90, 0)}
	for _, order := range []string{"auction first", "summary first"} {
		t.Run(order, func(t *testing.T) {
			if order == "summary first" {
				recs = slices.Clone(recs)
				slices.Reverse(recs)
			}
			got, _ := decodeCall[winnerResult](t, emptySet(t, recs...), tenderbase.PlanStandard, "ru.contractByNum", `{"tend_num": "`+number+`"}`)
			if diff := cmp.Diff(wantWinners, got.Winners); diff != "" {
				t.Errorf("winners (-want +got):\n%s", diff)
			}
			var p tenderbase.Protocol
			if len(got.Protocols) != 3 || recordKey(t, got.Protocols[2], "id") != "p1" {
				t.Fatalf("protocols: %d, want p2, p3, p1", len(got.Protocols))
			}
			decodeJSON(t, got.Protocols[2], &p)
			if diff := cmp.Diff(wantAuction, p.Participants); diff != "" {
				t.Errorf("participants of the auction protocol (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRealParticipantsByJournalNumber imports the real EF1, EF2 and EF3 of
// one auction in both orders: the winner of the summary (EF3) comes out
// with its last offer from the auction protocol (EF2), and the offers of
// the EF2 with who made them.
func TestRealParticipantsByJournalNumber(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "eis44", "aksyuk__zakupki_gov_ru")
	files := []string{
		"fcsProtocolEF1_0111100000217000017_15516465.xml",
		"fcsProtocolEF2_0111100000217000017_15528232.xml",
		"fcsProtocolEF3_0111100000217000017_15585361.xml",
	}
	if _, err := os.Stat(filepath.Join(dir, files[0])); err != nil {
		t.Skipf("the real samples are not here (%s): %v", dir, err)
	}
	const number = "0111100000217000017"
	informfinans := tenderbase.Party{INN: "1660086239", KPP: "166001001",
		Name: `Общество с ограниченной ответственностью "Информфинанссервис"`,
		Address: "Страна: Российская Федерация; ОКАТО: 92401385000; Почтовый индекс: 420029; Субъект РФ: Татарстан; " +
			"Город: Казань; Улица: Сибирский; Дом: 34, корпус 1;"}
	want := []tenderbase.Participant{{Party: informfinans, Price: 189140, Rank: 1, Winner: true, JournalNumber: "2"}}
	for _, order := range []string{"as published", "reversed"} {
		t.Run(order, func(t *testing.T) {
			if order == "reversed" {
				files = slices.Clone(files)
				slices.Reverse(files)
			}
			set := importedSet(t, dir, files)
			got, _ := decodeCall[winnerResult](t, set, tenderbase.PlanStandard, "ru.contractByNum", `{"tend_num": "`+number+`"}`)
			if diff := cmp.Diff(want, got.Winners); diff != "" {
				t.Errorf("winners (-want +got):\n%s", diff)
			}
			var ef2 tenderbase.Protocol
			decodeJSON(t, got.Protocols[1], &ef2)
			var inns []string
			for _, p := range ef2.Participants {
				inns = append(inns, p.JournalNumber+" "+p.INN)
			}
			if diff := cmp.Diff([]string{"1 1660075808", "2 1660086239"}, inns); ef2.ID != "15528232" || diff != "" {
				t.Errorf("participants of protocol %s (-want +got):\n%s", ef2.ID, diff)
			}
		})
	}
}

// decodeJSON decodes a record of a tool's output into v.
func decodeJSON(t *testing.T, rec json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(rec, v); err != nil {
		t.Fatal(err)
	}
}

// importedSet imports the EIS files of dir, one at a time in the order
// given, into a new SQLite store and returns the tools over it.
func importedSet(t *testing.T, dir string, files []string) *Set {
	t.Helper()
	ctx, store := context.Background(), newStore(t)
	opts := importer.Options{Decoders: []importer.Decoder{eis.Format{}}}
	for _, f := range files {
		sum, err := importer.Import(ctx, store, []string{filepath.Join(dir, f)}, opts)
		if err != nil || sum.Rejected != 0 {
			t.Fatalf("import %s: %+v, %v", f, sum, err)
		}
	}
	return New(store, nil)
}
