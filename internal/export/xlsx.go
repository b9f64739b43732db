package export

import (
	"fmt"
	"reflect"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/xlsx"
)

// xlsxKinds are the kinds of the spreadsheet columns of the field types:
// strings, INNs and purchase numbers among them, stay text, never numbers
// that lose their leading zeros and their last digits.
var xlsxKinds = map[Type]xlsx.Kind{
	TypeString: xlsx.Text,
	TypeXML:    xlsx.Text,
	TypeInt:    xlsx.Integer,
	TypeBool:   xlsx.Bool,
	TypeDate:   xlsx.DateTime,
}

// xlsxColumns returns the columns of a sheet of records of kind k: the
// fields of the CSV header row, in its order.
func xlsxColumns(k tenderbase.Kind) []xlsx.Column {
	var cols []xlsx.Column
	for _, f := range Fields(k) {
		cols = append(cols, xlsx.Column{Name: f.Name, Kind: xlsxKinds[f.Type]})
	}
	return cols
}

// writeXLSX writes record r as a row of the sheet, which it begins if r is
// the first: the cells of the CSV row, typed.
func (w *Writer) writeXLSX(r tenderbase.Record, fields []Field, hidden []bool) error {
	if err := w.xlsxSheet(); err != nil {
		return err
	}
	v := reflect.ValueOf(r).Elem()
	w.cells = w.cells[:0]
	for i, f := range fields {
		w.cells = append(w.cells, xlsxCell(f, valueOf(v, f, hidden[i])))
	}
	w.n++
	return w.sheet.Write(w.cells...)
}

// xlsxCell returns the cell of a field: nil, an empty cell, where the CSV
// has one. A date is the moment in Moscow, the registers' time, in which
// the CSV gives its day.
func xlsxCell(f Field, val value) any {
	switch {
	case !val.ok:
		return nil
	case f.Type == TypeInt:
		return val.num
	case f.Type == TypeBool:
		return val.flag
	case f.Type == TypeDate:
		return val.date.In(tenderbase.Moscow)
	}
	return val.text
}

// xlsxSheet begins the sheet, once: named after the mode, its header row
// names the fields of Meta.Kind.
func (w *Writer) xlsxSheet() error {
	if w.started {
		return nil
	}
	w.started = true
	var err error
	w.sheet, err = xlsx.NewWriter(w.bw, w.meta.Mode, xlsxColumns(w.meta.Kind))
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// closeXLSX ends the workbook, which is its header row alone when no
// record matched, and flushes it.
func (w *Writer) closeXLSX() error {
	if err := w.xlsxSheet(); err != nil {
		return err
	}
	if w.sheet == nil {
		return fmt.Errorf("export: the sheet could not be begun")
	}
	if err := w.sheet.Close(); err != nil {
		return err
	}
	return w.bw.Flush()
}

// Filename returns the name a download of page (numbered as the caller
// numbers pages) of request q is saved under: its mode, results for the
// results of a complaint, and the page.
func Filename(q Request, page int) string {
	name := q.Mode
	if KindOf(q) == tenderbase.KindComplaintResult {
		name += "-results"
	}
	return fmt.Sprintf("%s-page-%d.xlsx", name, page)
}
