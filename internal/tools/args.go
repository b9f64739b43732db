package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
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
		if f.limit <= 0 && f.typ.Kind() != reflect.Int && f.typ.Kind() != reflect.Bool {
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
	plain, err := f.plain(value, f.typ)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(plain, field.Addr().Interface()); err != nil {
		return argErrorf("argument %q must be %s, got %s", f.name, formName(f.typ), describeValue(value))
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
	case reflect.Bool:
		return "a boolean"
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

// Scalars in the other form. Some clients send a string of digits as a
// JSON number (the Inspector CLI reads each --tool-arg value as JSON, so
// inn=7707083893 goes as a number), and some an integer as a string ("77").
// Every argument takes the other form wherever nothing is lost, whatever
// its name: a string argument a number of digits alone, an integer
// argument a string of digits alone, in arrays too. The token's own text
// is read, never a float64, so no digit changes on the way. An input
// schema keeps its one type and leaves this unsaid: a client that sends
// the schema's type never needs it, a model reads every word of every
// schema, and a type array or anyOf would be less portable.

// maxExactInteger is the largest integer a JSON number keeps exactly in
// every client: JavaScript's numbers are doubles (Number.MAX_SAFE_INTEGER).
const maxExactInteger = 1<<53 - 1

// plain returns value, given for an argument of the Go type t, in t's own
// JSON form where it is the other form of the same digits: 7707083893 for a
// string is "7707083893", "77" for an integer is 77, item by item in an
// array. Anything else comes back as it is, for json.Unmarshal to take or
// refuse: a sign, a fraction or an exponent is not digits alone.
func (f argField) plain(value json.RawMessage, t reflect.Type) (json.RawMessage, error) {
	value = bytes.TrimSpace(value)
	switch t.Kind() {
	case reflect.String:
		if isDigits(value) {
			return f.digitString(value)
		}
	case reflect.Int:
		var s string
		if jsonType(value) == "a string" && json.Unmarshal(value, &s) == nil && isDigits([]byte(s)) {
			return json.RawMessage(trimZeros(s)), nil
		}
	case reflect.Slice:
		var items []json.RawMessage
		if jsonType(value) != "an array" || json.Unmarshal(value, &items) != nil {
			return value, nil
		}
		for i, item := range items {
			p, err := f.plain(item, t.Elem())
			if err != nil {
				return nil, err
			}
			items[i] = p
		}
		return json.Marshal(items)
	}
	return value, nil
}

// digitString returns a number of digits alone, given for a string
// argument, as the string of its digits. A number past maxExactInteger is
// refused, since a client's JSON may already have rounded it to another
// number, as JavaScript does a 19-digit purchase number.
func (f argField) digitString(value json.RawMessage) (json.RawMessage, error) {
	if n, err := strconv.ParseUint(string(value), 10, 64); err != nil || n > maxExactInteger {
		number := string(value)
		if len(number) > 20 {
			number = fmt.Sprintf("of %d digits", len(value))
		}
		return nil, argErrorf("argument %q must be a string: the number %s is past %d (2^53-1), the largest integer a JSON number keeps exactly in every client; send it in quotes", f.name, number, maxExactInteger)
	}
	return json.Marshal(string(value))
}

// isDigits reports whether b is digits alone: no sign, fraction, exponent
// or space.
func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// trimZeros returns digits without leading zeros ("07" is 7), which a JSON
// number may not have.
func trimZeros(digits string) string {
	if t := strings.TrimLeft(digits, "0"); t != "" {
		return t
	}
	return "0"
}

// formName names the JSON forms an argument of type t takes, for errors.
func formName(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.String:
		return "a string, or a number of digits alone"
	case t.Kind() == reflect.Int:
		return "an integer, or a string of digits alone"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Int:
		return "an array of integers, or of strings of digits alone"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "an array of strings, or of numbers of digits alone"
	}
	return typeName(t)
}
