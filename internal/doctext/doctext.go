// Package doctext extracts plain text from the files of procurement
// documentation, so that search finds a word that occurs only inside an
// attached file.
//
// It reads PDF (the text layer), DOCX, Word 97-2003 (.doc), XLSX, ODT, ODS
// and RTF, and zip, RAR and 7z archives holding any of these, archives
// inside archives up to [Limits.MaxArchiveDepth]. The format is told by the content, not by the
// name: a DOCX, an XLSX, an ODT and a plain zip archive all begin alike, and
// what tells them apart is the members inside. The name's extension serves
// only where the content leaves a doubt: an OpenDocument that lacks the
// member naming its type. An OLE compound file is told by the streams it
// holds: a Word 97-2003 document is read, by hand on a compound file
// library (doc.go says why); an Excel 97-2003 workbook, a PowerPoint
// presentation or an Office document locked with a password is refused
// with a message naming which.
//
// Not read, each refused with an error of kind [tenderbase.EINVALID] that
// says so:
//   - Excel 97-2003 workbooks (.xls): no well-kept pure Go library reads
//     them; Word 6.0 and 95 documents, whose layout is not Word 97's;
//   - PowerPoint, plain text, HTML, pictures and everything else;
//   - files and archives that need a password to be opened (a PDF that
//     asks one only to be changed is read; a Word document locked with a
//     password, or obfuscated, is refused), and multi-volume archives.
//
// Left out of the files read: pictures, and so the text of a scanned PDF,
// which has no text layer (nothing here recognises characters); embedded
// objects and form fields; in a Word 97-2003 document, the instructions of
// fields (a hyperlink's address), of which the text shown is kept; in RTF,
// text boxes of drawn shapes, and text in the code page of Chinese,
// Japanese or Korean unless it is written as \u escapes, as current
// writers do; in a PDF, the pages that its reader cannot read, when others
// can be.
//
// Every limit is a guard against files made to exhaust the reader: the bytes
// unpacked are counted as they come out of the decompressor, so an archive
// that lies about its members' sizes is stopped all the same.
package doctext

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Format names a file format this package tells apart.
type Format string

// The formats read. A member that is none of them has no Format.
const (
	PDF      Format = "PDF"
	DOCX     Format = "DOCX"
	XLSX     Format = "XLSX"
	ODT      Format = "ODT"
	ODS      Format = "ODS"
	RTF      Format = "RTF"
	DOC      Format = "DOC" // Word 97-2003
	Zip      Format = "zip"
	RAR      Format = "RAR"
	SevenZip Format = "7z"
)

// Limits bound the work of one Extract. A zero field takes its value from
// DefaultLimits.
type Limits struct {
	// MaxFileBytes is the size of the largest file read: the file given,
	// and every archive member once unpacked.
	MaxFileBytes int64
	// MaxUnpackedBytes bounds all the bytes unpacked for one file together:
	// archive members and the XML inside DOCX, XLSX, ODT and ODS files, the
	// streams of a Word 97-2003 document, and the content streams of a PDF.
	MaxUnpackedBytes int64
	// MaxTextBytes is the length of the longest text returned; longer text
	// is cut at a character boundary.
	MaxTextBytes int
	// MaxArchiveDepth is how deep archives are opened: 1 reads the
	// documents in an archive, 2 also those in an archive inside it.
	MaxArchiveDepth int
	// MaxMembers is the number of archive members looked at, counting those
	// of nested archives.
	MaxMembers int
}

// DefaultLimits are generous for real procurement documentation, whose
// files are rarely above a few megabytes, and small enough for a server
// that reads several files at once.
var DefaultLimits = Limits{
	MaxFileBytes:     50 << 20,
	MaxUnpackedBytes: 200 << 20,
	MaxTextBytes:     2 << 20,
	MaxArchiveDepth:  2,
	MaxMembers:       200,
}

// withDefaults returns lim with every zero field set from DefaultLimits.
func (lim Limits) withDefaults() Limits {
	d := DefaultLimits
	if lim.MaxFileBytes <= 0 {
		lim.MaxFileBytes = d.MaxFileBytes
	}
	if lim.MaxUnpackedBytes <= 0 {
		lim.MaxUnpackedBytes = d.MaxUnpackedBytes
	}
	if lim.MaxTextBytes <= 0 {
		lim.MaxTextBytes = d.MaxTextBytes
	}
	if lim.MaxArchiveDepth <= 0 {
		lim.MaxArchiveDepth = d.MaxArchiveDepth
	}
	if lim.MaxMembers <= 0 {
		lim.MaxMembers = d.MaxMembers
	}
	return lim
}

// Text is the text of one file and an account of what was read.
type Text struct {
	// Text is valid UTF-8 without control characters: paragraphs end in
	// one newline, every other run of white space is one space.
	Text string
	// Format is the format of the file itself.
	Format Format
	// Members lists, for an archive, every member looked at in the order
	// of the archive, nested members named by their path through the
	// archives that hold them ("a.zip/b.pdf"). Directories are left out.
	Members []Member
	// Incomplete says why not everything was read, when it was not: the
	// text reached MaxTextBytes, or an archive had more than MaxMembers
	// members.
	Incomplete string
}

// Member is one file inside an archive.
type Member struct {
	Name   string
	Format Format // "" for a member that is no document read here
	// TextBytes is the length of the text the member gave.
	TextBytes int
	// Skipped says why the member gave no text; "" for one that was read.
	Skipped string
}

// Extract returns the text of the file of the given size read from r, whose
// name serves only to word messages. A file in no format read here, or
// damaged, is an error of kind EINVALID saying what is wrong; a file that
// could not be read from r, or the end of ctx, is any other error.
//
// An archive with some members that cannot be read gives the text of the
// others and lists the rest in Members with the reason. An archive none of
// whose members could be read is an EINVALID error, returned together with
// the Text that lists them.
func Extract(ctx context.Context, name string, r io.ReaderAt, size int64, lim Limits) (Text, error) {
	lim = lim.withDefaults()
	if size == 0 {
		return Text{}, invalid("the file is empty")
	}
	if size > lim.MaxFileBytes {
		return Text{}, invalid("the file has %s, more than the %s read", megabytes(size), megabytes(lim.MaxFileBytes))
	}
	src := &sourceReader{r: r, size: size}
	e := &extraction{ctx: ctx, lim: lim, out: textBuilder{max: lim.MaxTextBytes}}
	format, err := e.read(file{name: name, r: src, size: size})
	switch {
	case errors.Is(err, errTextFull):
		e.incomplete = fmt.Sprintf("the text is longer than %s; the rest was not read", megabytes(int64(lim.MaxTextBytes)))
		err = nil
	case errors.Is(err, errStop):
		err = nil
	}
	switch {
	case src.err != nil:
		return Text{}, fmt.Errorf("read %s: %w", name, src.err)
	case ctx.Err() != nil:
		return Text{}, fmt.Errorf("extract text of %s: %w", name, context.Cause(ctx))
	case err != nil:
		return Text{Format: format, Members: e.members}, err
	}
	return Text{Text: e.out.String(), Format: format, Members: e.members, Incomplete: e.incomplete}, nil
}

// Supported reports whether a file starting with prefix is in a format that
// Extract reads, or an archive that may hold one, or an OLE compound file,
// which may be a Word 97-2003 document (an Excel one begins alike). A few hundred bytes are
// enough to tell.
func Supported(prefix []byte) bool {
	switch sniff(prefix) {
	case kindPDF, kindRTF, kindZip, kindRAR, kind7z, kindCFB:
		return true
	}
	return false
}

// sourceReader keeps the first error of the caller's reader other than the
// end of the file, so that a failing disk is not blamed on the file. It
// answers reads outside the file itself, which a parser of a damaged file
// may ask for, and which some readers would fail otherwise.
type sourceReader struct {
	r    io.ReaderAt
	size int64
	err  error
}

func (s *sourceReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= s.size {
		return 0, io.EOF
	}
	short := int64(len(p)) > s.size-off
	if short {
		p = p[:s.size-off]
	}
	n, err := s.r.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) && s.err == nil {
		s.err = err
	}
	if err == nil && short {
		err = io.EOF
	}
	return n, err
}
