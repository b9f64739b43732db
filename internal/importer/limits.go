package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
)

// Limits bound what one file may cost an import, so that a small archive
// that unpacks to gigabytes (a zip bomb), or a document with one huge text,
// costs time and memory in proportion to the bounds and not to its size.
// What passes a bound is reported with the bound and the flag that raises
// it, and the import goes on with the next file. A zero field takes its
// value from DefaultLimits.
type Limits struct {
	// MaxEntryBytes bounds one archive member, unpacked.
	MaxEntryBytes int64
	// MaxArchiveBytes bounds all the members of one archive, unpacked:
	// members past it are not read.
	MaxArchiveBytes int64
	// MaxDocumentBytes bounds one file of a format whose files are
	// documents (WholeFiles), such as an EIS notice: a larger one is
	// rejected whole.
	MaxDocumentBytes int64
	// MaxTextBytes bounds the bytes of an XML file between one "<" and the
	// next: an element's text, or a tag with its attributes. A document
	// with a longer one is rejected whole; a file of another format is
	// read no further.
	MaxTextBytes int64
}

// DefaultLimits hold the real files of the publishers many times over. A
// regional EIS archive of a day or a month holds members of a few MB, and
// up to some 100 MB packed, about 1 GB unpacked (EIS XML packs 9 to 1):
// 256 MiB a member, 4 GiB an archive. The largest of 162 real XML
// documents of the publishers is 1.7 MB, and EIS documents up to 64 MiB are
// pruned in memory before they are decoded: 64 MiB a document. The longest text
// between two tags in them is 19 KB, and a doc's text is cut at 2 MiB
// (internal/doctext): 4 MiB a text.
var DefaultLimits = Limits{
	MaxEntryBytes:    256 << 20,
	MaxArchiveBytes:  4 << 30,
	MaxDocumentBytes: 64 << 20,
	MaxTextBytes:     4 << 20,
}

// withDefaults returns l with every zero or negative field set from
// DefaultLimits.
func (l Limits) withDefaults() Limits {
	set := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxEntryBytes, DefaultLimits.MaxEntryBytes)
	set(&l.MaxArchiveBytes, DefaultLimits.MaxArchiveBytes)
	set(&l.MaxDocumentBytes, DefaultLimits.MaxDocumentBytes)
	set(&l.MaxTextBytes, DefaultLimits.MaxTextBytes)
	return l
}

// Size returns n bytes as people read a bound: "256 MiB", "4 GiB", or
// "1000 bytes" when n is no whole number of KiB, MiB or GiB.
func Size(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// memberTooLarge returns why archive member m is not read, by the size
// its archive declares for it, or "". archive/zip never unpacks more than
// that size, so a member is refused before one byte of it is unpacked.
func (l Limits) memberTooLarge(m *zip.File) string {
	if m.UncompressedSize64 > uint64(l.MaxEntryBytes) {
		return fmt.Sprintf("unpacks to %d bytes, more than the %s an archive member may (--max-entry-bytes)",
			m.UncompressedSize64, Size(l.MaxEntryBytes))
	}
	return ""
}

// archiveTooLarge returns why the members of an archive from members[i] on
// are not read, when they would take the archive past its bound, or "".
// read is what the members before them unpack to.
func (l Limits) archiveTooLarge(members []*zip.File, i int, read int64) string {
	if uint64(read)+members[i].UncompressedSize64 <= uint64(l.MaxArchiveBytes) {
		return ""
	}
	return fmt.Sprintf("the archive unpacks to more than %s, the bound of one archive (--max-archive-bytes): this member and the %d after it are not read",
		Size(l.MaxArchiveBytes), len(members)-i-1)
}

// boundedReader reads a file within the bounds set on it, and fails every
// read from the first byte past one of them: what reads it (a decoder)
// sees a read error and stops, and the importer, which set the bounds,
// tells the reason from exceeded, whatever the decoder made of the error.
// Its bounds are set after the file's first bytes are read, once its format
// is known (bound); the bytes read before count.
type boundedReader struct {
	r io.Reader
	// maxRead bounds the bytes read, and what names that bound in a
	// reason; 0 is no bound.
	maxRead  int64
	readWhat string
	read     int64
	// maxRun, when not 0, bounds a run of bytes without a "<"; run is the
	// current one, longest the longest so far.
	maxRun, run, longest int64
	// exceeded is why the file is read no further, once it is.
	exceeded string
}

// errBound is what a boundedReader answers once a bound is passed.
type errBound struct{ reason string }

func (e errBound) Error() string { return e.reason }

// bound sets the bounds of the rest of the file: at most maxRead bytes in
// all, named what in the reason, and, when maxRun is not 0, runs of at most
// maxRun bytes without a "<".
func (b *boundedReader) bound(maxRead int64, what string, maxRun int64) {
	b.maxRead, b.readWhat, b.maxRun = maxRead, what, maxRun
	b.check()
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.exceeded != "" {
		return 0, errBound{b.exceeded}
	}
	if b.maxRead > 0 && int64(len(p)) > b.maxRead-b.read+1 {
		// Never more than one byte past the bound is unpacked.
		p = p[:b.maxRead-b.read+1]
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	b.countRuns(p[:n])
	if b.check() {
		return 0, errBound{b.exceeded}
	}
	return n, err
}

// countRuns follows the runs of bytes without a "<" through p. Inside an
// XML file no text and no attribute holds a "<" (a CDATA section or a
// comment aside), so a long run is a long text.
func (b *boundedReader) countRuns(p []byte) {
	for {
		i := bytes.IndexByte(p, '<')
		if i < 0 {
			b.run += int64(len(p))
			b.longest = max(b.longest, b.run)
			return
		}
		b.longest = max(b.longest, b.run+int64(i))
		b.run, p = 0, p[i+1:]
	}
}

// check sets exceeded when a bound is passed, and reports whether one is.
func (b *boundedReader) check() bool {
	switch {
	case b.exceeded != "":
	case b.maxRead > 0 && b.read > b.maxRead:
		b.exceeded = b.readWhat
	case b.maxRun > 0 && b.longest > b.maxRun:
		b.exceeded = fmt.Sprintf("holds a text or tag of more than %s, the bound of one XML text (--max-text-bytes)", Size(b.maxRun))
	}
	return b.exceeded != ""
}

// looksLikeXML reports whether a file starting with prefix is XML: its
// first byte past a byte order mark and white space is "<".
func looksLikeXML(prefix []byte) bool {
	body := bytes.TrimLeft(bytes.TrimPrefix(prefix, utf8BOM), " \t\r\n")
	return len(body) > 0 && body[0] == '<'
}

// bound sets the bounds of the file of origin o once its format is known:
// an archive member's, a document's and, in XML, a text's.
func (imp *importer) bound(b *boundedReader, o origin, prefix []byte) {
	l := imp.opts.Limits
	var most int64
	var what string
	if o.member != "" {
		most, what = l.MaxEntryBytes, fmt.Sprintf("unpacks to more than %s, the bound of one archive member (--max-entry-bytes)", Size(l.MaxEntryBytes))
	}
	if imp.wholeFile && (most == 0 || l.MaxDocumentBytes < most) {
		most, what = l.MaxDocumentBytes, fmt.Sprintf("is larger than %s, the bound of one document (--max-document-bytes)", Size(l.MaxDocumentBytes))
	}
	var run int64
	if looksLikeXML(prefix) {
		run = l.MaxTextBytes
	}
	b.bound(most, what, run)
}

// fileMark is what the batch and the summary held before a file was
// decoded.
type fileMark struct{ batch, records, rejected, rejections int }

func (imp *importer) mark() fileMark {
	return fileMark{batch: len(imp.batch), records: imp.summary.Records,
		rejected: imp.summary.Rejected, rejections: len(imp.summary.Rejections)}
}

// exceeded reports a file read no further because it passed a bound, why.
// A document is rejected whole: what its decoder made of the part read is
// taken back (its batch is stored only between files, so nothing of it is
// stored yet). A file of another format keeps the records read before.
func (imp *importer) exceeded(o origin, m fileMark, why string) {
	if !imp.wholeFile {
		imp.skip(o.file, o.member, "not read to the end: the file "+why)
		return
	}
	for _, p := range imp.batch[m.batch:] {
		imp.forgetDoc(p)
	}
	imp.batch = imp.batch[:m.batch]
	imp.summary.Records, imp.summary.Rejected = m.records, m.rejected
	imp.summary.Rejections = imp.summary.Rejections[:m.rejections]
	imp.reject(o, "the document "+why+": rejected whole")
}

// Unpackable returns the files of an archive, in order, that l lets be
// unpacked: each within MaxEntryBytes, and together within
// MaxArchiveBytes. A check of a downloaded archive reads only these, so
// that it costs no more than the import that follows it.
func (l Limits) Unpackable(files []*zip.File) []*zip.File {
	l = l.withDefaults()
	var kept []*zip.File
	var unpacked int64
	for i, f := range files {
		if l.memberTooLarge(f) != "" {
			continue
		}
		if l.archiveTooLarge(files, i, unpacked) != "" {
			break
		}
		unpacked += int64(f.UncompressedSize64)
		kept = append(kept, f)
	}
	return kept
}
