package httpserver

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// exportChallenge is the WWW-Authenticate header of a refused api_code, the
// export's own way of carrying a key.
const exportChallenge = `api_code realm="tenderbase"`

// export answers GET /api2.3/export. Errors are written in the format dtype
// asks for, and in JSON when dtype itself is wrong or is csv or xlsx.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	values, err := export.ParseQuery(r.URL.RawQuery)
	format, _ := export.FormatOf(values)
	if err == nil {
		err = s.serveExport(w, r, values)
	}
	if err != nil {
		s.writeExportError(w, r, format, err)
	}
}

// serveExport checks the request and the caller's key and limit, finds the
// page and streams it.
func (s *Server) serveExport(w http.ResponseWriter, r *http.Request, values url.Values) error {
	q, err := export.Parse(values)
	if err != nil {
		return err
	}
	reqinfo.From(r.Context()).Tool = q.Mode
	r, k, keyed, err := s.keyedRequest(w, r, q.APICode)
	if err != nil {
		return err
	}
	if export.TableMode(q.Mode) {
		return s.serveTable(w, r, q)
	}
	plan, limits := tenderbase.PlanFree, tenderbase.Plans[tenderbase.PlanFree]
	if keyed {
		if _, known := tenderbase.Plans[k.Plan]; known {
			plan = k.Plan
		}
		limits = k.Effective()
	}
	found, err := s.walks.Find(r.Context(), s.store, q, plan, limits.RowCap)
	if err != nil {
		return err
	}
	s.exportHeaders(w.Header(), q, plan, found)
	return s.streamExport(w, r, q, plan, found)
}

// keyedRequest takes the key of a request that may carry one in api_code
// or an Authorization header (the export, the feed), puts it in the
// request's context and limits the rate: by the key, or by the client
// address when it came without one.
func (s *Server) keyedRequest(w http.ResponseWriter, r *http.Request, apiCode string) (*http.Request, tenderbase.Key, bool, error) {
	k, keyed, err := s.exportKey(w, r, apiCode)
	if err != nil {
		return r, k, false, err
	}
	if keyed {
		reqinfo.From(r.Context()).KeyID = k.ID
		r = r.WithContext(tenderbase.NewContextWithKey(r.Context(), k))
	}
	if secs, err := s.checkExportRate(r, keyed); err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		return r, k, keyed, err
	}
	return r, k, keyed, nil
}

// checkExportRate limits an export request: by its key, or by its client
// address when it came without one.
func (s *Server) checkExportRate(r *http.Request, keyed bool) (int, error) {
	if keyed {
		return s.checkRate(r)
	}
	return s.checkAnonymousRate(r)
}

// exportKey returns the key of an export request. It comes in api_code or,
// as on /mcp, in an Authorization: Bearer header; both may be given only if
// they carry the same key. Without either the caller gets the free view,
// while a key given that opens nothing is refused with the challenge of the
// way it came, never served the free view.
func (s *Server) exportKey(w http.ResponseWriter, r *http.Request, apiCode string) (tenderbase.Key, bool, error) {
	if !hasAuthorization(r) {
		k, keyed, err := s.keyFromParam(r, apiCode)
		setChallenge(w, err, exportChallenge)
		return k, keyed, err
	}
	token, err := bearerToken(r)
	if err != nil {
		setChallenge(w, err, challenge)
		return tenderbase.Key{}, false, err
	}
	if apiCode != "" && apiCode != token {
		return tenderbase.Key{}, false, tenderbase.Errorf(tenderbase.EINVALID,
			"api_code and the Authorization header carry different keys; send the key in one of them")
	}
	k, keyed, err := s.keyFromParam(r, token)
	setChallenge(w, err, challenge+`, error="invalid_token"`)
	return k, keyed, err
}

// exportHeaders sets the headers of an export answer: its type (and the
// name a spreadsheet is saved under), the total, the page, the row cap and
// the fields hidden from the caller.
func (s *Server) exportHeaders(h http.Header, q export.Request, plan tenderbase.Plan, f export.Found) {
	h.Set("Content-Type", export.ContentType(q.Format))
	h.Set("X-Content-Type-Options", "nosniff")
	if q.Format == export.XLSX {
		h.Set("Content-Disposition", mime.FormatMediaType("attachment",
			map[string]string{"filename": export.Filename(q, f.Page+q.Compat.FirstPage())}))
	}
	h.Set("X-Total-Count", strconv.Itoa(f.Total))
	h.Set("X-Page", strconv.Itoa(f.Page+q.Compat.FirstPage()))
	h.Set("X-Per-Page", strconv.Itoa(f.PerPage))
	if f.RowCap > 0 {
		h.Set("X-Row-Cap", strconv.Itoa(f.RowCap))
	}
	if notice := capNotice(plan, f); notice != "" {
		h.Set("X-Notice", notice)
	}
	if hidden := tenderbase.HiddenFields(export.KindOf(q), plan); len(hidden) > 0 && len(f.Records) > 0 {
		slices.Sort(hidden)
		h.Set("X-Restricted-Fields", strings.Join(hidden, ","))
	}
}

// capNotice says why a page holds fewer records than the total allows,
// when the plan's row cap is the reason.
func capNotice(plan tenderbase.Plan, f export.Found) string {
	if f.RowCap == 0 || f.Total <= f.RowCap {
		return ""
	}
	shown := f.Page*f.PerPage + len(f.Records)
	if !f.PastCap && (len(f.Records) == f.PerPage || shown >= f.Total) {
		return ""
	}
	return fmt.Sprintf("row cap reached: the %s plan pages through the first %d of %d rows; a larger plan raises the cap",
		plan, f.RowCap, f.Total)
}

// streamExport writes the page record by record. Once the first byte is out
// the status is sent, so a failure can only be logged and the answer cut.
func (s *Server) streamExport(w http.ResponseWriter, r *http.Request, q export.Request, plan tenderbase.Plan, f export.Found) error {
	w.WriteHeader(http.StatusOK)
	ew := export.NewWriter(w, q.Format, plan, export.Meta{Mode: q.Mode, Page: f.Page + q.Compat.FirstPage(),
		PerPage: f.PerPage, Total: f.Total, Kind: export.KindOf(q), Compat: q.Compat})
	for _, rec := range f.Records {
		if err := ew.Write(rec); err != nil {
			s.logger.WarnContext(r.Context(), "export cut short", "err", err)
			return nil
		}
	}
	if err := ew.Close(); err != nil {
		s.logger.WarnContext(r.Context(), "export cut short", "err", err)
	}
	return nil
}

// writeExportError writes err in format f, or in JSON when f is CSV or
// XLSX, which have no shape for an error; classified as every error is
// (classify).
func (s *Server) writeExportError(w http.ResponseWriter, r *http.Request, f export.Format, err error) {
	f = f.ErrorFormat()
	status, code, message := s.classify(w, r, err)
	w.Header().Set("Content-Type", export.ContentType(f))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(export.ErrorDocument(f, code, message))
}
