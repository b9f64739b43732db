package importer

import (
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// Summary tells what an import did.
type Summary struct {
	Files   int            `json:"files"`   // files and archive members read
	Formats map[string]int `json:"formats"` // files read, by the name of their format
	Read    []FileRead     `json:"read"`    // the first MaxListed files read
	Records int            `json:"records"` // records decoded
	tenderbase.PutResult
	Rejected   int         `json:"rejected"`   // records not stored, all of them
	Rejections []Rejection `json:"rejections"` // the first MaxRejections of them
	Skipped    []Skip      `json:"skipped"`    // paths not read, or not to the end
	// Noted are files read whole whose content disagrees with itself, such
	// as a header that counts other documents than the file holds: nothing
	// was rejected, but the file may be cut short.
	Noted []Note `json:"noted"`
}

// MaxListed bounds the files a Summary lists as read; Formats counts them all.
const MaxListed = 1000

// FileRead is a file, or an archive member, that was read: the format it was
// read as and what it held.
type FileRead struct {
	File     string `json:"file"`
	Member   string `json:"member,omitempty"`
	Format   string `json:"format"`
	Records  int    `json:"records"`  // records decoded and passed on to be stored
	Rejected int    `json:"rejected"` // records rejected, not among Records
}

// String returns the file as "file: format, N records".
func (f FileRead) String() string {
	s := fmt.Sprintf("%s: %s, %s", displayName(f.File, f.Member), f.Format, countOf(f.Records, "record"))
	if f.Rejected > 0 {
		s += fmt.Sprintf(", %d rejected", f.Rejected)
	}
	return s
}

// countOf returns "1 record" or "2 records".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (s *Summary) fileRead(f FileRead) {
	if s.Formats == nil {
		s.Formats = map[string]int{}
	}
	s.Formats[f.Format]++
	if len(s.Read) < MaxListed {
		s.Read = append(s.Read, f)
	}
}

// Rejection is a record that was not stored, and why.
type Rejection struct {
	File   string `json:"file"`
	Member string `json:"member,omitempty"` // the path inside the archive File
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// String returns the rejection as "file:line: reason".
func (r Rejection) String() string {
	name := displayName(r.File, r.Member)
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", name, r.Line, r.Reason)
	}
	return fmt.Sprintf("%s: %s", name, r.Reason)
}

// Skip is a path that was not read, or not to its end, and why.
type Skip struct {
	File   string `json:"file"`
	Member string `json:"member,omitempty"`
	Reason string `json:"reason"`
}

// String returns the skip as "file: reason".
func (s Skip) String() string {
	return fmt.Sprintf("%s: %s", displayName(s.File, s.Member), s.Reason)
}

// Note is a file read whole that a decoder found fault with, and what: a
// path and a reason, as a Skip is.
type Note = Skip

// fileNote is implemented by an error a Decoder emits, with no record, to
// note a fault of the file as a whole that costs no record (see Decoder).
type fileNote interface {
	error
	FileNote() bool
}

// displayName names an archive member as "archive.zip!/dir/file.ndjson".
func displayName(file, member string) string {
	if member == "" {
		return file
	}
	return file + "!/" + member
}

func (imp *importer) reject(o origin, reason string) {
	imp.summary.Rejected++
	if len(imp.summary.Rejections) < MaxRejections {
		imp.summary.Rejections = append(imp.summary.Rejections,
			Rejection{File: o.file, Member: o.member, Line: o.line, Reason: reason})
	}
}

// rejectedLater counts a record the store rejected in the FileRead of its
// file. A batch is stored while later files are read: a rejection of a
// file already read goes to its own entry, not to the file being read.
func (imp *importer) rejectedLater(o origin) {
	if o.file == imp.reading.file && o.member == imp.reading.member {
		return // the file being read counts it when it ends
	}
	imp.elsewhere++
	for i := range imp.summary.Read {
		if f := &imp.summary.Read[i]; f.File == o.file && f.Member == o.member {
			f.Rejected++
			return
		}
	}
}

func (imp *importer) note(o origin, reason string) {
	imp.summary.Noted = append(imp.summary.Noted, Note{File: o.file, Member: o.member, Reason: reason})
}

func (imp *importer) skip(file, member, reason string) {
	imp.summary.Skipped = append(imp.summary.Skipped, Skip{File: file, Member: member, Reason: reason})
}
