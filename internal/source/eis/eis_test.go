package eis

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		prefix string
		want   bool
	}{
		{`<?xml version="1.0" encoding="UTF-8"?><ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1"><ns2:complaint>`, true},
		{`<?xml version="1.0"?><ns2:purchaseNotice xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1">`, true},
		{`<export xmlns="http://example.com/other"><x/></export>`, false},
		{`{"kind": "tender"}`, false},
		{`<export><complaint>`, false},
		{"\x00\x01binary", false},
	}
	for _, tt := range tests {
		if got := (Format{}).Detect([]byte(tt.prefix)); got != tt.want {
			t.Errorf("Detect(%.60q) = %v, want %v", tt.prefix, got, tt.want)
		}
	}
}

// decodeAll decodes a document and returns its records and rejections.
func decodeAll(t *testing.T, name, doc string) ([]tenderbase.Record, []error) {
	t.Helper()
	var recs []tenderbase.Record
	var errs []error
	err := (Format{}).Decode(name, strings.NewReader(doc), func(_ int, rec tenderbase.Record, err error) error {
		if err != nil {
			errs = append(errs, err)
		} else {
			recs = append(recs, rec)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Decode(%s): %v", name, err)
	}
	return recs, errs
}

func TestDecodeRejectsWhatItCannotRead(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"plan.xml", `<ns2:purchasePlanProject xmlns:ns2="http://zakupki.gov.ru/223fz/purchasePlanProject/1"><body/></ns2:purchasePlanProject>`,
			"EIS document <purchasePlanProject> holds no record of ours (a draft of a 223-FZ purchase plan"},
		{"other.xml", `<ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1"><ns2:somethingNew/></ns2:export>`,
			"EIS document <somethingNew> holds no record of ours (not a kind of document this version reads)"},
		{"empty-export.xml", `<ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1"></ns2:export>`,
			"<export> holds no document"},
		{"junk.xml", `not xml at all`, "not EIS XML"},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, tt.name, tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) ||
			tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
			t.Errorf("%s: records %d, rejections %v; want one invalid rejection containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}

func TestDocumentDecoderPrefersExactThenLongestPrefix(t *testing.T) {
	saved := documents
	defer func() { documents = saved }()
	var got string
	mark := func(name string) documentFunc {
		return func(*xml.Decoder, xml.StartElement, source) ([]tenderbase.Record, error) {
			got = name
			return nil, nil
		}
	}
	documents = merge(map[string]documentFunc{
		"fcsNotification*":       mark("family"),
		"fcsNotificationCancel*": mark("cancel family"),
		"fcsNotificationEF":      mark("exact"),
	})
	for kind, want := range map[string]string{
		"fcsNotificationEA44":          "family",
		"fcsNotificationCancelFailure": "cancel family",
		"fcsNotificationEF":            "exact",
	} {
		f, ok := documentDecoder(kind)
		if !ok {
			t.Fatalf("no decoder for %s", kind)
		}
		f(nil, xml.StartElement{}, source{})
		if got != want {
			t.Errorf("%s went to %q, want %q", kind, got, want)
		}
	}
	if _, ok := documentDecoder("purchasePlan"); ok {
		t.Error("a decoder for a kind nobody registered")
	}
}
