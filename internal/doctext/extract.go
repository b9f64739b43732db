package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// file is one file to read: the one given to Extract or an archive member.
type file struct {
	name  string // the path shown in Members
	r     io.ReaderAt
	size  int64
	depth int // the number of archives around the file
}

// extraction is the state of one Extract: the text so far and what has been
// spent of the limits.
type extraction struct {
	ctx        context.Context
	lim        Limits
	out        textBuilder
	unpacked   int64 // bytes unpacked so far, against lim.MaxUnpackedBytes
	looked     int   // archive members looked at, against lim.MaxMembers
	members    []Member
	incomplete string
}

// errTextFull stops every reader once the text has reached MaxTextBytes:
// what was read is the answer.
var errTextFull = errors.New("text reached its limit")

// errStop stops reading an archive whose remaining members are not to be
// read; Incomplete says why.
var errStop = errors.New("stop reading the archive")

// read reads f in whatever format its content has.
func (e *extraction) read(f file) (format Format, err error) {
	prefix := make([]byte, min(f.size, sniffLen))
	n, _ := f.r.ReadAt(prefix, 0)
	k := sniff(prefix[:n])
	format = k.format()
	defer recoverDamaged(&err, format)
	if k.isArchive() && f.depth >= e.lim.MaxArchiveDepth {
		return format, tooDeep(format, e.lim.MaxArchiveDepth)
	}
	switch k {
	case kindPDF:
		return format, e.pdf(f)
	case kindRTF:
		return format, e.rtf(f)
	case kindZip:
		return e.zip(f)
	case kindRAR:
		return format, e.rar(f)
	case kind7z:
		return format, e.sevenZip(f)
	case kindCFB:
		return e.cfb(f)
	}
	return format, notDocument(prefix[:n])
}

// tooDeep is the error of an archive nested deeper than archives are opened.
func tooDeep(format Format, depth int) error {
	return invalid("a %s archive not opened: archives are opened %d deep at most", format, depth)
}

// recoverDamaged turns a panic of a parser into the error of a damaged
// file: the libraries check what they read, but a file made to break them
// must not take the server down with it.
func recoverDamaged(err *error, format Format) {
	if x := recover(); x != nil {
		*err = invalid("damaged %s: %v", orFile(format), x)
	}
}

// member reads one member of the archive parent, whose content open gives,
// and records what came of it. It returns an error only to stop reading the
// archive: errTextFull, errStop, or the end of ctx.
func (e *extraction) member(parent file, name string, declared int64, open func() (io.ReadCloser, error)) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	if e.looked++; e.looked > e.lim.MaxMembers {
		e.incomplete = fmt.Sprintf("more than %d archive members; the rest were not read", e.lim.MaxMembers)
		return errStop
	}
	f := file{name: memberPath(parent, name), depth: parent.depth + 1}
	i := len(e.members)
	e.members = append(e.members, Member{Name: f.name})
	mark := e.out.Len()
	e.out.Break()
	format, err := e.readMember(f, declared, open)
	m := Member{Name: f.name, Format: format, TextBytes: e.out.Len() - mark}
	switch {
	case err == nil || errors.Is(err, errTextFull) || errors.Is(err, errStop):
	case e.ctx.Err() != nil:
		return e.ctx.Err()
	default:
		e.out.Truncate(mark)
		m.TextBytes, m.Skipped = 0, tenderbase.ErrorMessage(err)
		err = nil
	}
	e.members[i] = m
	if err == nil && e.unpacked >= e.lim.MaxUnpackedBytes {
		e.incomplete = fmt.Sprintf("%s unpacked; the rest was not read", megabytes(e.lim.MaxUnpackedBytes))
		err = errStop
	}
	return err
}

// skip records a member that is not read, for the given reason.
func (e *extraction) skip(parent file, name, reason string) error {
	if e.looked++; e.looked > e.lim.MaxMembers {
		e.incomplete = fmt.Sprintf("more than %d archive members; the rest were not read", e.lim.MaxMembers)
		return errStop
	}
	e.members = append(e.members, Member{Name: memberPath(parent, name), Skipped: reason})
	return nil
}

// readMember unpacks a member into memory, within the limits, and reads it.
func (e *extraction) readMember(f file, declared int64, open func() (io.ReadCloser, error)) (Format, error) {
	if declared > e.lim.MaxFileBytes {
		return "", invalid("has %s, more than the %s read", megabytes(declared), megabytes(e.lim.MaxFileBytes))
	}
	rc, err := open()
	if err != nil {
		return "", invalid("cannot be unpacked: %v", err)
	}
	defer rc.Close()
	data, err := io.ReadAll(e.meter(rc, e.lim.MaxFileBytes))
	if err != nil {
		return "", unpackError(err)
	}
	if len(data) == 0 {
		return "", invalid("is empty")
	}
	f.r, f.size = bytes.NewReader(data), int64(len(data))
	return e.read(f)
}

// archiveResult is the outcome of an archive whose members from index start
// of e.members on were its own: an error if not one of them could be read,
// unless the archive was not read to its end.
func (e *extraction) archiveResult(format Format, start int, err error) error {
	if err != nil {
		return err
	}
	own := e.members[start:]
	if slices.ContainsFunc(own, func(m Member) bool { return m.Skipped == "" }) {
		return nil
	}
	if len(own) == 0 {
		return invalid("the %s archive holds no file", format)
	}
	return invalid("no file in the %s archive is a document read here (%s: %s)", format, own[0].Name, own[0].Skipped)
}

// memberPath names a member by its path through the archives around it.
func memberPath(parent file, name string) string {
	if parent.depth == 0 {
		return name
	}
	return parent.name + "/" + name
}

// meter returns r counting what it reads against MaxUnpackedBytes and
// against max, the most one stream may give (zero for no limit of its
// own), and stopping at the end of ctx.
func (e *extraction) meter(r io.Reader, max int64) io.Reader {
	return &meter{e: e, r: r, max: max}
}

type meter struct {
	e   *extraction
	r   io.Reader
	max int64
	n   int64
}

// errTooLarge and errBudget are the two ways a meter stops.
type (
	errTooLarge struct{ max int64 }
	errBudget   struct{ max int64 }
)

func (e errTooLarge) Error() string { return "unpacks to more than " + megabytes(e.max) }
func (e errBudget) Error() string {
	return "stopped after " + megabytes(e.max) + " unpacked, the most read of one file"
}

func (m *meter) Read(p []byte) (int, error) {
	if err := m.e.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := m.r.Read(p)
	m.n += int64(n)
	m.e.unpacked += int64(n)
	switch {
	case m.max > 0 && m.n > m.max:
		return n, errTooLarge{m.max}
	case m.e.unpacked > m.e.lim.MaxUnpackedBytes:
		return n, errBudget{m.e.lim.MaxUnpackedBytes}
	}
	return n, err
}

// unpackError is the error of a stream that could not be unpacked whole.
func unpackError(err error) error {
	var large errTooLarge
	var budget errBudget
	if errors.As(err, &large) || errors.As(err, &budget) {
		return invalid("%v", err)
	}
	return invalid("cannot be unpacked: %v", err)
}

// invalid returns an error of kind EINVALID.
func invalid(format string, args ...any) error {
	return tenderbase.Errorf(tenderbase.EINVALID, format, args...)
}

// damaged returns the error of a file in format that its reader could not
// read.
func damaged(format Format, err error) error {
	return invalid("damaged %s: %v", format, err)
}

// megabytes writes n bytes for a reader: in MB above one megabyte.
func megabytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.4g MB", float64(n)/(1<<20))
}

// orFile returns the name of format, or "file" when none was told.
func orFile(format Format) string {
	if format == "" {
		return "file"
	}
	return string(format)
}
