package export

import (
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Compat names the conventions an export document follows: the spec's, or
// those of another service whose clients a caller wants to keep working.
type Compat string

// The conventions, by the compat parameter.
const (
	// CompatSpec is the spec's: pages from 0, RFC 3339 dates as stored, a
	// JSON array of records alone, xml and json only.
	CompatSpec Compat = ""
	// CompatTG is TenderGuru's api2.3: pages from 1, dates as DD-MM-YYYY, a
	// {"Total": N} first element in JSON, and dtype=csv.
	CompatTG Compat = "tg"
)

// tgDateLayout is how TenderGuru writes a date: "25-10-2023", the day
// alone, as its pages and its clients' parsers show.
const tgDateLayout = "02-01-2006"

// compatOf returns the conventions compat asks for; case does not matter,
// as for mode and dtype.
func compatOf(v string) (Compat, error) {
	switch c := Compat(strings.ToLower(v)); c {
	case CompatSpec, CompatTG:
		return c, nil
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID,
		"unknown compat %s: the one value is tg (TenderGuru's conventions); leave it out for the spec's", tenderbase.Quote(v))
}

// FirstPage returns the number of the first page under c: 0 by the spec,
// 1 by TenderGuru. Requests hold pages from 0 whatever the conventions; a
// page is shown to the caller as it is numbered under c.
func (c Compat) FirstPage() int {
	if c == CompatTG {
		return 1
	}
	return 0
}

// appendDate appends d as a date under c: by the spec, RFC 3339 as stored;
// by TenderGuru, the day in Moscow, where the registers' days begin and
// end, without the time of day, which its clients do not expect.
func appendDate(buf []byte, d time.Time, c Compat) []byte {
	if c == CompatTG {
		return d.In(tenderbase.Moscow).AppendFormat(buf, tgDateLayout)
	}
	return d.AppendFormat(buf, time.RFC3339Nano)
}
