package table

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/tenderbase/tenderbase/internal/jsonstring"
	"github.com/tenderbase/tenderbase/internal/xlsx"
)

// WriteJSON writes t as a JSON array of one object a row, one row a line,
// as the export writes its records: each column a member in the columns'
// order, a number as a number (money and hundredths with two decimals,
// exactly), an empty cell as null.
func WriteJSON(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := []byte{'['}
	for i, row := range t.Rows {
		if i > 0 {
			buf = append(buf, ",\n"...)
		}
		buf = appendObject(buf, t.Columns, row)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	buf = append(buf, "]\n"...)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

func appendObject(buf []byte, cols []Column, row []any) []byte {
	buf = append(buf, '{')
	for i, c := range cols {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonstring.Append(buf, c.Name)
		buf = append(buf, ':')
		switch v := row[i].(type) {
		case nil:
			buf = append(buf, "null"...)
		case string:
			buf = jsonstring.Append(buf, v)
		default:
			buf = append(buf, text(c.Kind, v)...)
		}
	}
	return append(buf, '}')
}

// WriteCSV writes t as RFC 4180 CSV, as the export writes its records: a
// header row naming the columns, then one row a row, lines ended with
// CRLF; numbers as JSON writes them, an empty cell for nil, text with its
// bad UTF-8 bytes replaced.
func WriteCSV(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cells := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cells[i] = c.Name
	}
	if err := cw.Write(cells); err != nil {
		return err
	}
	for _, row := range t.Rows {
		for i, c := range t.Columns {
			cells[i] = strings.ToValidUTF8(text(c.Kind, row[i]), "\uFFFD")
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// xlsxKinds are the spreadsheet kinds of the columns: money is a number
// with two decimals and thousands apart, hundredths a number with two
// decimals, text a text cell that is never read as a number.
var xlsxKinds = map[Kind]xlsx.Kind{Text: xlsx.Text, Integer: xlsx.Integer, Money: xlsx.Money, Hundredths: xlsx.Decimal}

// WriteXLSX writes t as a workbook of one sheet, t.Sheet: a header row,
// bold and frozen, then one row a row, every number a number cell. Money
// and hundredths go into a cell as the float64 nearest to the decimal,
// which the file writes as that decimal, exactly.
func WriteXLSX(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	cols := make([]xlsx.Column, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = xlsx.Column{Name: c.Name, Kind: xlsxKinds[c.Kind]}
	}
	sheet, err := xlsx.NewWriter(w, t.Sheet, cols)
	if err != nil {
		return fmt.Errorf("table %s: %w", t.File, err)
	}
	defer sheet.Close()
	cells := make([]any, len(t.Columns))
	for _, row := range t.Rows {
		for i, c := range t.Columns {
			cells[i] = xlsxCell(c.Kind, row[i])
		}
		if err := sheet.Write(cells...); err != nil {
			return err
		}
	}
	return sheet.Close()
}

// xlsxCell returns a value as the spreadsheet writer takes it.
func xlsxCell(k Kind, v any) any {
	if n, ok := v.(int64); ok && (k == Money || k == Hundredths) {
		return float64(n) / 100
	}
	return v
}
