package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/doctext"
)

// A file of documentation (a PDF, a DOCX...) imported beside its notice,
// in the same folder or the same folder of an archive, gives its text to
// the doc record of that notice that names the file: docs.search then finds
// the words inside it. Folders are read one at a time (plan orders them so),
// so that only the docs of the folder being read are kept in memory.

// attachment is a file of documentation met among the files imported.
type attachment struct {
	group  string // the folder it is in: a path, or "archive!/folder"
	name   string // its base name
	file   string // for reports: the file, or the archive
	member string
	// unnamed is the reason to skip it with when no doc names it.
	unnamed string
	// read returns the file's content to extract the text of.
	read func() (io.ReaderAt, int64, func(), error)
}

// group names the folder a record or file of origin o comes from.
func (o origin) group() string {
	if o.member != "" {
		return o.file + "!/" + path.Dir(o.member)
	}
	return filepath.Dir(o.file)
}

// docKey is how a doc's file name and an attachment's name are matched:
// EIS names files as their uploaders did, and disks differ in case.
func docKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// noteDoc remembers a doc record of the folder being read, to give it the
// text of its file if that file is there too.
func (imp *importer) noteDoc(o origin, rec tenderbase.Record) {
	doc, ok := rec.(*tenderbase.Doc)
	if !ok || doc.FileName == "" {
		return
	}
	g := o.group()
	if imp.docs[g] == nil {
		imp.docs[g] = map[string]*tenderbase.Doc{}
	}
	imp.docs[g][docKey(doc.FileName)] = doc
}

// forgetDoc takes back what noteDoc remembered of a record that is not to
// be stored after all.
func (imp *importer) forgetDoc(p pending) {
	doc, ok := p.rec.(*tenderbase.Doc)
	if !ok {
		return
	}
	g, k := p.origin.group(), docKey(doc.FileName)
	if imp.docs[g][k] == doc {
		delete(imp.docs[g], k)
	}
}

// attach takes a file no decoder reads: a file of documentation waits for
// the end of its folder; anything else is skipped, as before.
func (imp *importer) attach(o origin, prefix []byte, why string) bool {
	if !doctext.Supported(prefix) {
		return false
	}
	a := attachment{group: o.group(), name: o.baseName(), file: o.file, member: o.member,
		unnamed: "a file of documentation with no notice beside it that names it: import it together with its notice"}
	if isZip(prefix) && o.member != "" {
		// Far more often an archive of source files packed twice.
		a.unnamed = why
	}
	if o.member == "" {
		a.read = func() (io.ReaderAt, int64, func(), error) { return openFile(o.file) }
	} else {
		m := imp.member
		a.read = func() (io.ReaderAt, int64, func(), error) { return readMemberAgain(m) }
	}
	imp.attachments = append(imp.attachments, a)
	return true
}

// settle gives the docs of the folders read so far the text of their files,
// and forgets those folders. keep names a folder still being read, left
// for later; "" settles every folder.
func (imp *importer) settle(keep string) error {
	var rest []attachment
	for _, a := range imp.attachments {
		if a.group == keep {
			rest = append(rest, a)
			continue
		}
		if err := imp.attachText(a); err != nil {
			return err
		}
	}
	imp.attachments = rest
	for g := range imp.docs {
		if g != keep {
			delete(imp.docs, g)
		}
	}
	return nil
}

// attachText reads the text of one attachment into the doc that names it.
func (imp *importer) attachText(a attachment) error {
	doc := imp.docs[a.group][docKey(a.name)]
	if doc == nil {
		imp.skip(a.file, a.member, a.unnamed)
		return nil
	}
	r, size, done, err := a.read()
	if err != nil {
		imp.skip(a.file, a.member, "cannot read: "+reason(err))
		return nil
	}
	defer done()
	text, err := doctext.Extract(imp.ctx, a.name, r, size, doctext.Limits{})
	if err != nil {
		if imp.ctx.Err() != nil {
			return imp.ctx.Err()
		}
		imp.skip(a.file, a.member, "no text read: "+tenderbase.ErrorMessage(err))
		return nil
	}
	withText := *doc
	withText.Text = text.Text
	imp.summary.Files++
	imp.summary.fileRead(FileRead{File: a.file, Member: a.member, Format: "documentation (" + string(text.Format) + ")", Records: 1})
	o := origin{file: a.file, member: a.member}
	imp.summary.Records++
	imp.batch = append(imp.batch, pending{rec: &withText, origin: o})
	if len(imp.batch) >= imp.opts.BatchSize {
		return imp.flush()
	}
	return nil
}

// openFile opens a file on disk for its text to be read.
func openFile(p string) (io.ReaderAt, int64, func(), error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, info.Size(), func() { f.Close() }, nil
}

// readMemberAgain reads an archive member into memory, for its text: a
// member can only be read from its start. Its archive is still open: the
// archive's folders are settled before it is closed. doctext's own bound on
// a file's size bounds the memory.
func readMemberAgain(m *zip.File) (io.ReaderAt, int64, func(), error) {
	if m.UncompressedSize64 > uint64(doctext.DefaultLimits.MaxFileBytes) {
		return nil, 0, nil, fmt.Errorf("%d bytes, more than a file of documentation is read", m.UncompressedSize64)
	}
	rc, err := m.Open()
	if err != nil {
		return nil, 0, nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, doctext.DefaultLimits.MaxFileBytes+1))
	if err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(b), int64(len(b)), func() {}, nil
}
