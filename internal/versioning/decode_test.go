package versioning

import (
	"reflect"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestDecodeStored decodes the stored body of every record of the demo
// dataset (every kind), the behaviour suite's fixtures and synthetic
// tenders and complaints, and checks that the fast decoder reads from each
// the very record tenderbase.DecodeRecord reads, down to the locations of
// its times.
func TestDecodeStored(t *testing.T) {
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, more := range [][]tenderbase.Record{storetest.Corpus(), storetest.TariffRecords(), storetest.LanguageRecords(),
		storetest.MorphologyRecords(), storetest.MeasureRecords(), storetest.StateRecords()} {
		recs = append(recs, more...)
	}
	for c := range demo.Complaints(1, 300) {
		recs = append(recs, c)
	}
	for tender := range demo.Tenders(1, 300) {
		recs = append(recs, tender)
	}
	kinds := map[tenderbase.Kind]int{}
	for _, r := range recs {
		body, err := tenderbase.MarshalRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tenderbase.DecodeRecord(r.Kind(), body)
		if err != nil {
			t.Fatalf("%s %s: %v", r.Kind(), r.Key(), err)
		}
		got, ok := decodeStored(r.Kind(), body)
		if !ok {
			t.Errorf("%s %s: the fast decoder refused its stored body %s", r.Kind(), r.Key(), body)
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s %s: the fast decoder read\n%#v\nwhere DecodeRecord reads\n%#v", r.Kind(), r.Key(), got, want)
		}
		kinds[r.Kind()]++
	}
	if len(kinds) < 15 {
		t.Errorf("records of %d kinds decoded, want every kind: %v", len(kinds), kinds)
	}
}

// TestDecodeRefused checks that a body the fast decoder refuses, though
// DecodeRecord reads or refuses it otherwise, reads as DecodeRecord reads
// it: a name in other letters' case, a member twice, invalid UTF-8,
// something after the object, a member no field takes.
func TestDecodeRefused(t *testing.T) {
	for name, body := range map[string]string{
		"case":     `{"complaintnumber":"1","versionNumber":1}`,
		"twice":    `{"complaintNumber":"1","complaintNumber":"2","versionNumber":1}`,
		"utf-8":    "{\"complaintNumber\":\"1\",\"text\":\"\xff\",\"versionNumber\":1}",
		"trailing": `{"complaintNumber":"1","versionNumber":1} {}`,
		"unknown":  `{"complaintNumber":"1","versionNumber":1,"colour":"red"}`,
		"no key":   `{"versionNumber":1}`,
	} {
		if _, ok := decodeStored(tenderbase.KindComplaint, []byte(body)); ok {
			t.Errorf("%s: the fast decoder took %s", name, body)
		}
		want, wantErr := tenderbase.DecodeRecord(tenderbase.KindComplaint, []byte(body))
		got, err := Decode(tenderbase.KindComplaint, []byte(body))
		if !reflect.DeepEqual(want, got) || (wantErr == nil) != (err == nil) {
			t.Errorf("%s: Decode gave %#v, %v; DecodeRecord %#v, %v", name, got, err, want, wantErr)
		}
	}
}

// TestDecodeAll decodes a page of the export's length, which several cores
// share, and checks the records against the bodies' own order, and that a
// body that does not decode fails the page.
func TestDecodeAll(t *testing.T) {
	var bodies [][]byte
	var want []tenderbase.Record
	for c := range demo.Complaints(2, 1000) {
		body, err := tenderbase.MarshalRecord(c)
		if err != nil {
			t.Fatal(err)
		}
		bodies, want = append(bodies, body), append(want, c)
	}
	got, err := DecodeAll(tenderbase.KindComplaint, bodies)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i].Key() != want[i].Key() {
			t.Fatalf("record %d is %s, want %s", i, got[i].Key(), want[i].Key())
		}
	}
	bodies[700] = []byte(`{"versionNumber":1}`)
	if _, err := DecodeAll(tenderbase.KindComplaint, bodies); err == nil {
		t.Error("a page with a body without a key decoded")
	}
}

// BenchmarkDecode reads the stored body of a synthetic complaint as
// encoding/json reads it (tenderbase.DecodeRecord) and as Decode reads it,
// and a page of a thousand as DecodeAll reads it.
func BenchmarkDecode(b *testing.B) {
	var bodies [][]byte
	for c := range demo.Complaints(3, 1000) {
		body, err := tenderbase.MarshalRecord(c)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	b.Run("encoding-json", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := tenderbase.DecodeRecord(tenderbase.KindComplaint, bodies[i%len(bodies)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := Decode(tenderbase.KindComplaint, bodies[i%len(bodies)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeAll(tenderbase.KindComplaint, bodies); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(bodies)*b.N)/b.Elapsed().Seconds(), "records/s")
	})
}
