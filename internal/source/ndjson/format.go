package ndjson

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/tenderbase/tenderbase"
)

// Format is the canonical NDJSON form as a source format the importer can
// detect and decode.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "NDJSON" }

// Detect reports whether a file starting with prefix is canonical NDJSON.
func (Format) Detect(prefix []byte) bool { return Detect(prefix) }

// Decode reads every line of r and calls emit with its line number and its
// record, or with why the line is not a record. It stops when emit returns an
// error and returns that error, or the error that stopped reading.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	rd := NewReader(r)
	for rd.Next() {
		rec, recErr := rd.Record()
		if err := emit(rd.Line(), rec, recErr); err != nil {
			return err
		}
	}
	return rd.Err()
}

// Detect reports whether a file starting with prefix is canonical NDJSON: its
// first non-space byte opens a JSON object whose top level has a non-empty
// string "kind". Only the first line is looked at, and it may be cut off by
// the end of prefix, since a long record need not fit in it; the record
// itself is checked later, line by line.
func Detect(prefix []byte) bool {
	prefix = bytes.TrimPrefix(prefix, bom)
	prefix = bytes.TrimLeft(prefix, " \t\r\n")
	if len(prefix) == 0 || prefix[0] != '{' {
		return false
	}
	if i := bytes.IndexByte(prefix, '\n'); i >= 0 {
		prefix = prefix[:i]
	}
	return hasKind(json.NewDecoder(bytes.NewReader(prefix)))
}

// hasKind reads the top-level keys of the object dec starts with until it
// finds "kind", and reports whether its value is a non-empty string.
func hasKind(dec *json.Decoder) bool {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "kind" {
			kind, err := dec.Token()
			s, ok := kind.(string)
			return err == nil && ok && s != ""
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
