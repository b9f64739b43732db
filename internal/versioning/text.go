package versioning

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// NotFound is the error of a record of kind k with key key that no store
// holds. A key is quoted up to its 100th character: one too long to be
// held is not worth repeating whole.
func NotFound(k tenderbase.Kind, key string) error {
	return tenderbase.Errorf(tenderbase.ENOTFOUND, "no %s with key %s", k, tenderbase.Quote(key))
}

// CheckKey returns NotFound for a kind or key that no store can hold, as
// tenderbase.Store says, before a store looks it up.
func CheckKey(k tenderbase.Kind, key string) error {
	if !tenderbase.Holdable(string(k)) || !tenderbase.Holdable(key) {
		return NotFound(k, key)
	}
	return nil
}

// HoldableKeys returns the keys, of many asked for at once, that a store
// can hold: the others find nothing, as CheckKey says of one.
func HoldableKeys(keys []string) []string {
	return slices.DeleteFunc(slices.Clone(keys), func(key string) bool { return !tenderbase.Holdable(key) })
}

// CheckSearch makes the checks of a search that every store makes before
// it runs it, and returns the page the store fills: empty, with q's paging.
// It returns an EINVALID error for bad paging, an unknown kind, a query of
// a kind without text, or a query term that is not text a store holds; and
// findable is false when a lookup of q is one that no record can carry: the
// search then finds nothing, on every store, and the page is the answer.
func CheckSearch(q tenderbase.Search) (page tenderbase.Page, findable bool, err error) {
	if err := q.Validate(); err != nil {
		return page, false, err
	}
	r, err := tenderbase.NewRecord(q.Kind)
	if err != nil {
		return page, false, err
	}
	if q.Query != nil && r.SearchText() == nil {
		return page, false, tenderbase.Errorf(tenderbase.EINVALID, "records of kind %q have no text to search; ask without a query", q.Kind)
	}
	if err := checkQuery(q.Query); err != nil {
		return page, false, err
	}
	page = tenderbase.Page{Page: q.Page, PageSize: q.Size(), Items: []tenderbase.Record{}}
	for _, l := range q.Where {
		if !tenderbase.Holdable(l.Field) || !tenderbase.Holdable(l.Value) {
			return page, false, nil
		}
	}
	return page, true, nil
}

// checkQuery walks a query tree. The parser only makes terms of letters and
// digits; a tree built otherwise may hold anything.
func checkQuery(q tenderbase.Query) error {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		if !tenderbase.Holdable(q.Form) || !tenderbase.Holdable(q.Stem) {
			return tenderbase.Errorf(tenderbase.EINVALID, "query term %q is not text a store can hold", q.Form)
		}
	case tenderbase.PhraseQuery:
		for _, t := range q.Terms {
			if err := checkQuery(t); err != nil {
				return err
			}
		}
	case tenderbase.AndQuery:
		return checkQueries(q.Operands)
	case tenderbase.OrQuery:
		return checkQueries(q.Operands)
	case tenderbase.NotQuery:
		return checkQuery(q.Operand)
	}
	return nil
}

func checkQueries(qs []tenderbase.Query) error {
	for _, q := range qs {
		if err := checkQuery(q); err != nil {
			return err
		}
	}
	return nil
}

// checkRecord refuses a record that holds text no store can hold: a NUL
// byte or invalid UTF-8 in any field, or a key or lookup that is not
// Holdable. The error names the record and the field, for the import's
// report of rejected records.
func checkRecord(r tenderbase.Record) error {
	if path, what := badText(reflect.ValueOf(r)); what != "" {
		return invalidRecord(r, "%s %s", jsonPath(path), what)
	}
	keys := [][2]string{{"the key", r.Key()}}
	if wd, ok := r.(*tenderbase.Withdrawal); ok {
		keys = append(keys, [2]string{"target_key", wd.TargetKey}, [2]string{"target_kind", string(wd.TargetKind)})
	}
	for _, l := range r.Lookups() {
		keys = append(keys, [2]string{"lookup " + l.Field, l.Value})
	}
	for _, k := range keys {
		if len(k[1]) > tenderbase.MaxKeyBytes {
			return invalidRecord(r, "%s is longer than %d bytes", k[0], tenderbase.MaxKeyBytes)
		}
	}
	return nil
}

func invalidRecord(r tenderbase.Record, format string, args ...any) error {
	return tenderbase.Errorf(tenderbase.EINVALID, "%s %.100q: "+format, append([]any{r.Kind(), r.Key()}, args...)...)
}

// jsonPath joins the names and indexes of a path: "lots[0].objects[1].name".
func jsonPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// badText returns the JSON path of the first string under v that holds a
// NUL byte or invalid UTF-8, and which of the two, or "" when there is none.
// The path is built only on the way back from a bad string, so that the
// walk of a good record allocates nothing.
func badText(v reflect.Value) (path []string, what string) {
	switch v.Kind() {
	case reflect.String:
		return nil, textFault(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return badText(v.Elem())
		}
	case reflect.Struct:
		return badField(v)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if path, what := badText(v.Index(i)); what != "" {
				return append([]string{"[" + strconv.Itoa(i) + "]"}, path...), what
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if _, what := badText(it.Key()); what != "" {
				return []string{"[a key]"}, what
			}
			if path, what := badText(it.Value()); what != "" {
				return append([]string{fmt.Sprintf("[%q]", fmt.Sprint(it.Key()))}, path...), what
			}
		}
	}
	return nil, ""
}

// badField is badText of a struct: of the fields that JSON encodes, under
// their JSON names; an embedded struct's fields are the outer struct's.
func badField(v reflect.Value) ([]string, string) {
	for _, f := range jsonFields(v.Type()) {
		path, what := badText(v.Field(f.index))
		switch {
		case what == "":
			continue
		case f.embedded:
			return path, what
		}
		return append([]string{f.name}, path...), what
	}
	return nil, ""
}

// jsonField is a struct field that JSON encodes.
type jsonField struct {
	index    int
	name     string
	embedded bool
}

// fieldsByType caches jsonFields, as encoding/json caches its own: reading
// the tags of a type on every record would cost the walk of a tender as
// much as encoding it.
var fieldsByType sync.Map // reflect.Type to []jsonField

// jsonFields returns the fields of struct type t that JSON encodes.
func jsonFields(t reflect.Type) []jsonField {
	if fs, ok := fieldsByType.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, inner := tag, f.Type
		if name == "" {
			name = f.Name
		}
		if inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		// JSON writes the fields of an untagged embedded struct as its own.
		embedded := f.Anonymous && tag == "" && inner.Kind() == reflect.Struct
		fs = append(fs, jsonField{index: i, name: name, embedded: embedded})
	}
	fieldsByType.Store(t, fs)
	return fs
}

// textFault says what keeps a store from holding s, or "" for nothing.
func textFault(s string) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return "holds a NUL byte"
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	}
	return ""
}
