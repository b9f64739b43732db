package importer

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// read reads one input. It returns an error only when the import must stop.
func (imp *importer) read(in input) error {
	if in.archive {
		return imp.readArchive(in)
	}
	f, err := os.Open(in.path)
	if err != nil {
		imp.skip(in.path, "", reason(err))
		imp.advance(in.size)
		return nil
	}
	defer f.Close()
	return imp.readFile(f, origin{file: in.path}, in.size)
}

// readArchive reads the members of a zip archive in place, in name order.
func (imp *importer) readArchive(in input) error {
	zr, members, err := openArchive(in.path)
	if err != nil {
		imp.skip(in.path, "", "corrupt zip archive: "+reason(err))
		imp.advance(in.size)
		return nil
	}
	defer zr.Close()
	var unpacked int64
	for i, m := range members {
		if why := imp.opts.Limits.memberTooLarge(m); why != "" {
			imp.skip(in.path, m.Name, why)
			imp.advance(int64(m.UncompressedSize64))
			continue
		}
		if why := imp.opts.Limits.archiveTooLarge(members, i, unpacked); why != "" {
			imp.skip(in.path, m.Name, why)
			for _, rest := range members[i:] {
				imp.advance(int64(rest.UncompressedSize64))
			}
			break
		}
		unpacked += int64(m.UncompressedSize64)
		if err := imp.readMember(in.path, m); err != nil {
			return err
		}
	}
	// The archive's folders end with it; the folder it lies in goes on.
	return imp.settle(imp.dir)
}

func (imp *importer) readMember(archive string, m *zip.File) error {
	size := int64(m.UncompressedSize64)
	rc, err := m.Open()
	if err != nil {
		imp.skip(archive, m.Name, reason(err))
		imp.advance(size)
		return nil
	}
	defer rc.Close()
	imp.member = m
	defer func() { imp.member = nil }()
	return imp.readFile(rc, origin{file: archive, member: m.Name}, size)
}

// readFile detects the format of one file and decodes its records into
// batches. size is what the file counts for in Progress.
func (imp *importer) readFile(r io.Reader, o origin, size int64) error {
	start := imp.done
	defer func() { imp.done = start; imp.advance(size) }()
	bounded := &boundedReader{r: &countingReader{r: r, imp: imp}}
	br := bufio.NewReaderSize(bounded, PrefixSize)
	prefix, err := br.Peek(PrefixSize)
	if err != nil && !errors.Is(err, io.EOF) {
		imp.skip(o.file, o.member, "cannot read: "+reason(err))
		return nil
	}
	dec, why := imp.detect(prefix)
	if dec == nil {
		if !imp.attach(o, prefix, why) {
			imp.skip(o.file, o.member, why)
		}
		return nil
	}
	imp.summary.Files++
	read := imp.summary.Records
	rejected, elsewhere := imp.summary.Rejected, imp.elsewhere
	imp.reading = o
	defer func() {
		imp.reading = origin{}
		imp.summary.fileRead(FileRead{File: o.file, Member: o.member, Format: dec.Name(),
			Records:  imp.summary.Records - read,
			Rejected: imp.summary.Rejected - rejected - (imp.elsewhere - elsewhere)})
	}()
	whole, _ := dec.(WholeFiles)
	imp.wholeFile = whole != nil && whole.WholeFiles()
	imp.bound(bounded, o, prefix)
	before := imp.mark()
	err = dec.Decode(o.baseName(), br, func(line int, rec tenderbase.Record, err error) error {
		return imp.emit(o, line, rec, err)
	})
	if imp.fatal != nil {
		return imp.fatal
	}
	if bounded.exceeded != "" {
		imp.exceeded(o, before, bounded.exceeded)
		return nil
	}
	if imp.wholeFile && len(imp.batch) >= imp.opts.BatchSize {
		if imp.fatal = imp.flush(); imp.fatal != nil {
			return imp.fatal
		}
	}
	if err != nil {
		imp.skip(o.file, o.member, "not read to the end: "+reason(err))
	}
	return nil
}

// detect returns the decoder for a file that starts with prefix, or why there
// is none: the known formats, and what the file looks like instead.
func (imp *importer) detect(prefix []byte) (Decoder, string) {
	if len(prefix) == 0 {
		return nil, "empty file"
	}
	if isZip(prefix) {
		return nil, "zip archive inside a zip archive, not read: unpack the outer one first"
	}
	var names []string
	for _, d := range imp.opts.Decoders {
		if d.Detect(prefix) {
			return d, ""
		}
		names = append(names, d.Name())
	}
	looks := describe(prefix)
	for _, d := range imp.opts.Decoders {
		if e, ok := d.(Explainer); ok {
			if why := e.Explain(prefix); why != "" {
				looks = why
				break
			}
		}
	}
	return nil, fmt.Sprintf("format not recognized (known: %s): %s", strings.Join(names, ", "), looks)
}

// emit takes one decoded record, or the reason it was rejected, and stores a
// batch when one is full.
func (imp *importer) emit(o origin, line int, rec tenderbase.Record, recErr error) error {
	if err := imp.ctx.Err(); err != nil {
		imp.fatal = err
		return err
	}
	o.line = line
	if note, ok := errors.AsType[fileNote](recErr); ok && rec == nil && note.FileNote() {
		imp.note(o, note.Error())
		return nil
	}
	if recErr != nil {
		imp.reject(o, recErr.Error())
		return nil
	}
	imp.summary.Records++
	imp.batch = append(imp.batch, pending{rec: rec, origin: o})
	imp.noteDoc(o, rec)
	if len(imp.batch) < imp.opts.BatchSize || imp.wholeFile {
		return nil
	}
	if err := imp.flush(); err != nil {
		imp.fatal = err
		return err
	}
	return nil
}

// advance counts n more bytes as done.
func (imp *importer) advance(n int64) {
	imp.done += n
	imp.report()
}

func (imp *importer) report() {
	if imp.opts.Progress != nil {
		imp.opts.Progress(imp.done, imp.total)
	}
}

// countingReader counts the bytes read from a file as done.
type countingReader struct {
	r   io.Reader
	imp *importer
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.imp.advance(int64(n))
	}
	return n, err
}
