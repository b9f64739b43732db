// Package strictjson holds the JSON that callers send to the one rule
// encoding/json does not check: an object names each member once.
// encoding/json keeps the last of two members of one name and drops the
// other without a word, so {"query":"a","query":"b"} would search for b
// while its sender may have meant a. RFC 8259 leaves the meaning of such an
// object open; I-JSON (RFC 7493) forbids it, and so does the service.
package strictjson

import (
	"bytes"
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenderbase/tenderbase"
)

// Check returns an EINVALID error naming, by its JSON pointer (RFC 6901),
// the first member of data that its object names twice, and nil when there
// is none. Names are compared as decoded, so "a" and "\u0061" are one name.
// Data that is not JSON is not Check's concern: syntax is left to the
// decoder that reads data next, and so is invalid UTF-8 in strings, which
// callers report with the name of the argument that holds it.
func Check(data []byte) error {
	// Validating allocates nothing; only JSON that fails it is decoded
	// again to find where.
	if jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true)) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true))
	_, err := dec.ReadValue()
	var syntax *jsontext.SyntacticError
	if !errors.As(err, &syntax) || !errors.Is(syntax.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	return tenderbase.Errorf(tenderbase.EINVALID, "member %s is given twice; give each member of a JSON object once",
		tenderbase.Quote(string(syntax.JSONPointer)))
}
