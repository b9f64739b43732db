package demo

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"

	"github.com/tenderbase/tenderbase"
)

//go:generate go run ./gen -o demo.ndjson

// demoNDJSON is the dataset as the generator wrote it; a test keeps the two
// in step.
//
//go:embed demo.ndjson
var demoNDJSON []byte

// Data returns the demo dataset in the canonical NDJSON form, one record a
// line. The caller must not modify it.
func Data() []byte { return demoNDJSON }

// Open returns a reader of the demo dataset in the canonical NDJSON form.
func Open() io.Reader { return bytes.NewReader(demoNDJSON) }

// Records decodes the demo dataset.
func Records() ([]tenderbase.Record, error) {
	var recs []tenderbase.Record
	sc := bufio.NewScanner(Open())
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		r, err := tenderbase.DecodeEnvelope(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("demo.ndjson line %d: %w", n, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

// Seed is the seed the demo dataset is generated from.
const Seed = 20241105

// builder accumulates the records of the demo world.
type builder struct {
	s         *source
	cast      *cast
	purchases []*purchase
	docs      []*tenderbase.Doc
	contracts []*tenderbase.Contract
	world     []*tenderbase.WorldTender
	orgs      []*tenderbase.Org
	lots      []*tenderbase.Lot
	lodged    []*lodged
	results   []*tenderbase.ComplaintResult
	cases     []*tenderbase.FASCase

	organizers map[string]*party
}

// Generate builds the demo dataset from Seed: the records of every kind,
// grouped by kind in the order of tenderbase.Kinds, versions in order. It
// returns the same records on every call.
func Generate() []tenderbase.Record {
	s := newSource(Seed)
	b := &builder{s: s, cast: newCast(s), organizers: map[string]*party{}}
	b.buildTenders(100)
	b.buildContracts(52)
	b.buildWorld(40)
	b.buildOrgs()
	b.buildLots(30)
	b.buildComplaints(25)
	b.buildResults(20)
	b.buildCases(20)
	return b.records()
}

func (b *builder) records() []tenderbase.Record {
	var recs []tenderbase.Record
	for _, p := range b.purchases {
		for _, v := range p.versions {
			recs = append(recs, v)
		}
	}
	recs = appendAll(recs, b.docs)
	recs = appendAll(recs, b.contracts)
	recs = appendAll(recs, b.world)
	recs = appendAll(recs, b.orgs)
	recs = appendAll(recs, b.lots)
	for _, l := range b.lodged {
		recs = appendAll(recs, l.versions)
	}
	recs = appendAll(recs, b.results)
	return appendAll(recs, b.cases)
}

func appendAll[R tenderbase.Record](recs []tenderbase.Record, rs []R) []tenderbase.Record {
	for _, r := range rs {
		recs = append(recs, r)
	}
	return recs
}

// Write writes records in the canonical NDJSON form.
func Write(w io.Writer, recs []tenderbase.Record) error {
	bw := bufio.NewWriter(w)
	for _, r := range recs {
		line, err := tenderbase.EncodeEnvelope(r)
		if err != nil {
			return err
		}
		bw.Write(line)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
