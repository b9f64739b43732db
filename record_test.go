package tenderbase_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	in := &tenderbase.FASCase{
		ID:       42,
		Name:     "Дело о нарушении",
		CaseDate: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC),
		OrgXML:   `<org><name>ООО "Ромашка" & Ко</name><inn>7707083893</inn></org>`,
	}
	line, err := tenderbase.EncodeEnvelope(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `<inn>7707083893</inn>`) || !strings.Contains(string(line), `& Ко`) {
		t.Errorf("XML is escaped in the canonical line: %s", line)
	}
	out, err := tenderbase.DecodeEnvelope(line)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tenderbase.Record(in), out); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestDecodeEnvelopeErrors(t *testing.T) {
	tests := []struct{ line, want string }{
		{`not json`, "not a record line"},
		{`{"record": {}}`, `record line has no "kind"`},
		{`{"kind": "tender"}`, `record line has no "record"`},
		{`{"kind": "planet", "record": {}}`, `unknown record kind "planet"`},
		{`{"kind": "tender", "record": {"purchase_number": "1", "colour": "red"}}`, `unknown field "colour"`},
		{`{"kind": "tender", "record": {"title": "без номера"}}`, `tender record has no key (purchase_number)`},
		{`{"kind": "fas_case", "record": {"id": "x"}}`, `fas_case record`},
		{`{"kind": "tender", "record": {}, "extra": 1}`, `unknown field "extra"`},
	}
	for _, tt := range tests {
		_, err := tenderbase.DecodeEnvelope([]byte(tt.line))
		if err == nil || !strings.Contains(err.Error(), tt.want) || tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("DecodeEnvelope(%s) error = %v, want one containing %q (invalid)", tt.line, err, tt.want)
		}
	}
}

func TestEveryKindDecodes(t *testing.T) {
	keys := map[tenderbase.Kind]string{
		tenderbase.KindTender:            `{"purchase_number": "0373200041524000123"}`,
		tenderbase.KindDoc:               `{"id": "d1"}`,
		tenderbase.KindContract:          `{"reg_number": "2770708389324000001"}`,
		tenderbase.KindWorldTender:       `{"id": "ted:1"}`,
		tenderbase.KindOrg:               `{"inn": "7707083893"}`,
		tenderbase.KindLot:               `{"id": "l1"}`,
		tenderbase.KindComplaint:         `{"complaintNumber": "202500100001"}`,
		tenderbase.KindComplaintResult:   `{"checkResultNumber": "R1"}`,
		tenderbase.KindFASCase:           `{"id": 7}`,
		tenderbase.KindProtocol:          `{"id": "30311379", "purchase_number": "0873500000820003425", "type": "fcsProtocolEF3"}`,
		tenderbase.KindTenderEvent:       `{"id": "212694", "purchase_number": "0111100002417000043", "type": "cancellation"}`,
		tenderbase.KindWithdrawal:        `{"id": "2313377", "target_kind": "complaint_result", "target_key": "R1"}`,
		tenderbase.KindContractExecution: `{"id": "77994386", "reg_number": "1790000066217000002", "document": "contractProcedure"}`,
		tenderbase.KindUnfairSupplier:    `{"registry_number": "РНП.24120-15"}`,
		tenderbase.KindLotEvent:          `{"id": "efrsb-1004200", "type": "cancellation", "document": "CancelAuctionTradeResult", "message": "983185"}`,
		tenderbase.KindPlannedPurchase:   `{"position_number": "202501622000091001000008", "law": "44", "plan_number": "202501622000091001"}`,
	}
	for _, k := range tenderbase.Kinds {
		r, err := tenderbase.DecodeRecord(k, []byte(keys[k]))
		if err != nil {
			t.Errorf("DecodeRecord(%s): %v", k, err)
			continue
		}
		if r.Kind() != k || r.Key() == "" {
			t.Errorf("DecodeRecord(%s) = kind %s key %q", k, r.Kind(), r.Key())
		}
	}
}

func TestFASCaseLookupsFindINNsInOrgXML(t *testing.T) {
	c := &tenderbase.FASCase{ID: 1, RemoteID: "u-1", OrgXML: `<orgs><org inn="1"><inn>0274062111</inn></org><org><inn>500100732259</inn><kpp>027401001</kpp></org></orgs>`}
	want := []tenderbase.Lookup{
		{Field: tenderbase.LookupRemoteID, Value: "u-1"},
		{Field: tenderbase.LookupINN, Value: "0274062111"},
		{Field: tenderbase.LookupINN, Value: "500100732259"},
	}
	if diff := cmp.Diff(want, c.Lookups()); diff != "" {
		t.Errorf("Lookups mismatch (-want +got):\n%s", diff)
	}
}

func TestXMLText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{`<a>Истец <b>ООО «Вега»</b></a>`, "Истец ООО «Вега»"},
		{`plain text`, "plain text"},
		{`<a>unclosed`, "unclosed"},
	}
	for _, tt := range tests {
		if got := tenderbase.XMLText(tt.in); got != tt.want {
			t.Errorf("XMLText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestErrorVocabulary(t *testing.T) {
	err := tenderbase.Errorf(tenderbase.ENOTFOUND, "tender %s not found", "1")
	if tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND || tenderbase.ErrorMessage(err) != "tender 1 not found" {
		t.Errorf("ErrorCode/Message = %s / %s", tenderbase.ErrorCode(err), tenderbase.ErrorMessage(err))
	}
	plain := strings.NewReader("").UnreadByte()
	if tenderbase.ErrorCode(plain) != tenderbase.EINTERNAL || tenderbase.ErrorMessage(plain) != "internal error" {
		t.Errorf("an internal error leaks: %s / %s", tenderbase.ErrorCode(plain), tenderbase.ErrorMessage(plain))
	}
	if tenderbase.ErrorCode(nil) != "" {
		t.Error("ErrorCode(nil) is not empty")
	}
}

// TestCodeFlags checks the flags of code prefixes: one word a full-text
// index keeps whole, never the flag of another code, and the same for a
// tender's codes and for the filter that asks for them.
func TestCodeFlags(t *testing.T) {
	for _, tc := range []struct {
		lookup tenderbase.Lookup
		want   string
	}{
		{tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43"}, "ok43"},
		{tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43.91"}, "ok43x91"},
		{tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43.9"}, "ok43x9"},
		{tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "4391"}, "ok4391"},
		{tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43-91"}, "okh34332d3931"},
		{tenderbase.Lookup{Field: tenderbase.LookupCPV, Value: "452"}, "cpv452"},
		{tenderbase.Lookup{Field: tenderbase.LookupOKDP, Value: "2423"}, "okdp2423"},
	} {
		got, ok := tc.lookup.Flag()
		if !ok || got != tc.want {
			t.Errorf("%v.Flag() = %q, %v; want %q", tc.lookup, got, ok, tc.want)
		}
	}
	if f, ok := (tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: "7707083893"}).Flag(); ok {
		t.Errorf("an INN lookup has the flag %q, want none", f)
	}

	tender := &tenderbase.Tender{PurchaseNumber: "1", Region: 77, Law: "44", Lots: []tenderbase.TenderLot{
		{Objects: []tenderbase.PurchaseObject{{OKPD2Code: "43.91.19.110"}, {OKPD2Code: "43.91.11"}}},
	}}
	want := []string{"r77", "fz44", "ok4", "ok43", "ok43x9", "ok43x91", "ok43x91x1", "ok43x91x19", "ok43x91x19x1",
		"ok43x91x19x11", "ok43x91x19x110", "ok43x91x11"}
	if diff := cmp.Diff(want, tender.Flags()); diff != "" {
		t.Errorf("tender flags (-want +got):\n%s", diff)
	}
	tender.Lots[0].Objects = append(tender.Lots[0].Objects, tenderbase.PurchaseObject{OKPD2Code: strings.Repeat("1", 100_000)})
	if diff := cmp.Diff(want, tender.Flags()); diff != "" {
		t.Errorf("flags of a tender with a code of 100,000 digits (-want +got):\n%s", diff)
	}
	if slices.ContainsFunc(tender.Lookups(), func(l tenderbase.Lookup) bool { return l.Field == tenderbase.LookupOKPD2 }) {
		t.Errorf("tender lookups %v hold OKPD2 codes, which are flags", tender.Lookups())
	}
	// An object of a 94-FZ contract names its OKDP class: every
	// prefix of its digits is a flag, and no OKPD2 flag comes of it.
	old := &tenderbase.Contract{RegNumber: "1", Law: "44", Objects: []tenderbase.PurchaseObject{{OKDPCode: "2423350", OKDPName: "Средства противораковые"}}}
	wantOld := []string{"fz44", "okdp2", "okdp24", "okdp242", "okdp2423", "okdp24233", "okdp242335", "okdp2423350"}
	if diff := cmp.Diff(wantOld, old.Flags()); diff != "" {
		t.Errorf("flags of an OKDP object (-want +got):\n%s", diff)
	}
	if p := tenderbase.OKDPPrefix("2423000"); p != "2423" {
		t.Errorf("OKDPPrefix(2423000) = %q, want 2423", p)
	}
	if p := tenderbase.OKDPPrefixes("24-23"); p != nil {
		t.Errorf("OKDPPrefixes of a code not of digits = %q, want none", p)
	}
	s := tenderbase.Search{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{{Field: tenderbase.LookupOKPD2, Value: "43.91"}, {Field: tenderbase.LookupPlatform, Value: "ETP_SBAST"}},
		Filters: tenderbase.Filters{Regions: []int{77}}}
	if diff := cmp.Diff([][]string{{"r77"}, {"ok43x91"}}, s.Groups()); diff != "" {
		t.Errorf("search groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]tenderbase.Lookup{{Field: tenderbase.LookupPlatform, Value: "ETP_SBAST"}}, s.Keys()); diff != "" {
		t.Errorf("search keys (-want +got):\n%s", diff)
	}
}
