package export

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Type is the type of a field as the spec's tables give it, which decides how
// the field is written.
type Type int

// The field types.
const (
	TypeString Type = iota
	TypeInt
	TypeBool
	TypeDate // RFC 3339, as stored
	TypeXML  // an XML fragment, embedded as XML where it is well formed
)

// Field is one field of an export record.
type Field struct {
	Name   string // exactly as in the spec's table
	Type   Type
	Tariff bool // shown to paid plans only
	index  int  // of the record's struct field
}

// xmlFields are the fields the spec types xml.
var xmlFields = map[string]bool{"complaint_indicted_textXML": true, "orgXML": true}

// Kinds are the kinds of record the export writes, with the element name of
// a record in XML.
var Kinds = []struct {
	Kind    tenderbase.Kind
	Element string
}{
	{tenderbase.KindComplaint, "complaint"},
	{tenderbase.KindComplaintResult, "complaintResult"},
	{tenderbase.KindFASCase, "fasCase"},
}

// fieldsOf holds the fields of every kind the export writes, computed once.
var fieldsOf = mustFields()

// Fields returns the fields of records of kind k in the order of the spec's
// table, or nil for a kind the export does not write.
func Fields(k tenderbase.Kind) []Field { return fieldsOf[k] }

// elementOf returns the XML element name of a record of kind k.
func elementOf(k tenderbase.Kind) string {
	for _, e := range Kinds {
		if e.Kind == k {
			return e.Element
		}
	}
	return "record"
}

func mustFields() map[tenderbase.Kind][]Field {
	m := map[tenderbase.Kind][]Field{}
	for _, e := range Kinds {
		fs, err := fieldsFor(e.Kind)
		if err != nil {
			panic(fmt.Sprintf("export: %v", err))
		}
		m[e.Kind] = fs
	}
	return m
}

// fieldsFor derives the fields of kind k from the JSON names of its record
// type, which the root package gives exactly as the spec's table, in the
// table's order: the export and the canonical form cannot drift apart. A
// field tagged export:"-" is kept in the canonical form but is no field of
// the spec, such as the revision of a kind whose spec has none, and is left
// out of the export.
func fieldsFor(k tenderbase.Kind) ([]Field, error) {
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		return nil, err
	}
	t := reflect.TypeOf(r).Elem()
	tariff := map[string]bool{}
	for _, name := range tenderbase.TariffFields[k] {
		tariff[name] = true
	}
	var fs []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Tag.Get("export") == "-" {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		typ, err := typeOf(sf.Type, name)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", k, sf.Name, err)
		}
		fs = append(fs, Field{Name: name, Type: typ, Tariff: tariff[name], index: i})
		delete(tariff, name)
	}
	for name := range tariff {
		return nil, fmt.Errorf("tariff field %s is no field of %s", name, k)
	}
	return fs, nil
}

func typeOf(t reflect.Type, name string) (Type, error) {
	switch {
	case t == reflect.TypeFor[time.Time]():
		return TypeDate, nil
	case t.Kind() == reflect.String && xmlFields[name]:
		return TypeXML, nil
	case t.Kind() == reflect.String:
		return TypeString, nil
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		return TypeInt, nil
	case t.Kind() == reflect.Bool:
		return TypeBool, nil
	}
	return 0, fmt.Errorf("type %s has no export form", t)
}
