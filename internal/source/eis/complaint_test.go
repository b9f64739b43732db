package eis

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// complaintFixtures are the complaint and check result files written for
// the project from the official schemas.
func complaintFixtures(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "complaint", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/complaint: %v", err)
	}
	return files
}

// decodeFixture reads a fixture through Format as the importer would: Detect
// on its start, then Decode under its base name.
func decodeFixture(t *testing.T, file string) ([]tenderbase.Record, []error) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !(Format{}).Detect(data[:min(len(data), importer.PrefixSize)]) {
		t.Fatalf("%s: Detect = false", file)
	}
	return decodeAll(t, filepath.Base(file), string(data))
}

// decodeOne decodes the fixture file, which must yield one record of type R.
func decodeOne[R tenderbase.Record](t *testing.T, file string) R {
	t.Helper()
	recs, errs := decodeFixture(t, filepath.Join("testdata", "complaint", file))
	if len(recs) != 1 || len(errs) != 0 {
		t.Fatalf("%s: %d records, rejections %v; want one", file, len(recs), errs)
	}
	r, ok := recs[0].(R)
	if !ok {
		t.Fatalf("%s: a %T, not a %T", file, recs[0], r)
	}
	return r
}

// TestComplaintGoldens checks that every fixture yields exactly the records
// (and rejections) of its golden file: the canonical JSON of each record,
// indented, or the rejection's message.
func TestComplaintGoldens(t *testing.T) {
	for _, file := range complaintFixtures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			recs, errs := decodeFixture(t, file)
			golden.Check(t, strings.TrimSuffix(file, ".xml")+".golden", goldenText(t, recs, errs))
		})
	}
}

// goldenText returns the records as indented canonical JSON, then the
// rejections, one a line.
func goldenText(t *testing.T, recs []tenderbase.Record, errs []error) string {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		line, err := tenderbase.EncodeEnvelope(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&b, line, "", "  "); err != nil {
			t.Fatal(err)
		}
		b.WriteByte('\n')
	}
	for _, err := range errs {
		b.WriteString("rejected: " + err.Error() + "\n")
	}
	return b.String()
}

// msk is the zone of the fixtures' dates.
var msk = time.FixedZone("", 3*60*60)

func TestComplaintFields(t *testing.T) {
	tests := []struct {
		file string
		want tenderbase.Complaint
	}{
		{"complaint_202000151401234_25180436.xml", tenderbase.Complaint{
			ComplaintNumber: "202000151401234", ComplaintID: "25180436", VersionNumber: 1,
			RegNum:               "202000151401234",
			RegistrationFullName: "Управление Федеральной антимонопольной службы по Тверской области",
			PurchaseNumber:       "0336200008720000154",
			PurchaseObjectInfo:   "Поставка расходных материалов для отделения анестезиологии и реанимации",
			PurchasePlacingDate:  time.Date(2020, 6, 22, 14, 5, 31, 0, msk),
			SupplierName:         `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "МЕДТЕХСНАБ-ВОЛГА"`,
			SupplierINN:          "6950214873", ApplicantRD: "2017-11-14",
			CustomerINN: "6905037125",
			DatePubl:    time.Date(2020, 7, 3, 9, 15, 4, 0, msk),
			Link:        "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=4C2A9E5B71D03F88E0530A86121F7A12",
		}},
		{"complaint_202000151401234_25201977.xml", tenderbase.Complaint{
			ComplaintNumber: "202000151401234", ComplaintID: "25201977", VersionNumber: 2,
			RegNum:               "202000151401234",
			RegistrationFullName: "Управление Федеральной антимонопольной службы по Тверской области",
			PurchaseNumber:       "0336200008720000154",
			PurchaseObjectInfo:   "Поставка расходных материалов для отделения анестезиологии и реанимации",
			PurchasePlacingDate:  time.Date(2020, 6, 22, 14, 5, 31, 0, msk),
			SupplierName:         `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "МЕДТЕХСНАБ-ВОЛГА"`,
			SupplierINN:          "6950214873", ApplicantRD: "2017-11-14",
			CustomerINN: "6905037125",
			DatePubl:    time.Date(2020, 7, 8, 10, 7, 12, 0, msk),
			Link:        "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=4C6F0D3A82B54E19E0530A86121F1B07",
		}},
		{"complaint_202400114801003_41977215.xml", tenderbase.Complaint{
			ComplaintNumber: "202400114801003", ComplaintID: "41977215", VersionNumber: 1,
			RegNum:               "202400114801003",
			RegistrationFullName: "Управление Федеральной антимонопольной службы по Республике Татарстан",
			RegistrationINN:      "1653003714", RegistrationKPP: "165501001",
			PurchaseNumber:      "0311300012424000061",
			PurchaseObjectInfo:  "Выполнение работ по текущему ремонту кровли здания школы",
			PurchasePlacingDate: time.Date(2024, 4, 2, 9, 12, 44, 0, msk),
			SupplierName:        "Гарипов Ильдар Рустемович",
			SupplierINN:         "165912873405", ApplicantRD: "2019-02-28",
			CustomerINN: "1659028440",
			DatePubl:    time.Date(2024, 4, 10, 8, 47, 19, 512e6, msk),
			Link:        "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=1A7D3E08C5B24F6DB2E91C74A0F5E3D2",
		}},
	}
	// The texts are long; the goldens hold them whole. Here they only need
	// to be there, and resultFAS must not be: the export sets it.
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".Text", ".ComplaintIndictedTextXML", ".ComplaintIndictedText":
			return true
		}
		return false
	}, cmp.Ignore())
	for _, tt := range tests {
		got := decodeOne[*tenderbase.Complaint](t, tt.file)
		if diff := cmp.Diff(&tt.want, got, ignore); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
		if got.Text == "" || got.ComplaintIndictedText == "" || got.ResultFAS != "" {
			t.Errorf("%s: text %q, indicted text %q, resultFAS %q", tt.file, got.Text, got.ComplaintIndictedText, got.ResultFAS)
		}
	}
}

// TestIndictedXMLIsBare checks that the indicted block is kept as XML
// without namespaces, whichever way the file bound its prefixes, and that
// it stays well-formed with several blocks.
func TestIndictedXMLIsBare(t *testing.T) {
	prefixed, _ := decodeFixture(t, filepath.Join("testdata", "complaint", "complaint_202400114801003_41977215.xml"))
	plain, _ := decodeFixture(t, filepath.Join("testdata", "complaint", "complaint_202000151401234_25180436.xml"))
	got := prefixed[0].(*tenderbase.Complaint).ComplaintIndictedTextXML
	if !strings.HasPrefix(got, "<indicted><customerNew><fullName>МУНИЦИПАЛЬНОЕ") || strings.Contains(got, "oos:") || strings.Contains(got, "xmlns") {
		t.Errorf("14.1 indicted XML = %s", got)
	}
	two := plain[0].(*tenderbase.Complaint).ComplaintIndictedTextXML
	if strings.Count(two, "<indicted>") != 2 || strings.Contains(two, "xmlns") {
		t.Errorf("10.2 indicted XML = %s", two)
	}
	for _, fragment := range []string{got, two} {
		if err := wellFormedXML("<x>" + fragment + "</x>"); err != nil {
			t.Errorf("not well-formed: %v\n%s", err, fragment)
		}
	}
}

// wellFormedXML reads doc to its end.
func wellFormedXML(doc string) error {
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		if _, err := d.Token(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func TestComplaintID(t *testing.T) {
	tests := map[string]string{
		"complaint_202000151401234_25180436.xml": "25180436",
		"complaint_202000151401234_25180436.XML": "",
		"complaint.xml":                          "",
		"complaint_12_x.xml":                     "",
	}
	for name, want := range tests {
		if got := complaintID(name); got != want {
			t.Errorf("complaintID(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestComplaintRejections checks that a broken complaint is one clear
// rejection, never a panic.
func TestComplaintRejections(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "complaint", "complaint_202000151401234_25180436.xml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	tests := []struct{ name, doc, want string }{
		{"truncated", doc[:strings.LastIndex(doc[:len(doc)/2], "\n")], "<complaint> is not well-formed XML at line 47: unexpected EOF"},
		{"malformed", strings.Replace(doc, "</regNumber>", "</regNumbr>", 1), "<complaint> is not well-formed XML at line 6"},
		{"no number", strings.Replace(doc, "<complaintNumber>202000151401234</complaintNumber>", "", 1), "complaint without commonInfo/complaintNumber"},
		{"bad version", strings.Replace(doc, "<versionNumber>1<", "<versionNumber>first<", 1), `version "first" is not a whole number`},
		{"bad date", strings.Replace(doc, "<regDate>2020-07-02T16:41:27+03:00<", "<regDate>02.07.2020<", 1), `date "02.07.2020" is neither`},
		{"unknown", strings.ReplaceAll(doc, "ns2:complaint ", "ns2:complaintAppeal "), "EIS document <complaintAppeal> holds no record of ours"},
		{"group without items", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><complaintGroup><commonInfo><complaintNumber>202400100300214</complaintNumber></commonInfo></complaintGroup></export>`,
			"complaintGroup without complaintGroupItems"},
		{"group item without number", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><complaintGroup><complaintGroupItems><itemComplaintNumber>202400100300215</itemComplaintNumber></complaintGroupItems>` +
			`<complaintGroupItems><regDate>2024-05-20T16:47:03+03:00</regDate></complaintGroupItems></complaintGroup></export>`,
			"complaintGroup item 2 has neither itemComplaintNumber nor regNumber"},
		{"cancel without number", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><complaintCancel><regNumber>202400114801120</regNumber></complaintCancel></export>`,
			"<complaintCancel>: complaintCancel without complaintNumber"},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, "complaint_202000151401234_25180436.xml", tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: %d records, rejections %v; want one containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}

const complaintCancelFixture = "complaintCancel_202400114801120_42010388.xml"

// TestComplaintCancelWithdrawsTheComplaint imports the complaint that the
// withdrawal names (a copy of a fixture under its number), with and without
// the withdrawal, in either order: withdrawn, the complaint is neither
// exported nor returned by Get.
func TestComplaintCancelWithdrawsTheComplaint(t *testing.T) {
	checkWithdrawal(t, complaintCancelFixture, &tenderbase.Withdrawal{
		ID: "202400114801120-2", TargetKind: tenderbase.KindComplaint, TargetKey: "202400114801120",
		Document: "complaintCancel", PublishedAt: time.Date(2024, 4, 22, 11, 5, 43, 0, msk),
		Reason: "Заявитель отзывает жалобу: заказчик внёс изменения в извещение и устранил обжалуемые положения",
	})
	data, err := os.ReadFile(filepath.Join("testdata", "complaint", "complaint_202400114801003_41977215.xml"))
	if err != nil {
		t.Fatal(err)
	}
	complaint := filepath.Join(t.TempDir(), "complaint_202400114801120_42004711.xml")
	if err := os.WriteFile(complaint, []byte(strings.ReplaceAll(string(data), "202400114801003", "202400114801120")), 0o644); err != nil {
		t.Fatal(err)
	}
	cancel := filepath.Join("testdata", "complaint", complaintCancelFixture)
	for _, c := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"no withdrawal", []string{complaint}, []string{"202400114801120/1/"}},
		{"withdrawal last", []string{complaint, cancel}, nil},
		{"withdrawal first", []string{cancel, complaint}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := importInto(t, c.paths, len(c.paths))
			if diff := cmp.Diff(c.want, exported(t, store, "fasSupplierInn=165912873405")); diff != "" {
				t.Errorf("export (-want +got):\n%s", diff)
			}
			_, err := store.Get(context.Background(), tenderbase.KindComplaint, "202400114801120")
			if withdrawn := c.want == nil; withdrawn != (tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND) {
				t.Errorf("Get: %v; withdrawn %v", err, withdrawn)
			}
		})
	}
}
