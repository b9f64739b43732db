package versioning

import (
	"runtime"
	"sync"

	"github.com/go-json-experiment/json"

	"github.com/tenderbase/tenderbase"
)

// storedBody are the options that read a stored body as
// tenderbase.DecodeRecord does: a member no field of the record takes is
// refused.
var storedBody = json.RejectUnknownMembers(true)

// decodeStored reads a body that tenderbase.MarshalRecord wrote, with the
// decoder of encoding/json/v2, into the record tenderbase.DecodeRecord
// reads from it, in half the time or less and allocating a quarter of the
// bytes (BenchmarkDecode). That decoder is stricter: it takes
// member names exactly as the fields give them, each once, and valid
// UTF-8 only, which is all a stored body holds. It reports false for a
// body it refuses, which Decode then reads as DecodeRecord does, so that
// such a body reads as before.
func decodeStored(k tenderbase.Kind, body []byte) (tenderbase.Record, bool) {
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		return nil, false
	}
	if err := json.Unmarshal(body, r, storedBody); err != nil || r.Key() == "" {
		return nil, false
	}
	return r, true
}

// parallelBodies is how many bodies each core decodes at least when
// DecodeAll shares them out: the twenty records of a search's page decode
// in a fraction of a millisecond on one core, the thousand of a page of
// the export in several milliseconds, which the cores then share.
const parallelBodies = 128

// DecodeAll reads stored bodies of kind k, as Decode reads each, on as
// many cores as there are hundreds of them, and returns the records in
// the order of the bodies, or the error of the first that does not
// decode.
func DecodeAll(k tenderbase.Kind, bodies [][]byte) ([]tenderbase.Record, error) {
	out := make([]tenderbase.Record, len(bodies))
	workers := min(runtime.GOMAXPROCS(0), len(bodies)/parallelBodies)
	if workers < 2 {
		return out, decodeInto(k, bodies, out)
	}
	errs := make([]error, workers)
	size := (len(bodies) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		from, to := w*size, min((w+1)*size, len(bodies))
		wg.Go(func() { errs[w] = decodeInto(k, bodies[from:to], out[from:to]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeInto decodes bodies into out, one record a body.
func decodeInto(k tenderbase.Kind, bodies [][]byte, out []tenderbase.Record) error {
	for i, body := range bodies {
		var err error
		if out[i], err = Decode(k, body); err != nil {
			return err
		}
	}
	return nil
}
