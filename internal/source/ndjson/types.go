package ndjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// moscow is the zone a bare date is read in: EIS publishes in Moscow time.
var moscow = tenderbase.Moscow

var (
	timeType = reflect.TypeFor[time.Time]()
	bareDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	digits   = regexp.MustCompile(`^\d+$`)
)

// decodeRecord decodes the record of one line the way the spec's types
// allow (part 2): a bare date in a time field is Moscow midnight, and an
// INN, KPP or purchase number given as a JSON number is the string of its
// digits, left-padded where the number lost leading zeros. Everything else
// is left to tenderbase.DecodeRecord, which stays as strict as it is.
func decodeRecord(k tenderbase.Kind, data []byte) (tenderbase.Record, error) {
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		w := widener{}
		fixed := w.widen(reflect.TypeOf(r).Elem(), nil, v)
		if w.err != nil {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s record: %v", k, w.err)
		}
		if w.changed {
			if b, err := json.Marshal(fixed); err == nil {
				data = b
			}
		}
	}
	return tenderbase.DecodeRecord(k, data)
}

// widener rewrites the spec's looser forms of a record's JSON value to the
// canonical ones, and finds the time fields that hold no time, which
// encoding/json would reject without naming the field.
type widener struct {
	changed bool
	err     error
}

// widen returns v, the JSON value at path of a Go value of type t.
func (w *widener) widen(t reflect.Type, path []string, v any) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case v == nil || w.err != nil:
		return v
	case t == timeType:
		return w.time(path, v)
	case t.Kind() == reflect.String:
		return w.number(path, v)
	case t.Kind() == reflect.Slice:
		return w.elements(t.Elem(), path, v)
	case t.Kind() == reflect.Struct:
		return w.fields(t, path, v)
	}
	return v
}

// time turns a bare date into the RFC 3339 form of its Moscow midnight.
func (w *widener) time(path []string, v any) any {
	s, ok := v.(string)
	if !ok {
		w.notTime(path, tenderbase.JSONTypeName(v))
		return v
	}
	if bareDate.MatchString(s) {
		if d, err := time.ParseInLocation(time.DateOnly, s, moscow); err == nil {
			w.changed = true
			return d.Format(time.RFC3339)
		}
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		w.notTime(path, tenderbase.Quote(s))
	}
	return v
}

func (w *widener) notTime(path []string, got string) {
	w.err = fmt.Errorf(`field %s: expected a date ("2024-03-05") or a time ("2024-03-05T10:00:00+03:00"), got %s`,
		strings.Join(path, "."), got)
}

// number turns a JSON number in an INN, KPP or purchase number field into
// its digits, left-padded to the field's length.
func (w *widener) number(path []string, v any) any {
	n, ok := v.(json.Number)
	if !ok || !digits.MatchString(n.String()) {
		return v
	}
	pad := padderOf(path[len(path)-1])
	if pad == nil {
		return v
	}
	s, ok := pad(n.String())
	if !ok {
		return v
	}
	w.changed = true
	return s
}

// padderOf returns how the field name gives a number back its leading
// zeros, or nil for a field that holds no INN, KPP or purchase number.
func padderOf(name string) func(string) (string, bool) {
	name = strings.ToLower(name)
	switch {
	case strings.HasSuffix(name, "inn"):
		return tenderbase.PadINN
	case strings.HasSuffix(name, "kpp"):
		return tenderbase.PadKPP
	case name == "purchase_number" || name == "purchasenumber":
		return tenderbase.PadPurchaseNumber
	}
	return nil
}

func (w *widener) elements(elem reflect.Type, path []string, v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	// An element keeps the path of its list, as encoding/json names it,
	// so that a list of INNs is padded like one INN.
	for i, item := range list {
		list[i] = w.widen(elem, path, item)
	}
	return list
}

func (w *widener) fields(t reflect.Type, path []string, v any) any {
	obj, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for name, ft := range jsonFields(t) {
		if item, ok := obj[name]; ok {
			obj[name] = w.widen(ft, append(path[:len(path):len(path)], name), item)
		}
	}
	return obj
}

// jsonFields returns the type of every field of the struct type t by its
// JSON name, the fields of embedded structs included, as encoding/json
// names them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			for n, ft := range jsonFields(f.Type) {
				if _, outer := out[n]; !outer {
					out[n] = ft
				}
			}
			continue
		case name == "":
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
