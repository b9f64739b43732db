package export

import (
	"encoding/csv"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// newCSVWriter returns a writer of RFC 4180 records to w: comma-separated,
// quoted where a value holds a comma, a quote or a line break, and lines
// ended with CRLF (a line break within a value too; readers give it back
// as LF). Over a bufio.Writer it adds no buffer of its own.
func newCSVWriter(w io.Writer) *csv.Writer {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	return cw
}

// writeCSV writes record r as a row, after the header row if it is the
// first: one cell a field, in the order of the header. A document holds
// records of one kind, Meta.Kind, the kind its header names.
func (w *Writer) writeCSV(r tenderbase.Record, fields []Field, hidden []bool) error {
	if err := w.csvHeader(); err != nil {
		return err
	}
	v := reflect.ValueOf(r).Elem()
	w.row = w.row[:0]
	for i, f := range fields {
		w.row = append(w.row, w.csvCell(f, valueOf(v, f, hidden[i])))
	}
	w.n++
	return w.csv.Write(w.row)
}

// csvHeader writes the header row, once: the names of the fields of
// Meta.Kind exactly as the spec's table gives them, in its order, the
// order of the records' cells and of the XML and JSON records' fields.
func (w *Writer) csvHeader() error {
	if w.started {
		return nil
	}
	w.started = true
	w.row = w.row[:0]
	for _, f := range Fields(w.meta.Kind) {
		w.row = append(w.row, f.Name)
	}
	if len(w.row) == 0 {
		return nil
	}
	return w.csv.Write(w.row)
}

// csvCell returns the cell of a field. A field hidden from the plan, or
// without a value, is an empty cell, as it is null in JSON and an empty
// element in XML. An xml field is its stored XML text; text that is not
// UTF-8 has its bad bytes replaced, as JSON and XML replace them.
func (w *Writer) csvCell(f Field, val value) string {
	switch {
	case !val.ok:
		return ""
	case f.Type == TypeInt:
		return strconv.FormatInt(val.num, 10)
	case f.Type == TypeBool:
		return strconv.FormatBool(val.flag)
	case f.Type == TypeDate:
		return string(appendDate(w.buf[:0], val.date, w.meta.Compat))
	}
	return strings.ToValidUTF8(val.text, "\uFFFD")
}

// closeCSV ends a CSV document, which is its header row alone when no
// record matched, and flushes it.
func (w *Writer) closeCSV() error {
	if err := w.csvHeader(); err != nil {
		return err
	}
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return err
	}
	return w.bw.Flush()
}
