package httpserver

import (
	"bytes"
	"errors"
	"mime"
	"net/http"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/table"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// serveTable answers an export of an analytical answer (mode=aggregate,
// mode=flags) as a table in the format asked for. The tools compute the
// answer under their own rules, the plans' among them, so that the
// export and the MCP tools answer alike. A table is a screen of rows,
// written whole before it is sent, so that an error still has its
// status.
func (s *Server) serveTable(w http.ResponseWriter, r *http.Request, q export.Request) error {
	t, err := s.tableOf(r, q)
	var argErr *tools.ArgumentError
	switch {
	case errors.As(err, &argErr):
		return tenderbase.Errorf(tenderbase.EINVALID, "%s", argErr.Message)
	case err != nil:
		return err
	}
	var body bytes.Buffer
	switch q.Format {
	case export.CSV:
		err = table.WriteCSV(&body, t)
	case export.XLSX:
		err = table.WriteXLSX(&body, t)
	default:
		err = table.WriteJSON(&body, t)
	}
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", export.ContentType(q.Format))
	h.Set("X-Content-Type-Options", "nosniff")
	if q.Format == export.XLSX {
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": t.File + ".xlsx"}))
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body.Bytes())
	return nil
}

// tableOf asks the tools for the answer of q and returns it as a table.
func (s *Server) tableOf(r *http.Request, q export.Request) (table.Table, error) {
	if q.Mode == export.ModeFlags {
		res, err := s.cfg.Tools.Flags(r.Context(), q.TendNum)
		if err != nil {
			return table.Table{}, err
		}
		return export.FlagsTable(res.PurchaseNumber, res.Title, res.Law, res.PlacingMethod, res.Flags), nil
	}
	a, err := s.cfg.Tools.Aggregate(r.Context(), tools.AggregateArgs{Resource: q.Resource, Search: q.Search, By: q.By, Level: q.Level, Top: q.Top})
	if err != nil {
		return table.Table{}, err
	}
	return export.AggregateTable(q.Resource, a), nil
}
