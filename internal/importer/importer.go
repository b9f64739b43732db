// Package importer loads files, folders and zip archives into a store. It
// detects the format of each file from its content and hands the file to the
// decoder of that format; what it could not read, it reports.
package importer

import (
	"archive/zip"
	"context"
	"io"
	"path"
	"path/filepath"

	"github.com/tenderbase/tenderbase"
)

// Decoder reads one source format, such as the canonical NDJSON form.
type Decoder interface {
	// Name names the format in reports, such as "NDJSON".
	Name() string
	// Detect reports whether a file that starts with prefix is in this
	// format. prefix holds the first PrefixSize bytes of the file, or all of
	// a shorter file, and is never empty.
	Detect(prefix []byte) bool
	// Decode reads the records of r, the file or archive member named name
	// (its base name: some formats carry ids in file names), and calls emit
	// once for each: with its
	// position (a line number, or 0 in a format without lines) and either
	// the record or why this record is rejected. A rejected record does not
	// stop decoding. A fault of the file as a whole that costs no record
	// (a header counting other documents than the file holds) is emitted
	// with no record and an error whose method FileNote() bool returns
	// true: the Summary notes it and rejects nothing. Decode returns the
	// error emit returns, at once, or the error that made the rest of r
	// unreadable.
	Decode(name string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error
}

// WholeFiles is implemented by a Decoder whose files are documents, such as
// EIS XML: the records of one file are stored in one transaction, never split
// between two, so that a crash never leaves half a document. The records of
// other formats (a long NDJSON stream) are stored in batches as they come.
type WholeFiles interface {
	WholeFiles() bool
}

// PrefixSize is how much of the start of a file a Decoder's Detect sees.
const PrefixSize = 64 << 10

// DefaultBatchSize is the number of records stored in one transaction. A
// store writes the bitmaps of every word a batch holds once per batch, so
// larger batches write each common word's bitmap less often: importing
// 100,000 tenders into SQLite went from 378 to 708 records/s when batches
// of 500 became 5,000 (docs/performance.md, "Import").
const DefaultBatchSize = 5000

// MaxRejections bounds the rejections a Summary lists; it counts them all.
const MaxRejections = 1000

// Options configure an import.
type Options struct {
	// Decoders are the formats recognized, tried in order. A file none of
	// them detects is skipped.
	Decoders []Decoder
	// BatchSize is the number of records per transaction; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Stored, if not nil, is called with the records of each batch once
	// they are stored.
	Stored func([]tenderbase.Record)
	// Limits bound what one file, archive member and archive may cost;
	// zero fields take DefaultLimits.
	Limits Limits
	// Progress, if not nil, is called as file content is read, with the bytes
	// read so far and the total of every file to be read. Archive members
	// count with their uncompressed size.
	Progress func(done, total int64)
}

// Import reads every path (a file, a folder, walked recursively without its
// hidden files, or a zip archive, read in place) and stores the records found
// in batches, one transaction each.
//
// Problems with the input (a missing path, an unreadable or unrecognized
// file, a corrupt archive, a bad record, a file past one of the Limits) are
// listed in the Summary and do not stop the import. The error is for what does: a store failure, or ctx being
// done, which stops the import between two batches. The Summary then tells
// what had been stored.
func Import(ctx context.Context, store tenderbase.Store, paths []string, opts Options) (Summary, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	opts.Limits = opts.Limits.withDefaults()
	imp := &importer{ctx: ctx, store: store, opts: opts, docs: map[string]map[string]*tenderbase.Doc{}}
	err := imp.readAll(imp.plan(paths))
	// Whatever stopped the reading, the batch being stored is waited for:
	// nothing writes to the store once Import returns.
	if werr := imp.wait(); err == nil {
		err = werr
	}
	return imp.summary, err
}

// readAll reads the inputs and stores what they hold.
func (imp *importer) readAll(inputs []input) error {
	for _, in := range inputs {
		if dir := filepath.Dir(in.path); dir != imp.dir {
			if err := imp.settle(""); err != nil {
				return err
			}
			imp.dir = dir
		}
		if err := imp.read(in); err != nil {
			return err
		}
	}
	if err := imp.settle(""); err != nil {
		return err
	}
	return imp.flush()
}

// importer holds the state of one Import.
type importer struct {
	ctx     context.Context
	store   tenderbase.Store
	opts    Options
	summary Summary
	batch   []pending
	// storing delivers the outcome of the batch being stored, if any
	// (batch.go).
	storing chan outcome
	// reading is the file being read; elsewhere counts the rejections
	// of the store that went to files read before it.
	reading   origin
	elsewhere int
	// wholeFile is set while a file is read whose records must land in one
	// transaction: the batch is stored only between files then.
	wholeFile bool
	done      int64 // bytes read, for Progress
	total     int64
	// fatal is the error that stops the import, kept apart from the read
	// errors a decoder returns, which only end one file.
	fatal error
	// The folder being read, the docs its records named and the files of
	// documentation found in it (attachments.go).
	dir         string
	docs        map[string]map[string]*tenderbase.Doc
	attachments []attachment
	// member is the archive member being read, whose archive is open.
	member *zip.File
}

// pending is a record waiting for its batch to be stored.
type pending struct {
	rec    tenderbase.Record
	origin origin
}

// origin is where a record came from.
type origin struct {
	file   string
	member string
	line   int
}

// baseName returns the base name of the archive member, or of the file.
func (o origin) baseName() string {
	if o.member != "" {
		return path.Base(o.member)
	}
	return filepath.Base(o.file)
}
