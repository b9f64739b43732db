package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// restricted collects the fields hidden from the caller in one result.
type restricted map[string]bool

// add notes hidden fields.
func (r restricted) add(fields ...string) {
	for _, f := range fields {
		r[f] = true
	}
}

// list returns the hidden fields sorted.
func (r restricted) list() []string {
	if len(r) == 0 {
		return nil
	}
	out := make([]string, 0, len(r))
	for f := range r {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// mask returns the canonical JSON of rec as the caller's plan may see it and
// notes what it hid.
func (r restricted) mask(rec tenderbase.Record, p tenderbase.Plan) (json.RawMessage, error) {
	body, hidden, err := tenderbase.Masked(rec, p)
	if err != nil {
		return nil, err
	}
	r.add(hidden...)
	return body, nil
}

// maskAll masks every record of recs. The result is never nil, so that an
// empty list is [] in JSON.
func (r restricted) maskAll(recs []tenderbase.Record, p tenderbase.Plan) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(recs))
	for _, rec := range recs {
		body, err := r.mask(rec, p)
		if err != nil {
			return nil, err
		}
		out = append(out, body)
	}
	return out, nil
}

// output encodes a tool's result.
func output(v any, r restricted) (Output, error) {
	body, err := marshal(v)
	if err != nil {
		return Output{}, fmt.Errorf("encode tool result: %w", err)
	}
	return Output{Value: body, Restricted: r.list()}, nil
}

// marshal encodes v as JSON. Like the canonical form of records, it keeps <,
// > and & as they are, so that XML in a record and <placeholders> in a
// schema's descriptions stay readable.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// withMembers returns the JSON object with the members of more, a value
// that encodes as an object, added at its end.
func withMembers(object json.RawMessage, more any) (json.RawMessage, error) {
	tail, err := marshal(more)
	if err != nil {
		return nil, fmt.Errorf("encode tool result: %w", err)
	}
	if len(object) < 2 || object[len(object)-1] != '}' || len(tail) < 2 || tail[0] != '{' {
		return nil, fmt.Errorf("add %s to %s: not two objects", tail, object)
	}
	if len(tail) == 2 {
		return object, nil
	}
	out := slices.Clone(object[:len(object)-1])
	if len(object) > 2 {
		out = append(out, ',')
	}
	return append(out, tail[1:]...), nil
}
