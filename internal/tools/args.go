package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/strictjson"
)

// argField is one argument of a tool: a field of its argument struct.
type argField struct {
	name     string // the JSON name
	index    int    // the struct field
	required bool   // no omitempty: the argument must be given
	typ      reflect.Type
	limit    int // from argumentLimits; 0 for an integer, which a range bounds
}

// argFields describes an argument struct for strict decoding. The rule that
// decides which arguments are required is the one the schema generator uses
// (no omitempty or omitzero), so the two agree.
type argFields []argField

// argFieldsOf returns the arguments of the struct type A.
func argFieldsOf[A any]() argFields {
	t := reflect.TypeFor[A]()
	var fields argFields
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		fields = append(fields, argField{
			name:     name,
			index:    i,
			required: !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero"),
			typ:      f.Type,
			limit:    argumentLimits[name],
		})
	}
	return fields
}

// checkBounded returns an error naming an argument that neither a limit nor
// a range bounds: every argument must have a bound a client can read.
func (fs argFields) checkBounded() error {
	for _, f := range fs {
		if f.limit <= 0 && f.typ.Kind() != reflect.Int {
			return fmt.Errorf("argument %q has no limit in argumentLimits", f.name)
		}
	}
	return nil
}

// checkLimit refuses a decoded value past the argument's limit, saying how
// large it is and never echoing it.
func (f argField) checkLimit(v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		if n := utf8.RuneCountInString(v.String()); n > f.limit {
			return argErrorf("argument %q is %d characters long; the limit is %d", f.name, n, f.limit)
		}
	case reflect.Slice:
		if v.Len() > f.limit {
			return argErrorf("argument %q holds %d items; the limit is %d", f.name, v.Len(), f.limit)
		}
	case reflect.Map:
		if v.Len() > f.limit {
			return argErrorf("argument %q holds %d keys; the limit is %d", f.name, v.Len(), f.limit)
		}
	}
	return nil
}

// names lists the arguments for error messages.
func (fs argFields) names() string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// decode decodes raw into dst, a pointer to the argument struct, and then
// checks it if it has a check method. Absent arguments (an empty body or
// null) are an empty object; null for an optional argument is its absence.
// A member given twice, at any depth, is refused. Every mistake is an
// *ArgumentError naming the argument.
func (fs argFields) decode(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var given map[string]json.RawMessage
	if raw[0] != '{' {
		return argErrorf("the arguments must be a JSON object, got %s", jsonType(raw))
	}
	if err := json.Unmarshal(raw, &given); err != nil {
		return argErrorf("the arguments are not valid JSON: %v", err)
	}
	if err := strictjson.Check(raw); err != nil {
		return argErrorf("%s", err)
	}
	if err := fs.checkNames(given); err != nil {
		return err
	}
	if err := checkUTF8(given); err != nil {
		return err
	}
	v := reflect.ValueOf(dst).Elem()
	for _, f := range fs {
		value, ok := given[f.name]
		if !ok || string(bytes.TrimSpace(value)) == "null" {
			if f.required {
				return argErrorf("argument %q is required (%s)", f.name, typeName(f.typ))
			}
			continue
		}
		if err := f.decode(value, v.Field(f.index)); err != nil {
			return err
		}
	}
	if c, ok := dst.(interface{ check() error }); ok {
		return c.check()
	}
	return nil
}

// decode decodes the argument's value into field and checks its limit.
func (f argField) decode(value json.RawMessage, field reflect.Value) error {
	if digitArgs[f.name] && isDigits(value) {
		digits, err := digitString(f.name, value)
		if err != nil {
			return err
		}
		field.SetString(digits)
	} else if err := json.Unmarshal(value, field.Addr().Interface()); err != nil {
		return argErrorf("argument %q must be %s, got %s", f.name, typeName(f.typ), describeValue(value))
	}
	return f.checkLimit(field)
}

// checkNames rejects an argument the tool does not take, naming the ones it
// does, so that a misspelt argument is never silently ignored.
func (fs argFields) checkNames(given map[string]json.RawMessage) error {
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(fs, func(f argField) bool { return f.name == k }) {
			return argErrorf("unknown argument %s; this tool takes %s", tenderbase.Quote(k), fs.names())
		}
	}
	return nil
}

// checkUTF8 refuses an argument that holds bytes that are not UTF-8.
// encoding/json would turn them into U+FFFD, and the tool would then look
// for something its caller never sent: "школа \xff" searched for школа, and
// "\xff" alone was an empty query.
func checkUTF8(given map[string]json.RawMessage) error {
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if !utf8.Valid(given[name]) {
			return argErrorf("argument %q is not valid UTF-8 text", name)
		}
	}
	return nil
}

// typeName names a Go argument type as JSON sees it.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "an integer"
	case reflect.Slice:
		return "an array of integers"
	case reflect.Map:
		return "an object"
	}
	return t.String()
}

// describeValue names what a JSON value is, with the value itself when it is
// short: the caller sees what it sent.
func describeValue(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) <= 20 {
		return jsonType(v) + " " + string(v)
	}
	return jsonType(v)
}

// jsonType names the type of a JSON value by its first byte.
func jsonType(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// digitArgs are the arguments that hold a string of digits: numbers and
// INNs, which some clients send as JSON numbers.
var digitArgs = map[string]bool{"id": true, "tend_num": true, "inn": true}

// maxExactDigits is how many decimal digits a JSON number keeps exactly in
// every client: JavaScript's numbers hold integers up to 2^53.
const maxExactDigits = 15

// digitString takes an INN, a number or an id sent as a JSON number, as some
// clients send strings of digits, and returns its digits. A number too long
// to have survived the client's JSON exactly (a 19-digit purchase number) is
// refused, since it may already be another number.
func digitString(name string, value json.RawMessage) (string, error) {
	digits := string(bytes.TrimSpace(value))
	if len(digits) > maxExactDigits {
		return "", argErrorf("argument %q must be a string: the number has %d digits, more than a JSON number keeps exactly (%d); send it in quotes", name, len(digits), maxExactDigits)
	}
	return digits, nil
}

// isDigits reports whether a JSON value is a plain non-negative integer.
func isDigits(value json.RawMessage) bool {
	value = bytes.TrimSpace(value)
	if len(value) == 0 {
		return false
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
