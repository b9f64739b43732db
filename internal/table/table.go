// Package table holds the shape in which an analytical answer (an
// aggregate, a tender's red flags) goes out as a document: named, typed
// columns and rows of values, which one writer a format (JSON, CSV, XLSX)
// writes. An answer becomes a table in one function; a new answer needs
// that function alone to come in every format.
package table

import (
	"fmt"
	"strconv"
)

// Kind is the kind of a column's values.
type Kind int

// The kinds of columns, each with the Go type of its values; nil is a
// value of every kind, the cell left empty (null in JSON).
const (
	// Text is a string: an INN, a name, a key. string.
	Text Kind = iota
	// Integer is a whole number: a count. int or int64.
	Integer
	// Money is an amount in minor units (kopecks), written as the
	// currency's units with two decimals: 123456 is 1234.56, exactly.
	// int64.
	Money
	// Hundredths is a figure to a hundredth, as a percentage or a mean
	// is given: 1234 is 12.34. int64.
	Hundredths
)

// Column is a column of a table: its name, as a header cell and a JSON
// member name give it, and the kind of its values.
type Column struct {
	Name string
	Kind Kind
}

// Table is an answer as columns and rows. Sheet names the sheet of a
// workbook (1 to 31 characters, none of : \ / ? * [ ]) and File the name a
// download is saved under, without its extension.
type Table struct {
	Sheet   string
	File    string
	Columns []Column
	Rows    [][]any
}

// Add appends a row of values, one a column in the columns' order.
func (t *Table) Add(values ...any) {
	t.Rows = append(t.Rows, values)
}

// Check reports a row whose values do not fit the columns: a wrong
// number of values, or a value of a type its column's kind does not take.
func (t Table) Check() error {
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("table %s: row %d has %d values for %d columns", t.File, i+1, len(row), len(t.Columns))
		}
		for j, v := range row {
			if !t.Columns[j].Kind.takes(v) {
				return fmt.Errorf("table %s: row %d, column %s of kind %d holds a %T", t.File, i+1, t.Columns[j].Name, t.Columns[j].Kind, v)
			}
		}
	}
	return nil
}

// takes reports whether v is a value of kind k.
func (k Kind) takes(v any) bool {
	switch v.(type) {
	case nil:
		return true
	case string:
		return k == Text
	case int:
		return k == Integer
	case int64:
		return k == Integer || k == Money || k == Hundredths
	}
	return false
}

// text returns the value as CSV writes it, and JSON but for its quotes:
// "" for nil; a number of hundredths with two decimals, exactly.
func text(k Kind, v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case int64:
		if k == Money || k == Hundredths {
			return decimal(v)
		}
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// decimal writes n hundredths as a decimal number with two decimals:
// -5 is -0.05. No float holds the value on the way.
func decimal(n int64) string {
	sign := ""
	u := uint64(n)
	if n < 0 {
		sign, u = "-", uint64(-n)
	}
	frac := strconv.FormatUint(u%100, 10)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return sign + strconv.FormatUint(u/100, 10) + "." + frac
}
