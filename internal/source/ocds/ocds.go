// Package ocds reads the Open Contracting Data Standard (OCDS 1.x) as
// publishers release it: release packages ({"releases": [...]}), record
// packages ({"records": [...]}), and a single release or record as its own
// file. The releases of one contracting process (one ocid) are merged as
// OCDS prescribes, oldest first, the newest value of each field winning
// (merge.go), unless a record gives its compiledRelease; the compiled
// process becomes one tenderbase.WorldTender (release.go).
package ocds

import (
	"encoding/json"
	"io"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/jsonread"
)

// Format is OCDS JSON as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "OCDS JSON" }

// WholeFiles reports that a file's processes are stored together.
func (Format) WholeFiles() bool { return true }

// Detect reports whether a file starting with prefix is OCDS: a JSON object
// with a releases or records array, a compiledRelease or versionedRelease
// (a record), or an ocid at its top
// level.
func (Format) Detect(prefix []byte) bool {
	return len(jsonread.TopMembers(prefix, "releases", "records", "compiledRelease", "versionedRelease", "ocid")) > 0
}

// Explain says why a JSON object is not OCDS.
func (Format) Explain(prefix []byte) string {
	if jsonread.IsObject(prefix) {
		return "a JSON object without an OCDS releases or records array, compiledRelease, versionedRelease or ocid"
	}
	return ""
}

// Decode reads every contracting process of r.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	var doc map[string]any
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "OCDS JSON does not parse: %v", err))
	}
	for i, p := range processes(doc) {
		w, err := p.worldTender()
		var rec tenderbase.Record
		if err == nil {
			rec = w
		}
		if err := emit(i+1, rec, err); err != nil {
			return err
		}
	}
	return nil
}

// process is one contracting process: its compiled release, the dates
// of the first and last releases merged into it, and the stage and id of
// the last.
type process struct {
	compiled       map[string]any
	first, latest  string
	stage, release string
	uri            string // the package's address, if it gives one
}

// processes returns the processes of a document, whatever its shape.
func processes(doc map[string]any) []process {
	uri, _ := doc["uri"].(string)
	switch {
	case doc["releases"] != nil && doc["compiledRelease"] == nil:
		return fromReleases(objects(doc["releases"]), uri)
	case doc["records"] != nil:
		var out []process
		for _, rec := range objects(doc["records"]) {
			out = append(out, fromRecord(rec, uri)...)
		}
		return out
	case doc["compiledRelease"] != nil:
		return fromRecord(doc, uri)
	}
	return fromReleases([]map[string]any{doc}, uri) // a single release
}

// fromRecord returns the process of a record: its compiledRelease, or its
// releases merged. The compiled release is read as one release merged
// alone, so that an array holding one id twice reads as merged ones do.
func fromRecord(rec map[string]any, uri string) []process {
	releases := objects(rec["releases"])
	c, ok := rec["compiledRelease"].(map[string]any)
	if !ok {
		return fromReleases(releases, uri)
	}
	p := process{compiled: compile([]map[string]any{c}), uri: uri}
	p.first, p.latest = dateRange(releases)
	last := c
	if sorted := inOrder(releases); len(sorted) > 0 {
		last = sorted[len(sorted)-1]
	}
	if p.latest == "" {
		p.latest = str(c, "date")
		p.first = p.latest
	}
	p.stage, p.release = stageOf(last["tag"]), idOf(last)
	return []process{p}
}

// fromReleases merges releases by ocid.
func fromReleases(releases []map[string]any, uri string) []process {
	var order []string
	groups := map[string][]map[string]any{}
	for _, r := range releases {
		ocid, _ := r["ocid"].(string)
		if _, seen := groups[ocid]; !seen {
			order = append(order, ocid)
		}
		groups[ocid] = append(groups[ocid], r)
	}
	out := make([]process, 0, len(order))
	for _, ocid := range order {
		rs := inOrder(groups[ocid])
		last := rs[len(rs)-1]
		first, latest := dateRange(rs)
		out = append(out, process{compiled: compile(rs), first: first, latest: latest,
			stage: stageOf(last["tag"]), release: idOf(last), uri: uri})
	}
	return out
}

// objects returns the JSON objects of an array, leaving out anything else
// (a linked release is an object too, and merges to nothing of use).
func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
