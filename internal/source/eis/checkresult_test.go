package eis

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// tver fills in r what both results of the Tver complaint share: the
// complaint, its owner, subject and procurement.
func tver(r tenderbase.ComplaintResult) tenderbase.ComplaintResult {
	r.ComplaintNumber, r.ComplaintRegNumber = "202000151401234", "202000151401234"
	r.ComplaintPublishDate = time.Date(2020, 7, 3, 9, 15, 4, 0, msk)
	r.OwnerRegNum, r.OwnerFullName = "01361000012", "Управление Федеральной антимонопольной службы по Тверской области"
	r.OwnerINN, r.OwnerKPP = "6905005038", "695001001"
	r.SubjectFullName = `ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ ТВЕРСКОЙ ОБЛАСТИ "ГОРОДСКАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА № 9"`
	r.SubjectShortName, r.SubjectINN, r.SubjectKPP = `ГБУЗ "ГКБ № 9"`, "6905037125", "695001001"
	r.PurchaseNumber, r.PurchaseCode = "0336200008720000154", "202690503712569500100100330013250244"
	r.PurchaseName = "Поставка расходных материалов для отделения анестезиологии и реанимации"
	r.PurchasePlacingDate = time.Date(2020, 6, 22, 14, 5, 31, 0, msk)
	r.AttachmentDocDescription = "Решение по жалобе"
	return r
}

func TestCheckResultFields(t *testing.T) {
	const filestore = "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid="
	tests := []struct {
		file string
		want tenderbase.ComplaintResult
	}{
		{"checkResult_202000151400871_25233410.xml", tver(tenderbase.ComplaintResult{
			CheckResultNumber: "202000151400871", RegNumber: "202000151400871", DocNumber: "202000151400871-1", VersionNumber: 1,
			CreateDate:     time.Date(2020, 7, 13, 17, 20, 9, 0, msk),
			PublishDate:    time.Date(2020, 7, 14, 9, 31, 55, 0, msk),
			DecisionNumber: "069/06/106-412/2020", DecisionDate: time.Date(2020, 7, 13, 0, 0, 0, 0, msk),
			AttachmentFileName:  "Решение 069-06-106-412-2020.pdf",
			AttachmentDocNumber: "069/06/106-412/2020", AttachmentURL: filestore + "4C91B7E2A3F04D6BE0530A86121F2C55",
			ComplaintResult: "COMPLAINT_NO_VIOLATIONS", IsGISNR: false,
			PrintFormURL: filestore + "4C91B7E2A3F14D6BE0530A86121F2C55",
		})},
		{"checkResult_202000151401577_25519826.xml", tver(tenderbase.ComplaintResult{
			CheckResultNumber: "202000151401577", RegNumber: "202000151401577", DocNumber: "202000151401577-1", VersionNumber: 1,
			CreateDate:     time.Date(2020, 9, 1, 15, 48, 30, 0, msk),
			PublishDate:    time.Date(2020, 9, 2, 10, 5, 12, 0, msk),
			DecisionNumber: "069/06/106-598/2020", DecisionDate: time.Date(2020, 9, 1, 0, 0, 0, 0, msk),
			AttachmentFileName:  "Решение 069-06-106-598-2020.pdf",
			AttachmentDocNumber: "069/06/106-598/2020", AttachmentURL: filestore + "50A3C61D9E7B4F02E0530A86121FC3A1",
			ComplaintResult:    "COMPLAINT_VIOLATIONS",
			PrintFormURL:       filestore + "50A3C61D9E7C4F02E0530A86121FC3A1",
			PrescriptionNumber: "069/06/106-598/2020", PrescriptionDate: time.Date(2020, 9, 1, 0, 0, 0, 0, msk),
			PrescriptionAttachmentFileName:       "Предписание 069-06-106-598-2020.pdf",
			PrescriptionAttachmentDocDescription: "Предписание об устранении нарушений",
			PrescriptionAttachmentDocNumber:      "069/06/106-598/2020",
			PrescriptionAttachmentURL:            filestore + "50A3C61D9E7D4F02E0530A86121FC3A1",
		})},
		{"checkResult_202400114800412_42118937.xml", tenderbase.ComplaintResult{
			CheckResultNumber: "202400114800412", RegNumber: "202400114800412", DocNumber: "202400114800412-1", VersionNumber: 1,
			ComplaintNumber: "202400114801003", ComplaintRegNumber: "202400114801003",
			CreateDate:           time.Date(2024, 4, 16, 16, 2, 11, 0, msk),
			PublishDate:          time.Date(2024, 4, 17, 11, 40, 27, 108e6, msk),
			ComplaintPublishDate: time.Date(2024, 4, 10, 8, 47, 19, 512e6, msk),
			OwnerRegNum:          "01111000017", OwnerFullName: "Управление Федеральной антимонопольной службы по Республике Татарстан",
			OwnerINN: "1653003714", OwnerKPP: "165501001",
			SubjectFullName:  `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ "СРЕДНЯЯ ОБЩЕОБРАЗОВАТЕЛЬНАЯ ШКОЛА № 47" ГОРОДА КАЗАНИ`,
			SubjectShortName: `МБОУ "СОШ № 47"`, SubjectINN: "1659028440", SubjectKPP: "165901001", SubjectOKPO: "48563119",
			SubjectAddress: "420107, Республика Татарстан, г. Казань, ул. Павлюхина, д. 104",
			PurchaseNumber: "0311300012424000061", PurchaseCode: "243165902844016590100100160014391244",
			PurchaseName:        "Выполнение работ по текущему ремонту кровли здания школы",
			PurchasePlacingDate: time.Date(2024, 4, 2, 9, 12, 44, 0, msk),
			DecisionNumber:      "016/06/106-1187/2024", DecisionDate: time.Date(2024, 4, 16, 0, 0, 0, 0, msk),
			// The first of two attachments: the decision itself.
			AttachmentFileName: "Решение 016-06-106-1187-2024.pdf", AttachmentDocDescription: "Решение по результатам рассмотрения жалобы",
			AttachmentDocNumber: "016/06/106-1187/2024", AttachmentURL: filestore + "1B04F9C2D7E64A18A3C5E0B1D96F7A40",
			ComplaintResult: "COMPLAINT_VIOLATIONS", IsGISNR: true,
			PrintFormURL: filestore + "1B04F9C2D7E84A18A3C5E0B1D96F7A40",
		}},
	}
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".DecisionText" || s == ".PrescriptionText"
	}, cmp.Ignore())
	for _, tt := range tests {
		got := decodeOne[*tenderbase.ComplaintResult](t, tt.file)
		if diff := cmp.Diff(&tt.want, got, ignore); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
		if !strings.HasPrefix(got.DecisionText, "При") && !strings.HasPrefix(got.DecisionText, "Признать") {
			t.Errorf("%s: decisionText %q", tt.file, got.DecisionText)
		}
	}
}

// unplannedCheckResult is the result of an unplanned check prompted by a
// complaint: the complaint's numbers sit under base/unplannedCheckComplaint
// and the parties directly under checkSubjects.
const unplannedCheckResult = `<ns2:export xmlns="http://zakupki.gov.ru/oos/types/1" xmlns:ns2="http://zakupki.gov.ru/oos/export/1">
<ns2:checkResult schemeVersion="10.2">
<commonInfo><checkResultNumber>202000151400990</checkResultNumber><createDate>2020-08-03T10:00:00+03:00</createDate>
<owner><regNum>01361000012</regNum></owner></commonInfo>
<base><unplannedCheckComplaint>
<complaintNumber>202000151401234</complaintNumber><regNumber>202000151401234</regNumber>
<complaintPlacementDate>2020-07-02T16:41:27+03:00</complaintPlacementDate>
<checkSubjects><customer><regNum>03362000087</regNum><fullName>ГБУЗ ТО "ГКБ № 9"</fullName><INN>6905037125</INN></customer></checkSubjects>
<info>Внеплановая проверка по жалобе</info>
<decision><decisionNumber>069/06/99-77/2020</decisionNumber><decisionDate>2020-08-03</decisionDate></decision>
<complaintResult>COMPLAINT_PARTLY_VALID</complaintResult><checkResult>VIOLATIONS</checkResult>
</unplannedCheckComplaint></base>
</ns2:checkResult></ns2:export>`

func TestCheckResultOfUnplannedCheck(t *testing.T) {
	recs, errs := decodeAll(t, "checkResult_202000151400990_25300001.xml", unplannedCheckResult)
	if len(recs) != 1 || len(errs) != 0 {
		t.Fatalf("%d records, rejections %v", len(recs), errs)
	}
	got := recs[0].(*tenderbase.ComplaintResult)
	want := tenderbase.ComplaintResult{
		CheckResultNumber: "202000151400990", CreateDate: time.Date(2020, 8, 3, 10, 0, 0, 0, msk),
		OwnerRegNum: "01361000012", ComplaintNumber: "202000151401234", ComplaintRegNumber: "202000151401234",
		ComplaintPublishDate: time.Date(2020, 7, 2, 16, 41, 27, 0, msk),
		SubjectFullName:      `ГБУЗ ТО "ГКБ № 9"`, SubjectINN: "6905037125",
		DecisionNumber: "069/06/99-77/2020", DecisionDate: time.Date(2020, 8, 3, 0, 0, 0, 0, msk),
		ComplaintResult: "COMPLAINT_PARTLY_VALID",
	}
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheckResultRejections(t *testing.T) {
	planned := strings.NewReplacer("<base><unplannedCheckComplaint>", "<base><plannedCheck>",
		"</unplannedCheckComplaint></base>", "</plannedCheck></base>").Replace(unplannedCheckResult)
	tests := []struct{ name, doc, want string }{
		{"planned check", planned, "checkResult 202000151400990 is the result of a planned or unplanned check, not of a complaint"},
		{"no number", strings.Replace(unplannedCheckResult, "<checkResultNumber>202000151400990</checkResultNumber>", "", 1),
			"checkResult without commonInfo/checkResultNumber or regNumber"},
		{"truncated", unplannedCheckResult[:strings.Index(unplannedCheckResult, "<decision>")], "unexpected EOF"},
		{"bad date", strings.Replace(unplannedCheckResult, "2020-08-03T10:00:00+03:00", "3 августа 2020", 1), `date "3 августа 2020" is neither`},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, "checkResult.xml", tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: %d records, rejections %v; want one containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}

const cancelFixture = "checkResultCancel_202000151400871_25498302.xml"

func TestCheckResultCancelWithdrawsTheResult(t *testing.T) {
	checkWithdrawal(t, cancelFixture, &tenderbase.Withdrawal{
		ID: "202000151400871-2", TargetKind: tenderbase.KindComplaintResult, TargetKey: "202000151400871",
		Document: "checkResultCancel", PublishedAt: time.Date(2020, 8, 27, 12, 14, 6, 0, msk),
		Reason: "Решение Тверского УФАС России от 13.07.2020 по делу № 069/06/106-412/2020 признано недействительным " +
			"решением Арбитражного суда Тверской области от 19.08.2020 по делу № А66-8813/2020",
	})
}

// checkWithdrawal decodes the fixture file of testdata/complaint, which
// must yield want and nothing else.
func checkWithdrawal(t *testing.T, file string, want *tenderbase.Withdrawal) {
	t.Helper()
	recs, errs := decodeFixture(t, filepath.Join("testdata", "complaint", file))
	if len(errs) != 0 {
		t.Fatalf("%s: rejections %v", file, errs)
	}
	if diff := cmp.Diff([]tenderbase.Record{want}, recs, cmp.Comparer(time.Time.Equal)); diff != "" {
		t.Errorf("%s: records (-want +got):\n%s", file, diff)
	}
}

// TestComplaintsThroughTheExport imports every fixture into a real store
// and reads them back through the export: a complaint's resultFAS is the
// complaintResult of its latest check result, complaintID with result=1
// finds the results of the complaint by the id of either of its versions,
// and a withdrawn result is neither listed nor counted, whether its
// withdrawal was imported before or after it, and after a re-import.
func TestComplaintsThroughTheExport(t *testing.T) {
	dir := filepath.Join("testdata", "complaint")
	cancel, rest := filepath.Join(dir, cancelFixture), uncancelled(t)
	for name, paths := range map[string][]string{
		"cancel last":  append(slices.Clone(rest), cancel, dir),
		"cancel first": append([]string{cancel}, append(slices.Clone(rest), dir)...),
	} {
		t.Run(name, func(t *testing.T) { testComplaintsExport(t, paths) })
	}
}

// TestWithdrawingTheLatestResult withdraws the later of the two results of
// a complaint instead: its resultFAS falls back to the earlier one.
func TestWithdrawingTheLatestResult(t *testing.T) {
	dir := filepath.Join("testdata", "complaint")
	data, err := os.ReadFile(filepath.Join(dir, cancelFixture))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(string(data), "202000151400871", "202000151401577")
	cancel := filepath.Join(t.TempDir(), "checkResultCancel_202000151401577_25600000.xml")
	if err := os.WriteFile(cancel, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	store := importInto(t, append([]string{cancel}, uncancelled(t)...), 10)
	want := map[string][]string{
		"complaintID=25180436":          {"202000151401234/2/COMPLAINT_NO_VIOLATIONS"},
		"complaintID=25180436&result=1": {"202000151400871/COMPLAINT_NO_VIOLATIONS"},
	}
	for query, want := range want {
		if diff := cmp.Diff(want, exported(t, store, query)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", query, diff)
		}
	}
}

// uncancelled returns the complaint fixtures but the cancel.
func uncancelled(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "complaint", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == cancelFixture })
}

// importInto imports paths into a new SQLite store and checks that records
// were read and none rejected.
func importInto(t *testing.T, paths []string, records int) tenderbase.Store {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	sum, err := importer.Import(ctx, store, paths, importer.Options{Decoders: []importer.Decoder{Format{}}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != records || sum.Rejected != 0 {
		t.Fatalf("import: %d records, rejections %v; want %d and none rejected", sum.Records, sum.Rejections, records)
	}
	return store
}

func testComplaintsExport(t *testing.T, paths []string) {
	store := importInto(t, paths, 20) // 10 records, twice
	tests := []struct {
		query string
		want  []string // complaintNumber/versionNumber/resultFAS, or checkResultNumber/complaintResult
	}{
		{"complaintID=25180436", []string{"202000151401234/2/COMPLAINT_VIOLATIONS"}},
		{"complaintID=25201977", []string{"202000151401234/2/COMPLAINT_VIOLATIONS"}},
		{"fasSupplierInn=165912873405", []string{"202400114801003/1/COMPLAINT_VIOLATIONS"}},
		{"fasCustomerInn=6905037125", []string{"202000151401234/2/COMPLAINT_VIOLATIONS"}},
		{"tend_num=0336200008720000154&complaint_regNumber=202000151401234", []string{"202000151401234/2/COMPLAINT_VIOLATIONS"}},
		{"", []string{"202400100300216/1/", "202400100300215/1/", "202400114801003/1/COMPLAINT_VIOLATIONS", "202000151401234/2/COMPLAINT_VIOLATIONS"}},
		{"fasSupplierInn=771504862317", []string{"202400100300216/1/"}},
		{"complaintID=25180436&result=1", []string{"202000151401577/COMPLAINT_VIOLATIONS"}},
		{"complaintID=41977215&result=1", []string{"202400114800412/COMPLAINT_VIOLATIONS"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, exported(t, store, tt.query)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.query, diff)
		}
	}
}

// exported runs the fasEIS export request query and describes each record.
func exported(t *testing.T, store tenderbase.Store, query string) []string {
	t.Helper()
	values, err := url.ParseQuery("mode=fasEIS&dtype=json&" + query)
	if err != nil {
		t.Fatal(err)
	}
	q, err := export.Parse(values)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	found, err := export.Find(context.Background(), store, q, tenderbase.PlanCorporate, 0)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var got []string
	for _, r := range found.Records {
		switch r := r.(type) {
		case *tenderbase.Complaint:
			got = append(got, r.ComplaintNumber+"/"+strconv.Itoa(r.VersionNumber)+"/"+r.ResultFAS)
		case *tenderbase.ComplaintResult:
			got = append(got, r.CheckResultNumber+"/"+r.ComplaintResult)
		}
	}
	return got
}

// TestOlderCheckResultVersionStaysOlder imports two versions of one check
// result, the newer first: the older is kept as history only, and the
// export lists the newer.
func TestOlderCheckResultVersionStaysOlder(t *testing.T) {
	dir := filepath.Join("testdata", "complaint")
	older := filepath.Join(dir, "checkResult_202000151400871_25233410.xml")
	data, err := os.ReadFile(older)
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.NewReplacer(
		"<docNumber>202000151400871-1</docNumber>", "<docNumber>202000151400871-2</docNumber>",
		"<versionNumber>1</versionNumber>", "<versionNumber>2</versionNumber>",
		"<publishDate>2020-07-14T09:31:55+03:00</publishDate>", "<publishDate>2020-07-20T10:00:00+03:00</publishDate>",
		"COMPLAINT_NO_VIOLATIONS", "COMPLAINT_PARTLY_VALID",
	).Replace(string(data))
	if doc == string(data) || !strings.Contains(doc, "<versionNumber>2</versionNumber>") {
		t.Fatal("the fixture no longer has the elements the newer version changes")
	}
	newer := filepath.Join(t.TempDir(), "checkResult_202000151400871_25233411.xml")
	if err := os.WriteFile(newer, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	complaint := filepath.Join(dir, "complaint_202000151401234_25180436.xml")
	sum, err := importer.Import(ctx, store, []string{complaint, newer, older}, importer.Options{Decoders: []importer.Decoder{Format{}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (tenderbase.PutResult{Inserted: 2, Older: 1}); sum.PutResult != want || sum.Rejected != 0 {
		t.Fatalf("import: %+v, rejections %v; want %+v and none rejected", sum.PutResult, sum.Rejections, want)
	}

	for query, want := range map[string][]string{
		"complaintID=25180436&result=1": {"202000151400871/COMPLAINT_PARTLY_VALID"},
		"complaintID=25180436":          {"202000151401234/1/COMPLAINT_PARTLY_VALID"},
	} {
		if diff := cmp.Diff(want, exported(t, store, query)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", query, diff)
		}
	}
	versions, err := store.Versions(ctx, tenderbase.KindComplaintResult, "202000151400871")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, v := range versions {
		got = append(got, v.Revision())
	}
	if diff := cmp.Diff([]int{1, 2}, got); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
}
