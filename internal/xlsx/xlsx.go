// Package xlsx writes a table as an XLSX workbook (an Office Open XML
// spreadsheet, ECMA-376) of one sheet: a header row, frozen, then one row a
// record, each cell typed by its column, so that a spreadsheet reads money
// as numbers, dates as dates, and INNs and purchase numbers as the text
// they are. It knows nothing of the records it is given: any table, an
// export page or an aggregate, is a list of columns and rows of values.
package xlsx

import (
	"archive/zip"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	// github.com/xuri/excelize/v2 is the spreadsheet library of Go, kept up
	// by its authors for years, and already the reader of spreadsheets
	// attached to notices (internal/doctext). Its StreamWriter writes a row
	// as XML at once and keeps at most 16 MiB of them in memory, the rest
	// in a temporary file, so that memory stays flat however many rows a
	// table has.
	"github.com/xuri/excelize/v2"
)

// Kind is the kind of a column's values, which decides the type of its
// cells and how a spreadsheet shows them.
type Kind int

// The kinds of columns, each with the Go type of its values. A nil value,
// or a zero time, is an empty cell in a column of any kind.
const (
	// Text is a string cell, which a spreadsheet never reads as a number
	// or a formula: INNs and purchase numbers keep their leading zeros and
	// all their digits, and a value beginning with = stays text. string.
	Text Kind = iota
	// Integer is a whole number shown without separators: ids, versions,
	// counts. int or int64.
	Integer
	// Money is an amount of a currency's units, a number shown with two
	// decimals and thousands apart (1,234.50, as the reader's locale
	// writes it). float64, to the kopeck, as tenderbase.Amount gives it.
	Money
	// Date is a day, a date cell shown as 2006-01-02. time.Time.
	Date
	// DateTime is a moment, a date cell shown as 2006-01-02 15:04:05: the
	// wall clock of the time's own location, since a cell has no time
	// zone. time.Time.
	DateTime
	// Bool is a logical cell, TRUE or FALSE. bool.
	Bool
	// Decimal is a number shown with two decimals and no separators:
	// percentages, means (12.34). float64.
	Decimal
)

// Column is a column of a table: the name its header cell holds, and the
// kind of its values.
type Column struct {
	Name string
	Kind Kind
}

// MaxCellChars is the most characters a cell holds (UTF-16 code units, as
// Excel counts them): a longer value is cut to it, ending with cutMark, so
// that a reader sees it was cut: it is the format's bound, and no
// spreadsheet program shows more of a cell.
const MaxCellChars = 32767

// Creator is the author a workbook names in its properties.
const Creator = "Tenderbase"

// cutMark ends a value cut to MaxCellChars.
const cutMark = "…"

// numberFormats are the number formats of the cells of each kind; a
// boolean has none. Text has the text format, @, so that a value typed
// into its column later stays text too.
var numberFormats = map[Kind]string{
	Text:     "@",
	Integer:  "0",
	Money:    "#,##0.00",
	Date:     "yyyy-mm-dd",
	DateTime: "yyyy-mm-dd hh:mm:ss",
	Decimal:  "0.00",
}

// widths are the widths of the columns of each kind, in characters, for a
// first look without resizing; a long header widens its column.
var widths = map[Kind]float64{Text: 30, Integer: 12, Money: 18, Date: 12, DateTime: 20, Bool: 8, Decimal: 10}

// Writer writes a table to an XLSX workbook row by row. Nothing reaches
// the underlying writer before Close, which writes the whole file: a
// workbook is a zip archive whose index comes last. Close must be called,
// also after an error, to remove the temporary file a large table spills
// into.
type Writer struct {
	out    io.Writer
	file   *excelize.File
	stream *excelize.StreamWriter
	cols   []Column
	styles []int // by column, the style of its cells
	row    []any // the reused cells of a row
	rows   int   // rows written, the header row included
	closed bool
}

// NewWriter returns a Writer of a workbook to w with one sheet called
// sheet, whose first row names cols. A sheet name is 1 to 31 characters,
// none of : \ / ? * [ ], and does not begin or end with an apostrophe.
func NewWriter(w io.Writer, sheet string, cols []Column) (*Writer, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("xlsx: a table of no columns")
	}
	file := excelize.NewFile()
	xw := &Writer{out: w, file: file, cols: cols}
	if err := xw.start(sheet); err != nil {
		_ = file.Close()
		return nil, err
	}
	return xw, nil
}

// start names the workbook's author and time and the sheet, makes the
// styles of the columns, sets their widths, freezes the header row and
// writes it.
func (w *Writer) start(sheet string) error {
	// Left alone, the library's template names its own author and a date
	// of 2006 as the workbook's.
	now := time.Now().UTC().Format(time.RFC3339)
	if err := w.file.SetDocProps(&excelize.DocProperties{Creator: Creator, Created: now, Modified: now}); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	if err := w.file.SetSheetName(w.file.GetSheetName(0), sheet); err != nil {
		return fmt.Errorf("xlsx: sheet name %q: %w", sheet, err)
	}
	var err error
	if w.stream, err = w.file.NewStreamWriter(sheet); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	if err := w.setColumns(); err != nil {
		return err
	}
	if err := w.stream.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	return w.setRow()
}

// setColumns makes the style of each column's cells, sets its width, and
// puts its name, bold, in the header row.
func (w *Writer) setColumns() error {
	header, err := w.file.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	for i, c := range w.cols {
		if _, known := widths[c.Kind]; !known {
			return fmt.Errorf("xlsx: column %s of unknown kind %d", c.Name, c.Kind)
		}
		style, err := w.style(c.Kind)
		if err != nil {
			return err
		}
		w.styles = append(w.styles, style)
		width := max(widths[c.Kind], float64(utf8.RuneCountInString(c.Name)+2))
		if err := w.stream.SetColWidth(i+1, i+1, width); err != nil {
			return fmt.Errorf("xlsx: %w", err)
		}
		w.row = append(w.row, excelize.Cell{StyleID: header, Value: c.Name})
	}
	return nil
}

// style returns the style of the cells of a column of kind k: its number
// format, or none.
func (w *Writer) style(k Kind) (int, error) {
	format, ok := numberFormats[k]
	if !ok {
		return 0, nil
	}
	style, err := w.file.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return 0, fmt.Errorf("xlsx: number format %s: %w", format, err)
	}
	return style, nil
}

// Write writes one row: a value a column, in the columns' order, of the
// Go type its column's kind takes, or nil for an empty cell.
func (w *Writer) Write(values ...any) error {
	if w.closed {
		return fmt.Errorf("xlsx: a row written after Close")
	}
	if len(values) != len(w.cols) {
		return fmt.Errorf("xlsx: a row of %d values in a table of %d columns", len(values), len(w.cols))
	}
	w.row = w.row[:0]
	for i, v := range values {
		cell, err := w.cell(w.cols[i], v)
		if err != nil {
			return err
		}
		if cell != nil {
			cell = excelize.Cell{StyleID: w.styles[i], Value: cell}
		}
		w.row = append(w.row, cell)
	}
	return w.setRow()
}

// setRow writes the reused row as the next row of the sheet.
func (w *Writer) setRow() error {
	w.rows++
	ref, err := excelize.CoordinatesToCellName(1, w.rows)
	if err == nil {
		err = w.stream.SetRow(ref, w.row)
	}
	if err != nil {
		return fmt.Errorf("xlsx: row %d: %w", w.rows, err)
	}
	return nil
}

// cell returns the value of a cell of column c holding v, nil for an empty
// cell, or an error when v is not of the type c's kind takes.
func (w *Writer) cell(c Column, v any) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		if c.Kind == Text {
			return textCell(v), nil
		}
	case int:
		if c.Kind == Integer {
			return int64(v), nil
		}
	case int64:
		if c.Kind == Integer {
			return v, nil
		}
	case float64:
		if c.Kind == Money || c.Kind == Decimal {
			return v, nil
		}
	case time.Time:
		if c.Kind == Date || c.Kind == DateTime {
			return dateCell(v), nil
		}
	case bool:
		if c.Kind == Bool {
			return v, nil
		}
	}
	return nil, fmt.Errorf("xlsx: column %s of kind %s takes %s, got %T", c.Name, c.Kind, c.Kind.goType(), v)
}

// textCell returns s as a cell holds it: valid UTF-8 (a bad byte becomes
// U+FFFD, as JSON and XML write it), cut to MaxCellChars.
func textCell(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= MaxCellChars || utf16Len(s) <= MaxCellChars {
		return s // a UTF-8 string has no more UTF-16 units than bytes
	}
	units, limit := 0, MaxCellChars-utf16Len(cutMark)
	for i, r := range s {
		if units += utf16.RuneLen(r); units > limit {
			return s[:i] + cutMark
		}
	}
	return s
}

// utf16Len returns the number of UTF-16 code units of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// dateCell returns t as a cell holds it: nil for the zero time, no date.
// A time before 1900, which a spreadsheet has no date for, is written as
// RFC 3339 text by the library.
func dateCell(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// Close ends the sheet and writes the workbook to the underlying writer,
// then removes the temporary file, if any. It is safe to call twice.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.stream.Flush()
	if err == nil {
		err = w.writeTo(w.out)
	}
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	return nil
}

// writeTo writes the workbook's zip archive straight to out. The library
// builds the archive in a buffer that it then copies to out, which would
// hold the whole file in memory; its zip writer hook is given out instead,
// so that the archive is compressed part by part onto out and the buffer
// stays empty.
func (w *Writer) writeTo(out io.Writer) error {
	w.file.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(out) })
	return w.file.Write(io.Discard)
}

// String returns the name of the kind.
func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case Integer:
		return "integer"
	case Money:
		return "money"
	case Date:
		return "date"
	case DateTime:
		return "datetime"
	case Bool:
		return "bool"
	case Decimal:
		return "decimal"
	}
	return fmt.Sprintf("kind %d", int(k))
}

// goType names the Go types of the values of kind k.
func (k Kind) goType() string {
	switch k {
	case Text:
		return "string"
	case Integer:
		return "int or int64"
	case Money, Decimal:
		return "float64"
	case Date, DateTime:
		return "time.Time"
	case Bool:
		return "bool"
	}
	return "nothing"
}
