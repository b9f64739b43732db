package doctext

import (
	"archive/zip"
	"io"

	// github.com/xuri/excelize/v2 is the spreadsheet library of Go: kept up
	// by its authors for years, it reads every variant of the format that
	// Excel, LibreOffice and generators write, shared and inline strings,
	// and shows numbers and dates as their cell formats do, as a reader of
	// the sheet sees them. It bounds what it unpacks by the sizes that zip
	// declares, which archive/zip holds every member to.
	"github.com/xuri/excelize/v2"
)

// xlsx reads the text of every sheet of a workbook: its name, then its rows,
// cells apart.
func (e *extraction) xlsx(f file, zr *zip.Reader) error {
	var declared int64
	for _, zf := range zr.File {
		declared += int64(min(zf.UncompressedSize64, 1<<62))
	}
	left := e.lim.MaxUnpackedBytes - e.unpacked
	if declared > left {
		return invalid("%v", errBudget{e.lim.MaxUnpackedBytes})
	}
	// The whole package is unpacked into memory, and counted so; the
	// limit on parts otherwise written to temporary files keeps it there.
	wb, err := excelize.OpenReader(io.NewSectionReader(f.r, 0, f.size),
		excelize.Options{UnzipSizeLimit: left, UnzipXMLSizeLimit: left})
	if err != nil {
		return damaged(XLSX, err)
	}
	defer wb.Close()
	e.unpacked += declared
	for _, sheet := range wb.GetSheetList() {
		if err := e.sheet(wb, sheet); err != nil {
			return err
		}
	}
	return nil
}

// sheet reads the text of one sheet. A chart sheet has no rows, and no text
// of its own.
func (e *extraction) sheet(wb *excelize.File, name string) error {
	rows, err := wb.Rows(name)
	if err != nil {
		return nil
	}
	defer rows.Close()
	if err := e.out.WriteString(name); err != nil {
		return err
	}
	e.out.Break()
	for rows.Next() {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		cells, err := rows.Columns()
		if err != nil {
			return damaged(XLSX, err)
		}
		for _, c := range cells {
			if err := e.out.WriteString(c); err != nil {
				return err
			}
			e.out.Space()
		}
		e.out.Break()
	}
	if err := rows.Error(); err != nil {
		return damaged(XLSX, err)
	}
	return nil
}
