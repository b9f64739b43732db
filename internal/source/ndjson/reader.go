// Package ndjson reads the canonical NDJSON form of records: one envelope
// {"kind": "...", "record": {...}} a line.
package ndjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/tenderbase/tenderbase"
)

// MaxLineSize bounds one line. Real records are far smaller; the bound keeps
// a file without newlines (or a runaway line) from taking all memory.
const MaxLineSize = 16 << 20

// bom is the UTF-8 byte order mark some editors put at the start of a file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader reads records line by line. A line that does not decode is an error
// for that line only: Next moves on to the following line.
//
//	r := ndjson.NewReader(f)
//	for r.Next() {
//		rec, err := r.Record()
//		...
//	}
//	if err := r.Err(); err != nil { ... }
type Reader struct {
	br     *bufio.Reader
	line   int
	record tenderbase.Record
	recErr error
	err    error
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Next advances to the next non-blank line and decodes it. It returns false
// at the end of the input or when reading fails; Err tells which.
func (r *Reader) Next() bool {
	for r.err == nil {
		r.skipBlankLines()
		text, err := r.readLine()
		switch {
		case errors.Is(err, io.EOF):
			return false
		case errors.Is(err, errLineTooLong):
			r.line++
			r.record, r.recErr = nil, tenderbase.Errorf(tenderbase.EINVALID,
				"line is longer than %d MiB", MaxLineSize>>20)
			return true
		case err != nil:
			r.err = fmt.Errorf("read line %d: %w", r.line+1, err)
			return false
		}
		r.line++
		if r.line == 1 {
			text = bytes.TrimPrefix(text, bom)
		}
		if len(bytes.TrimSpace(text)) > 0 {
			r.record, r.recErr = decodeLine(text)
			return true
		}
	}
	return false
}

var errLineTooLong = errors.New("line too long")

// skipBlankLines passes over the blank lines ahead, a buffer at a time and
// counting them: a file of a billion newlines costs a scan of its bytes,
// not the work of reading a line a billion times.
func (r *Reader) skipBlankLines() {
	for {
		if _, err := r.br.Peek(1); err != nil {
			return // readLine meets the end or the error
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		end, lines := 0, 0 // past the last newline of the blank run; its lines
		i := 0
		for ; i < len(buf) && isSpace(buf[i]); i++ {
			if buf[i] == '\n' {
				end, lines = i+1, lines+1
			}
		}
		r.line += lines
		_, _ = r.br.Discard(end) // buffered bytes: it cannot fail
		if i < len(buf) || end == 0 {
			return // a line that is not blank, or blank bytes without their newline yet
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// readLine returns the next line without its line ending, or io.EOF when
// the input has no more lines. A line over MaxLineSize is read to its end and
// dropped, and errLineTooLong says so.
func (r *Reader) readLine() ([]byte, error) {
	const room = MaxLineSize + 2 // for the line ending "\r\n"
	var line []byte
	read := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		read += len(chunk)
		if read <= room {
			line = append(line, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && read == 0:
			return nil, io.EOF
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if read > room || len(line) > MaxLineSize {
			return nil, errLineTooLong
		}
		return line, nil
	}
}

// Line returns the number of the line Next last read, from 1.
func (r *Reader) Line() int { return r.line }

// Record returns the record of the current line, or why the line is not one.
// Such an error is an EINVALID *tenderbase.Error.
func (r *Reader) Record() (tenderbase.Record, error) { return r.record, r.recErr }

// Err returns the error that stopped reading, or nil at the end of the input.
func (r *Reader) Err() error { return r.err }

// decodeLine decodes one NDJSON line into a record.
func decodeLine(line []byte) (tenderbase.Record, error) {
	env, err := tenderbase.ReadEnvelope(line)
	if err != nil {
		return nil, err
	}
	return decodeRecord(env.Kind, env.Record)
}
