package importer_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

var decoders = []importer.Decoder{ndjson.Format{}}

// tenderLine returns the canonical NDJSON line of a tender, newline included.
func tenderLine(t testing.TB, number string, version int) string {
	t.Helper()
	line, err := tenderbase.EncodeEnvelope(&tenderbase.Tender{
		PurchaseNumber: number,
		Law:            tenderbase.Law44,
		Version:        version,
		Title:          "Поставка бумаги для офисной техники",
		PublishedAt:    time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(line) + "\n"
}

func tenderLines(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		b.WriteString(tenderLine(t, fmt.Sprintf("N%05d", i), 1))
	}
	return b.String()
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// member is one file of a zip archive a test writes.
type member struct{ name, content string }

func zipBytes(t testing.TB, members ...member) string {
	t.Helper()
	var b strings.Builder
	zw := zip.NewWriter(&b)
	for _, m := range members {
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(m.content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func lineError(t *testing.T, line string) string {
	t.Helper()
	_, err := tenderbase.DecodeEnvelope([]byte(line))
	if err == nil {
		t.Fatalf("line %q decodes", line)
	}
	return err.Error()
}

func runImport(t *testing.T, store tenderbase.Store, paths []string, opts importer.Options) importer.Summary {
	t.Helper()
	if opts.Decoders == nil {
		opts.Decoders = decoders
	}
	s, err := importer.Import(t.Context(), store, paths, opts)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return s
}

func TestImportFolder(t *testing.T) {
	dir := t.TempDir()
	unknownKind := `{"kind":"ship","record":{}}`
	writeFile(t, filepath.Join(dir, "a.ndjson"), tenderLine(t, "1", 1)+tenderLine(t, "2", 1)+"{bad\n")
	writeFile(t, filepath.Join(dir, "sub", "b.txt"), tenderLine(t, "3", 1))
	writeFile(t, filepath.Join(dir, ".hidden.ndjson"), tenderLine(t, "9", 1))
	writeFile(t, filepath.Join(dir, ".git", "x.ndjson"), tenderLine(t, "9", 1))
	writeFile(t, filepath.Join(dir, "junk.bin"), "\x00\x01\x02\xff\xfe binary")
	writeFile(t, filepath.Join(dir, "empty.ndjson"), "")
	writeFile(t, filepath.Join(dir, "doc.xml"), `<?xml version="1.0"?><export/>`)
	writeFile(t, filepath.Join(dir, "zz.zip"), zipBytes(t,
		member{"data/c.ndjson", tenderLine(t, "4", 1) + unknownKind + "\n"},
		member{"__MACOSX/data/._c.ndjson", "junk"},
		member{"inner.zip", zipBytes(t, member{"d.ndjson", tenderLine(t, "5", 1)})},
		member{"readme.txt", "hello"},
	))
	missing := filepath.Join(dir, "missing")
	zz := filepath.Join(dir, "zz.zip")
	unknown := "format not recognized (known: NDJSON): "

	got := runImport(t, newFakeStore(), []string{dir, missing}, importer.Options{})

	want := importer.Summary{
		Files:   3,
		Formats: map[string]int{"NDJSON": 3},
		Read: []importer.FileRead{
			{File: filepath.Join(dir, "a.ndjson"), Format: "NDJSON", Records: 2, Rejected: 1},
			{File: zz, Member: "data/c.ndjson", Format: "NDJSON", Records: 1, Rejected: 1},
			{File: filepath.Join(dir, "sub", "b.txt"), Format: "NDJSON", Records: 1},
		},
		Records:   4,
		PutResult: tenderbase.PutResult{Inserted: 4},
		Rejected:  2,
		Rejections: []importer.Rejection{
			{File: filepath.Join(dir, "a.ndjson"), Line: 3, Reason: lineError(t, "{bad")},
			{File: zz, Member: "data/c.ndjson", Line: 2, Reason: lineError(t, unknownKind)},
		},
		Skipped: []importer.Skip{
			{File: missing, Reason: "no such file or directory"},
			{File: filepath.Join(dir, "doc.xml"), Reason: unknown + "XML whose root element is <export>, without a namespace"},
			{File: filepath.Join(dir, "empty.ndjson"), Reason: "empty file"},
			{File: filepath.Join(dir, "junk.bin"), Reason: unknown + "binary data"},
			{File: zz, Member: "readme.txt", Reason: unknown + `plain text, neither JSON nor XML, starting "hello"`},
			// Left until the end of its folder: a file of documentation
			// would be read there.
			{File: zz, Member: "inner.zip", Reason: "zip archive inside a zip archive, not read: unpack the outer one first"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if s := got.Rejections[1].String(); !strings.HasPrefix(s, zz+"!/data/c.ndjson:2: ") {
		t.Errorf("rejection reads %q, want it to name the archive member and line", s)
	}
}

func TestImportVersions(t *testing.T) {
	dir := t.TempDir()
	newer := writeFile(t, filepath.Join(dir, "newer.ndjson"), tenderLine(t, "1", 2)+tenderLine(t, "2", 1))
	older := writeFile(t, filepath.Join(dir, "older.ndjson"), tenderLine(t, "1", 1))
	store := newFakeStore()

	first := runImport(t, store, []string{newer}, importer.Options{})
	again := runImport(t, store, []string{newer, older}, importer.Options{})

	if want := (tenderbase.PutResult{Inserted: 2}); first.PutResult != want {
		t.Errorf("first import: %+v, want %+v", first.PutResult, want)
	}
	if want := (tenderbase.PutResult{Unchanged: 2, Older: 1}); again.PutResult != want {
		t.Errorf("second import: %+v, want %+v", again.PutResult, want)
	}
}

func TestImportBatches(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "many.ndjson"), tenderLines(t, 1201))
	store := newFakeStore()

	got := runImport(t, store, []string{path}, importer.Options{BatchSize: 500})

	if got.Inserted != 1201 || store.puts != 3 {
		t.Errorf("inserted %d in %d transactions, want 1201 in 3", got.Inserted, store.puts)
	}
}

func TestImportStoreRefusesRecord(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "a.ndjson"), tenderLine(t, "1", 1)+tenderLine(t, "2", 1)+tenderLine(t, "3", 1))
	store := newFakeStore()
	store.invalid = []string{"2"}

	got := runImport(t, store, []string{path}, importer.Options{})

	want := []importer.Rejection{{File: path, Line: 2, Reason: "tender 2: refused"}}
	if diff := cmp.Diff(want, got.Rejections); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
	if got.Inserted != 2 || got.Rejected != 1 {
		t.Errorf("inserted %d, rejected %d; want 2 and 1", got.Inserted, got.Rejected)
	}
}

// A batch the store refuses is stored in halves down to the record it
// refuses: one bad record among a thousand costs about ten transactions,
// not a thousand.
func TestImportStoreRefusesOneOfMany(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "many.ndjson"), tenderLines(t, 1000))
	store := newFakeStore()
	store.invalid = []string{"N00699"}

	got := runImport(t, store, []string{path}, importer.Options{BatchSize: 1000})

	if got.Inserted != 999 || got.Rejected != 1 || got.Rejections[0].Line != 700 {
		t.Fatalf("inserted %d, rejected %d (%+v); want 999 and line 700", got.Inserted, got.Rejected, got.Rejections)
	}
	if store.puts > 11 {
		t.Errorf("stored in %d transactions (%v), want at most 11", store.puts, store.sizes)
	}
}

func TestImportStoreFails(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "a.ndjson"), tenderLine(t, "1", 1))
	store := newFakeStore()
	diskFull := errors.New("disk full")
	store.fail = diskFull

	_, err := importer.Import(t.Context(), store, []string{path}, importer.Options{Decoders: decoders})

	if !errors.Is(err, diskFull) {
		t.Errorf("Import = %v, want %v", err, diskFull)
	}
}

func TestImportCancelStopsBetweenBatches(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "many.ndjson"), tenderLines(t, 1201))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	store := newFakeStore()
	store.afterPut = cancel

	got, err := importer.Import(ctx, store, []string{path}, importer.Options{Decoders: decoders, BatchSize: 500})

	if !errors.Is(err, context.Canceled) {
		t.Errorf("Import = %v, want %v", err, context.Canceled)
	}
	if got.Inserted != 500 || len(store.current) != 500 {
		t.Errorf("inserted %d, store holds %d; want the first batch of 500", got.Inserted, len(store.current))
	}
}

func TestImportCorruptArchive(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "data.zip"), "PK\x03\x04 this is not really an archive")

	got := runImport(t, newFakeStore(), []string{path}, importer.Options{})

	want := []importer.Skip{{File: path, Reason: "corrupt zip archive: zip: not a valid zip file"}}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestImportHugeLine(t *testing.T) {
	huge := `{"kind":"tender","record":{"title":"` + strings.Repeat("я", ndjson.MaxLineSize/2+1) + `"}}` + "\n"
	path := writeFile(t, filepath.Join(t.TempDir(), "a.ndjson"), tenderLine(t, "1", 1)+huge+tenderLine(t, "3", 1))

	got := runImport(t, newFakeStore(), []string{path}, importer.Options{})

	want := []importer.Rejection{{File: path, Line: 2, Reason: "line is longer than 16 MiB"}}
	if diff := cmp.Diff(want, got.Rejections); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
	if got.Inserted != 2 {
		t.Errorf("inserted %d, want 2", got.Inserted)
	}
}

func TestImportUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "a.ndjson"), tenderLine(t, "1", 1))
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}

	got := runImport(t, newFakeStore(), []string{path}, importer.Options{})

	want := []importer.Skip{{File: path, Reason: "permission denied"}}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestImportProgress(t *testing.T) {
	dir := t.TempDir()
	plain := tenderLines(t, 30)
	inZip := tenderLine(t, "z", 1)
	writeFile(t, filepath.Join(dir, "a.ndjson"), plain)
	writeFile(t, filepath.Join(dir, "b.bin"), "junk")
	writeFile(t, filepath.Join(dir, "c.zip"), zipBytes(t, member{"c.ndjson", inZip}))
	wantTotal := int64(len(plain) + len("junk") + len(inZip))
	var calls [][2]int64

	runImport(t, newFakeStore(), []string{dir}, importer.Options{
		Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) },
	})

	if len(calls) == 0 {
		t.Fatal("Progress never called")
	}
	for i, c := range calls {
		if c[1] != wantTotal || (i > 0 && c[0] < calls[i-1][0]) {
			t.Fatalf("call %d: done %d of %d after %d; want a total of %d, never going back", i, c[0], c[1], calls[max(i-1, 0)][0], wantTotal)
		}
	}
	if last := calls[len(calls)-1]; last[0] != wantTotal {
		t.Errorf("last call: done %d, want %d", last[0], wantTotal)
	}
}

func TestImportSymbolicLinks(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := writeFile(t, filepath.Join(elsewhere, "a.ndjson"), tenderLine(t, "1", 1))
	if err := os.Symlink(target, filepath.Join(dir, "file-link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "folder-link")); err != nil {
		t.Fatal(err)
	}

	got := runImport(t, newFakeStore(), []string{dir}, importer.Options{})

	want := []importer.Skip{{File: filepath.Join(dir, "folder-link"), Reason: "symbolic link to a folder, not followed"}}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if got.Inserted != 1 {
		t.Errorf("inserted %d, want the 1 record behind the link to a file", got.Inserted)
	}
}

func TestImportDamagedArchiveMember(t *testing.T) {
	var b strings.Builder
	zw := zip.NewWriter(&b)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "a.ndjson", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	// More than PrefixSize, so that the damage shows after detection.
	content := tenderLines(t, 600)
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	// Change one letter of the last record: the member no longer matches
	// its checksum, which shows only at its end, once every line is read.
	data := []byte(b.String())
	at := strings.LastIndex(string(data), "Поставка")
	data[at+len("Поставка")-1]++
	path := writeFile(t, filepath.Join(t.TempDir(), "a.zip"), string(data))

	got := runImport(t, newFakeStore(), []string{path}, importer.Options{})

	want := []importer.Skip{{File: path, Member: "a.ndjson", Reason: "not read to the end: read line 601: zip: checksum error"}}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if got.Inserted != 600 {
		t.Errorf("inserted %d, want all 600 records read before the damage showed", got.Inserted)
	}
}

func TestImportStoreRejectionCountsInItsFile(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "a.ndjson"), tenderLine(t, "1", 1)+tenderLine(t, "2", 1))
	b := writeFile(t, filepath.Join(dir, "b.ndjson"), tenderLine(t, "3", 1))
	store := newFakeStore()
	store.invalid = []string{"2"}

	// The batch of three spans both files and is stored after b is read.
	got := runImport(t, store, []string{dir}, importer.Options{BatchSize: 3})

	want := []importer.FileRead{
		{File: a, Format: "NDJSON", Records: 2, Rejected: 1},
		{File: b, Format: "NDJSON", Records: 1},
	}
	if diff := cmp.Diff(want, got.Read); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if got.Inserted != 2 || got.Rejected != 1 {
		t.Errorf("inserted %d, rejected %d; want 2 and 1", got.Inserted, got.Rejected)
	}
}

// countingDecoder emits a tender for every line of a file that starts with
// "#count", and says how many it has emitted.
type countingDecoder struct{ emitted atomic.Int64 }

func (d *countingDecoder) Name() string { return "count" }
func (d *countingDecoder) Detect(prefix []byte) bool {
	return bytes.HasPrefix(prefix, []byte("#count"))
}

func (d *countingDecoder) Decode(name string, r io.Reader, emit func(int, tenderbase.Record, error) error) error {
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			continue
		}
		d.emitted.Add(1)
		if err := emit(line, &tenderbase.Tender{PurchaseNumber: sc.Text(), Law: tenderbase.Law44, Version: 1,
			Title: "Поставка", PublishedAt: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}, nil); err != nil {
			return err
		}
	}
	return sc.Err()
}

// blockingStore holds its first Put until a condition is met, or fails
// the test after a while.
type blockingStore struct {
	*fakeStore
	until    func() bool
	whenDone func()
	calls    int
}

func (s *blockingStore) Put(ctx context.Context, recs []tenderbase.Record) (tenderbase.PutResult, error) {
	s.calls++
	if s.calls == 1 {
		deadline := time.Now().Add(time.Minute) // far past what a busy machine takes: a hang
		for !s.until() {
			if time.Now().After(deadline) {
				return tenderbase.PutResult{}, errors.New("the next batch was not read while the first was stored")
			}
			time.Sleep(time.Millisecond)
		}
		s.whenDone()
	}
	return s.fakeStore.Put(ctx, recs)
}

func TestImportReadsTheNextBatchWhileOneIsStored(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "many.txt"), "#count\n1\n2\n3\n4\n")
	dec := &countingDecoder{}
	var emittedWhenStored int64
	store := &blockingStore{fakeStore: newFakeStore(),
		until:    func() bool { return dec.emitted.Load() >= 2 },
		whenDone: func() { emittedWhenStored = dec.emitted.Load() },
	}

	got, err := importer.Import(t.Context(), store, []string{path}, importer.Options{Decoders: []importer.Decoder{dec}, BatchSize: 1})

	if err != nil {
		t.Fatal(err)
	}
	if got.Inserted != 4 {
		t.Errorf("inserted %d, want 4", got.Inserted)
	}
	// The second batch was read while the first was stored, and no third:
	// at most two batches are held.
	if emittedWhenStored != 2 {
		t.Errorf("%d records read when the first batch was stored, want 2", emittedWhenStored)
	}
}
