package eis

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// TestPruningKeepsRecords decodes every fixture and every real sample of
// the shared data, pruned as Decode does and unpruned, and requires the
// same records and the same rejections of both. A document that gives
// records must be one the pruning follows, or the comparison would say
// nothing of it.
func TestPruningKeepsRecords(t *testing.T) {
	roots := []string{"testdata"}
	for _, dir := range []string{"eis44", "eis44-notices", "eis223", "eis44-unverified-templates"} {
		root := filepath.Join(sharedData, dir)
		if _, err := os.Stat(root); err != nil {
			t.Logf("no real samples here (%s): %v", root, err)
			continue
		}
		roots = append(roots, root)
	}
	var files, pruned int
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			name := filepath.Base(path)
			whole := decodeWhole(t, name, bytes.NewReader(data))
			kept := decodePruned(t, name, bytes.NewReader(data))
			if diff := cmp.Diff(whole, kept); diff != "" {
				t.Errorf("%s: pruned (+) and unpruned (-) differ:\n%s", path, diff)
			}
			_, ok := prune(nil, data)
			switch {
			case ok:
				pruned++
			case !whole.Rejected && len(whole.Emitted) > 0:
				t.Errorf("%s: the pruning gives up on a document with records", path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files, %d of them pruned", files, pruned)
}

// TestDecodeReadFailure requires a document whose reader fails to be
// rejected as it was when the decoder read it as it streamed.
func TestDecodeReadFailure(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "contract", "contract44_13_2.xml"))
	if err != nil {
		t.Fatal(err)
	}
	failing := func() io.Reader {
		return io.MultiReader(bytes.NewReader(data[:len(data)/2]), failingReader{errors.New("disk on fire")})
	}
	whole, kept := decodeWhole(t, "c.xml", failing()), decodePruned(t, "c.xml", failing())
	if diff := cmp.Diff(whole, kept); diff != "" {
		t.Errorf("Decode (+) and the streaming decoder (-) differ:\n%s", diff)
	}
	if !strings.Contains(fmt.Sprint(kept.Emitted), "disk on fire") {
		t.Errorf("the rejection does not say why: %v", kept.Emitted)
	}
}

// TestDecodeStopsAtAnUnreadKind requires a large document of a kind no
// decoder reads to be read no further than its start, as when it was
// decoded as it streamed, and to be rejected as it was.
func TestDecodeStopsAtAnUnreadKind(t *testing.T) {
	doc := []byte(`<?xml version="1.0" encoding="UTF-8"?><ns2:purchasePlanProject xmlns:ns2="http://zakupki.gov.ru/223fz/purchasePlanProject/1">` +
		strings.Repeat("<item><name>x</name></item>\n", 1<<15) + "</ns2:purchasePlanProject>")
	r := &countingReader{r: bytes.NewReader(doc)}
	kept := decodePruned(t, "plan.xml", r)
	if r.n > 2*kindPrefixSize {
		t.Errorf("read %d bytes of %d, want no more than the start", r.n, len(doc))
	}
	if diff := cmp.Diff(decodeWhole(t, "plan.xml", bytes.NewReader(doc)), kept); diff != "" {
		t.Errorf("Decode (+) and the streaming decoder (-) differ:\n%s", diff)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

// TestReadUpTo checks that a document over the limit is read no further,
// and that what was read and the rest of the reader make the document.
func TestReadUpTo(t *testing.T) {
	doc := []byte(strings.Repeat("<a>0123456789</a>", 100))
	read, complete, err := readUpTo(nil, bytes.NewReader(doc), len(doc))
	if err != nil || !complete || !bytes.Equal(read, doc) {
		t.Errorf("at the limit: read %d bytes, complete %v, error %v; want all %d, complete", len(read), complete, err, len(doc))
	}
	r := iotest.OneByteReader(bytes.NewReader(doc))
	read, complete, err = readUpTo(nil, r, 100)
	if err != nil || complete || len(read) > len(doc)/2 {
		t.Fatalf("over the limit: read %d bytes, complete %v, error %v; want no more than half, not complete", len(read), complete, err)
	}
	rest, err := io.ReadAll(io.MultiReader(bytes.NewReader(read), r))
	if err != nil || !bytes.Equal(rest, doc) {
		t.Errorf("what was read and the rest make %d bytes (error %v), want the %d of the document", len(rest), err, len(doc))
	}
}

// emitFunc is what Decode emits records and rejections to.
type emitFunc = func(line int, rec tenderbase.Record, err error) error

// decodeResult is what a decode emitted, in order: each record's kind and
// canonical JSON, or a rejection; whether one was a rejection; and the
// error the decode returned.
type decodeResult struct {
	Emitted  []string
	Rejected bool
	Err      string
}

// decodeWhole decodes the document of r unpruned, as it streams.
func decodeWhole(t *testing.T, name string, r io.Reader) decodeResult {
	t.Helper()
	return decodeOutcome(t, func(emit emitFunc) error { return decodeXML(name, r, emit) })
}

// decodePruned decodes the document of r as Decode does.
func decodePruned(t *testing.T, name string, r io.Reader) decodeResult {
	t.Helper()
	return decodeOutcome(t, func(emit emitFunc) error { return (Format{}).Decode(name, r, emit) })
}

// decodeOutcome runs decode and returns what it emitted.
func decodeOutcome(t *testing.T, decode func(emitFunc) error) decodeResult {
	t.Helper()
	var res decodeResult
	err := decode(func(line int, rec tenderbase.Record, err error) error {
		if err != nil {
			res.Emitted = append(res.Emitted, fmt.Sprintf("line %d: rejected: %v", line, err))
			res.Rejected = true
			return nil
		}
		body, err := tenderbase.MarshalRecord(rec)
		if err != nil {
			t.Fatalf("%s %s does not encode: %v", rec.Kind(), rec.Key(), err)
		}
		res.Emitted = append(res.Emitted, fmt.Sprintf("line %d: %s %s", line, rec.Kind(), body))
		return nil
	})
	if err != nil {
		res.Err = err.Error()
	}
	return res
}
