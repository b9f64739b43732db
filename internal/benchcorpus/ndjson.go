package benchcorpus

import (
	"bufio"
	"io"

	"github.com/tenderbase/tenderbase"
)

// WriteNDJSON writes the n tenders of the corpus of seed to w in the
// canonical NDJSON form (internal/source/ndjson), one envelope a line, as
// `tenderbase import` reads it.
func WriteNDJSON(w io.Writer, seed uint64, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for t := range Tenders(seed, n) {
		line, err := tenderbase.EncodeEnvelope(t)
		if err != nil {
			return err
		}
		bw.Write(line)
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}
