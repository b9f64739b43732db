package export

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/xlsx"
)

// Meta describes an export document; XML writes it on the root element.
type Meta struct {
	Mode    string
	Page    int // as the caller numbers pages: from Compat.FirstPage()
	PerPage int
	Total   int
	// Kind is the kind of the records; CSV and XLSX write their header
	// row from it, before any record, or alone when none matched.
	Kind tenderbase.Kind
	// Compat is the conventions the document follows: how it writes
	// dates, and whether a JSON list begins with the total.
	Compat Compat
}

// Writer writes an export document record by record. Each record is encoded
// into one reused buffer and passed on to a buffered writer, so that memory
// stays flat however many records go through it; nothing holds the document.
// XLSX is the exception: a workbook is a zip archive whose index comes last,
// so its sheet is held (up to 16 MiB in memory, the rest in a temporary
// file, see internal/xlsx) and sent by Close.
// Close must be called to finish the document and flush it.
type Writer struct {
	bw      *bufio.Writer
	format  Format
	meta    Meta
	hidden  map[tenderbase.Kind][]bool // by kind, whether each of its Fields is hidden
	buf     []byte
	started bool
	n       int
	csv     *csv.Writer  // of format CSV, over bw
	row     []string     // the reused cells of a CSV row
	sheet   *xlsx.Writer // of format XLSX, over bw, begun with the first record
	cells   []any        // the reused cells of an XLSX row
}

// NewWriter returns a Writer of a document in format f to w, for a caller on
// plan p: the fields tenderbase.HiddenFields names for p are written without
// their values.
func NewWriter(w io.Writer, f Format, p tenderbase.Plan, m Meta) *Writer {
	hidden := map[tenderbase.Kind][]bool{}
	for _, e := range Kinds {
		names := tenderbase.HiddenFields(e.Kind, p)
		for _, f := range Fields(e.Kind) {
			hidden[e.Kind] = append(hidden[e.Kind], slices.Contains(names, f.Name))
		}
	}
	ew := &Writer{bw: bufio.NewWriterSize(w, 32<<10), format: f, meta: m, hidden: hidden}
	if f == CSV {
		ew.csv = newCSVWriter(ew.bw)
	}
	return ew
}

// Write writes one record.
func (w *Writer) Write(r tenderbase.Record) error {
	fields := Fields(r.Kind())
	if fields == nil {
		return fmt.Errorf("export: records of kind %s are not exported", r.Kind())
	}
	hidden := w.hidden[r.Kind()]
	if (w.format == CSV || w.format == XLSX) && r.Kind() != w.meta.Kind {
		// A table has one header row: the fields of one kind.
		return fmt.Errorf("export: a %s record in a table of %s records", r.Kind(), w.meta.Kind)
	}
	switch w.format {
	case CSV:
		return w.writeCSV(r, fields, hidden)
	case XLSX:
		return w.writeXLSX(r, fields, hidden)
	}
	w.buf = w.opening(w.buf[:0])
	v := reflect.ValueOf(r).Elem()
	if w.format == JSON {
		// A comma after a record, or after the total TenderGuru's lists
		// begin with.
		if w.n > 0 || w.meta.Compat == CompatTG {
			w.buf = append(w.buf, ",\n"...)
		}
		w.buf = w.appendJSON(w.buf, fields, hidden, v)
	} else {
		w.buf = w.appendXML(w.buf, r.Kind(), fields, hidden, v)
	}
	w.n++
	_, err := w.bw.Write(w.buf)
	return err
}

// Close ends the document and flushes it.
func (w *Writer) Close() error {
	switch w.format {
	case CSV:
		return w.closeCSV()
	case XLSX:
		return w.closeXLSX()
	}
	buf := w.buf[:0]
	if !w.started {
		buf = w.opening(buf)
	}
	if w.format == JSON {
		if w.n > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, "]\n"...)
	} else {
		buf = append(buf, "</export>\n"...)
	}
	if _, err := w.bw.Write(buf); err != nil {
		return err
	}
	return w.bw.Flush()
}

// opening appends the start of the document before the first record:
// in JSON under TenderGuru's conventions, the array's first element is the
// total, {"Total":N}, which its clients read before the records.
func (w *Writer) opening(buf []byte) []byte {
	if w.started {
		return buf
	}
	w.started = true
	if w.format == JSON && w.meta.Compat == CompatTG {
		return appendJSONTotal(append(buf, '['), w.meta.Total)
	}
	if w.format == JSON {
		return append(buf, '[')
	}
	buf = append(buf, xmlHeader...)
	buf = append(buf, `<export mode="`...)
	buf = appendXMLAttr(buf, w.meta.Mode)
	buf = append(buf, `" page="`...)
	buf = strconv.AppendInt(buf, int64(w.meta.Page), 10)
	buf = append(buf, `" per_page="`...)
	buf = strconv.AppendInt(buf, int64(w.meta.PerPage), 10)
	buf = append(buf, `" total="`...)
	buf = strconv.AppendInt(buf, int64(w.meta.Total), 10)
	return append(buf, "\">\n"...)
}

// xmlHeader begins every XML document the export writes.
const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// value is one field of a record as the caller may see it.
type value struct {
	ok   bool // false: hidden, or no value (an empty string, an absent date)
	text string
	num  int64
	flag bool
	date time.Time
}

// valueOf returns field f of record v, as a caller may see it.
func valueOf(v reflect.Value, f Field, hidden bool) value {
	if hidden {
		return value{}
	}
	fv := v.Field(f.index)
	switch f.Type {
	case TypeInt:
		return value{ok: true, num: fv.Int()}
	case TypeBool:
		return value{ok: true, flag: fv.Bool()}
	case TypeDate:
		// Through a pointer, since a time.Time copied into an interface
		// would be allocated anew for every field of every record.
		d := *fv.Addr().Interface().(*time.Time)
		return value{ok: !d.IsZero(), date: d}
	}
	s := fv.String()
	return value{ok: s != "", text: s}
}
