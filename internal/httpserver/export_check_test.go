package httpserver_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// xmlNode is any element of a document, with its children.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xmlNode  `xml:",any"`
	Text    string     `xml:",chardata"`
}

// exportRecords requests query and returns its records as field name to
// "has a value", after parsing the whole document: XML with encoding/xml
// (and xmllint where installed), JSON as an array.
func exportRecords(t *testing.T, ts *httptest.Server, query, dtype string) []map[string]bool {
	t.Helper()
	a := getExport(t, ts, query+"&dtype="+dtype)
	if a.status != 200 {
		t.Fatalf("%s: status %d: %s", query, a.status, a.body)
	}
	if dtype == "json" {
		return jsonRecords(t, a.body)
	}
	xmllint(t, a.body)
	return xmlRecords(t, a.body)
}

func jsonRecords(t *testing.T, body []byte) []map[string]bool {
	t.Helper()
	var recs []map[string]any
	if err := json.Unmarshal(body, &recs); err != nil || recs == nil {
		t.Fatalf("body is no JSON array: %v\n%s", err, body)
	}
	var out []map[string]bool
	for _, r := range recs {
		m := map[string]bool{}
		for _, name := range sortedKeys(r) {
			m[name] = r[name] != nil
		}
		out = append(out, m)
	}
	return out
}

func xmlRecords(t *testing.T, body []byte) []map[string]bool {
	t.Helper()
	var root xmlNode
	if err := xml.Unmarshal(body, &root); err != nil {
		t.Fatalf("body is no XML document: %v\n%s", err, body)
	}
	if root.XMLName.Local != "export" {
		t.Fatalf("root element %s, want export", root.XMLName.Local)
	}
	var out []map[string]bool
	for _, rec := range root.Nodes {
		m := map[string]bool{}
		for _, f := range rec.Nodes {
			m[f.XMLName.Local] = len(f.Nodes) > 0 || strings.TrimSpace(f.Text) != ""
		}
		out = append(out, m)
	}
	return out
}

// xmllint checks body with xmllint --noout, when xmllint is installed.
func xmllint(t *testing.T, body []byte) {
	t.Helper()
	path, err := exec.LookPath("xmllint")
	if err != nil {
		return
	}
	file := filepath.Join(t.TempDir(), "export.xml")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(path, "--noout", file).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}

// TestExportTariffFields holds every form, in both formats, to the plans:
// without a key and with a free key no tariff field of any record carries a
// value, and with a paid key every tariff field carries one in at least one
// record of the forms. Every document is parsed whole on the way.
func TestExportTariffFields(t *testing.T) {
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Log("xmllint is not installed: XML is checked with encoding/xml only")
	}
	ts := newDemoServer(t)
	valued := map[string]bool{}
	for _, form := range exportForms {
		if form.name == "error" {
			continue
		}
		for _, dtype := range []string{"xml", "json"} {
			for _, key := range []string{"", "&api_code=free"} {
				if a := getExport(t, ts, form.query+key+"&dtype="+dtype); a.status == http.StatusForbidden {
					continue // it selects by a tariff field: TestHiddenEverywhere's business
				}
				for _, rec := range exportRecords(t, ts, form.query+key, dtype) {
					_, fields := tariffOf(rec)
					for _, f := range fields {
						if rec[f] {
							t.Errorf("%s %s%s: tariff field %s has a value", form.name, dtype, key, f)
						}
					}
				}
			}
			for _, rec := range exportRecords(t, ts, form.query+"&api_code=paid", dtype) {
				k, fields := tariffOf(rec)
				for _, f := range fields {
					valued[string(k)+"."+f] = valued[string(k)+"."+f] || rec[f]
				}
			}
		}
	}
	for _, k := range []tenderbase.Kind{tenderbase.KindComplaint, tenderbase.KindComplaintResult, tenderbase.KindFASCase} {
		for _, f := range tenderbase.TariffFields[k] {
			if !valued[string(k)+"."+f] {
				t.Errorf("%s: tariff field %s has no value in any record for a paid key", k, f)
			}
		}
	}
}

// tariffOf returns the tariff fields of the kind rec is a record of, told
// by a field only that kind has.
func tariffOf(rec map[string]bool) (tenderbase.Kind, []string) {
	_, complaint := rec["complaintNumber"]
	_, result := rec["checkResultNumber"]
	k := tenderbase.KindFASCase
	switch {
	case result:
		k = tenderbase.KindComplaintResult
	case complaint:
		k = tenderbase.KindComplaint
	}
	return k, tenderbase.TariffFields[k]
}
