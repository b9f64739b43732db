package eis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// executionSummary is what a real-sample test checks of a report of a
// contract's execution, each value read by hand from the file.
type executionSummary struct {
	ID, RegNumber, Law string
	Version            int
	Stage              int
	Final              bool
	StageEnds          string
	Documents          int
	FirstDocument      string // type, name, number and date
	Amount             float64
	Termination        string // type, date and paid
	Status             string
	Attachments        int
}

func summarizeExecution(e *tenderbase.ContractExecution) executionSummary {
	s := executionSummary{ID: e.ID, RegNumber: e.RegNumber, Law: e.Law, Version: e.Version,
		Documents: len(e.Documents), Status: e.Status, Attachments: len(e.Attachments)}
	if e.Stage != nil {
		s.Stage, s.Final = e.Stage.Number, e.Stage.Final
		if !e.Stage.EndsAt.IsZero() {
			s.StageEnds = e.Stage.EndsAt.Format(time.DateOnly)
		}
	}
	for _, d := range e.Documents {
		s.Amount += d.Amount
	}
	s.Amount = float64(int64(s.Amount*100+0.5)) / 100
	if len(e.Documents) > 0 {
		d := e.Documents[0]
		s.FirstDocument = d.Type + " " + d.Name + " " + d.Number + " " + d.Date.Format(time.DateOnly)
	}
	if t := e.Termination; t != nil {
		s.Termination = t.Type + " " + t.Date.Format(time.DateOnly) + " " + t.Reason
	}
	return s
}

// TestContractExecutionReal reads every real report of a contract's
// execution in the shared data and checks its key fields.
func TestContractExecutionReal(t *testing.T) {
	tests := map[string]executionSummary{
		// A 94-FZ contract reported in 2018: its stage is the month it ended.
		"eis44/aksyuk__zakupki_gov_ru/contractProcedure_0378100003211000006_77778767.xml": {
			ID: "77778767", RegNumber: "0378100003211000006", Law: "44", Stage: 1, Final: true, StageEnds: "2011-12-31",
			Documents: 1, FirstDocument: "payment Платежное поручение 1245632 2011-12-14", Amount: 600000,
			Status: "completed"},
		// Terminated by agreement after a payment.
		"eis44/aksyuk__zakupki_gov_ru/contractProcedure_1790000066217000002_77994386.xml": {
			ID: "77994386", RegNumber: "1790000066217000002", Law: "44", Stage: 0, StageEnds: "2017-12-31",
			Documents: 1, FirstDocument: "payment Платежное поручение 312907 2018-01-19", Amount: 256336.02,
			Termination: "termination 2018-01-22 Соглашение сторон", Status: "terminated", Attachments: 3},
		// The second version of the report of stage 15: nine payments.
		"eis44/aksyuk__zakupki_gov_ru/contractProcedure_1790000104916000056_77902916.xml": {
			ID: "77902916", RegNumber: "1790000104916000056", Law: "44", Version: 1, Stage: 15, Final: true, StageEnds: "2017-12-31",
			Documents: 9, FirstDocument: "payment Платежное поручение 697659 2017-02-10", Amount: 40060.41,
			Status: "completed", Attachments: 19},
		// One cash request naming seventeen payment orders.
		"eis44/aksyuk__zakupki_gov_ru/contractProcedure_1790000158517000007_77392940.xml": {
			ID: "77392940", RegNumber: "1790000158517000007", Law: "44", Stage: 1, Final: true, StageEnds: "2017-12-31",
			Documents: 1, FirstDocument: "payment Заявка на кассовый расход 149,187,202,372,373,579,599,712,746,872,873,1048,1049,1259,1260,1415,1446 2017-12-27",
			Amount: 721837.18, Status: "completed", Attachments: 11},
		// An acceptance, not a payment: the sum accepted.
		"eis44-unverified-templates/rezident1989__portal44_xml/contractProcedure.xml": {
			ID: "238191354", RegNumber: "3780417026023000021", Law: "44", Stage: 1, StageEnds: "2023-12-03",
			Documents: 1, FirstDocument: "acceptance Товарная накладная 44 2023-10-30", Amount: 1500000,
			Status: "execution", Attachments: 1},
		// 223-FZ: a payment and the bill of lading it pays for.
		"eis223/Homyakin__ZakupkiParser/contractCompleting_test.xml": {
			ID: "58186ba3-ee3f-424e-a604-57061e26ab86", RegNumber: "80105015580170000110000", Law: "223", Version: 1, Final: true,
			Documents: 2, FirstDocument: "payment   2017-09-30", Amount: 264204.07, Status: "completed", Attachments: 1},
	}
	for rel, want := range tests {
		path := filepath.Join(contractSamples, filepath.FromSlash(rel))
		if _, err := os.Stat(path); err != nil {
			t.Skipf("real sample %s is absent (%v): the shared data folder is not beside this checkout", path, err)
		}
		recs, errs := decodeFixture(t, path)
		if len(errs) != 0 || len(recs) != 1 {
			t.Errorf("%s: %d records, rejections %v; want one record", rel, len(recs), errs)
			continue
		}
		roundTrip(t, recs[0])
		e, ok := recs[0].(*tenderbase.ContractExecution)
		if !ok {
			t.Fatalf("%s: a %T, want a contract execution", rel, recs[0])
		}
		if diff := cmp.Diff(want, summarizeExecution(e)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rel, diff)
		}
	}
}

// TestContractExecutionFixtures checks the whole records of the project's
// fixtures: an advance payment, a court's annulment and a withdrawal.
func TestContractExecutionFixtures(t *testing.T) {
	const reg = "3501205843925000047"
	card := "https://zakupki.gov.ru/epz/contract/contractCard/process-info.html?reestrNumber=" + reg
	day := func(s string) time.Time { return eventAt(t, s+"T00:00:00+03:00") }
	tests := map[string]tenderbase.Record{
		"contractProcedure_3501205843925000047_241503377.xml": &tenderbase.ContractExecution{
			ID: "241503377", RegNumber: reg, Law: "44", Document: "contractProcedure",
			PublishedAt: eventAt(t, "2025-04-08T16:02:11+03:00"),
			Stage:       &tenderbase.ExecutionStage{Number: 1, StartsAt: day("2025-02-03"), EndsAt: day("2025-06-30")},
			Documents: []tenderbase.ExecutionDocument{{
				Type: "payment", Name: "Платежное поручение", Number: "1187", Date: day("2025-04-07"),
				Amount: 418500, Currency: "RUB", AmountRUB: 418500, VAT: 69750, Advance: true,
			}},
			Status: "execution", URL: card,
		},
		"contractProcedure_3501205843925000047_241877120.xml": &tenderbase.ContractExecution{
			ID: "241877120", RegNumber: reg, Law: "44", Document: "contractProcedure", Version: 1,
			PublishedAt: eventAt(t, "2025-09-19T12:40:35+03:00"),
			Termination: &tenderbase.ContractTermination{
				Type: "annulment", Date: day("2025-09-18"), Reason: "Решение суда о признании контракта недействительным",
				Document: "Решение Арбитражного суда Новосибирской области", Paid: 418500,
			},
			Status: "annulled", URL: card,
		},
		"contractProcedureCancel_3501205843925000047_1.xml": &tenderbase.Withdrawal{
			ID: "contractProcedureCancel-241503377", TargetKind: tenderbase.KindContractExecution, TargetKey: "241503377",
			Document: "contractProcedureCancel", PublishedAt: eventAt(t, "2025-04-14T11:20:00+03:00"),
			Reason: "Ошибочно указана сумма платёжного поручения № 1187 от 07.04.2025",
		},
	}
	for file, want := range tests {
		recs, errs := decodeFixture(t, filepath.Join("testdata", "execution", file))
		if len(errs) != 0 || len(recs) != 1 {
			t.Fatalf("%s: %d records, rejections %v; want one record", file, len(recs), errs)
		}
		roundTrip(t, recs[0])
		if diff := cmp.Diff(want, recs[0]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", file, diff)
		}
	}
}

// TestContractExecutionRejections checks that a report which names no
// contract, or a withdrawal that names no report, is rejected saying so.
func TestContractExecutionRejections(t *testing.T) {
	tests := map[string]string{
		"contractProcedure": `<export xmlns="http://zakupki.gov.ru/oos/export/1"><contractProcedure><id>1</id></contractProcedure></export>`,
		"contractProcedureCancel": `<export xmlns="http://zakupki.gov.ru/oos/export/1"><contractProcedureCancel>` +
			`<regNum>3501205843925000047</regNum></contractProcedureCancel></export>`,
		"performanceContract": `<performanceContract xmlns="http://zakupki.gov.ru/223fz/contract/1"><body><item><performanceContractData>` +
			`<guid>g</guid></performanceContractData></item></body></performanceContract>`,
	}
	want := map[string]string{
		"contractProcedure":       "without its id or the contract's regNum",
		"contractProcedureCancel": "without cancelledProcedureId",
		"performanceContract":     "item 1 without its guid or contractRegNumber",
	}
	for kind, doc := range tests {
		recs, errs := decodeAll(t, kind+".xml", doc)
		if len(recs) != 0 || len(errs) != 1 || tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID ||
			!strings.Contains(errs[0].Error(), want[kind]) {
			t.Errorf("%s: %d records, rejections %v; want one invalid rejection saying %q", kind, len(recs), errs, want[kind])
		}
	}
}

// TestContractExecutionThroughTheStore imports the withdrawal before the
// report it withdraws: the report is hidden all the same, and the
// contract's other report is found by its registry number.
func TestContractExecutionThroughTheStore(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := filepath.Join("testdata", "execution")
	opts := importer.Options{Decoders: []importer.Decoder{Format{}}}
	// A report stored after its withdrawal counts as older than what the
	// store holds: it never becomes current.
	for _, step := range []struct {
		file string
		want tenderbase.PutResult
	}{
		{"contractProcedureCancel_3501205843925000047_1.xml", tenderbase.PutResult{Inserted: 1}},
		{"contractProcedure_3501205843925000047_241503377.xml", tenderbase.PutResult{Older: 1}},
		{"contractProcedure_3501205843925000047_241877120.xml", tenderbase.PutResult{Inserted: 1}},
	} {
		sum, err := importer.Import(ctx, store, []string{filepath.Join(dir, step.file)}, opts)
		if err != nil || sum.PutResult != step.want {
			t.Fatalf("import %s: %+v, %v; want %+v", step.file, sum, err, step.want)
		}
	}
	if _, err := store.Get(ctx, tenderbase.KindContractExecution, "241503377"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("Get of the withdrawn report: %v; want not found", err)
	}
	found, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindContractExecution,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupRegNumber, Value: "3501205843925000047"}}})
	if err != nil || found.Total != 1 || found.Items[0].Key() != "241877120" {
		t.Fatalf("reports of contract 3501205843925000047: %+v, %v; want the annulment only", found, err)
	}
}
