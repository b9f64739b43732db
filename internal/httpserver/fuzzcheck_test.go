package httpserver_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// fuzzAnswer is an answer of the server as the fuzz targets judge it.
type fuzzAnswer struct {
	status int
	header http.Header
	body   []byte
}

// maxErrorBytes bounds the body of an error answer whatever the input: an
// error says what is wrong with the input, it does not send it back. Only
// the id of a JSON-RPC request, which its answer must echo, comes on top.
const maxErrorBytes = 4 << 10

// errorCodes are the codes an answer of each status may name: a code of
// the vocabulary, or in /mcp a JSON-RPC code, or "tool" for a tool's error
// as an MCP result. The only 5xx allowed is the 503 of a request past its
// deadline (docs/limits.md), code timeout or JSON-RPC -32003; never
// JSON-RPC's internal error (-32603, answered 200).
var errorCodes = map[int][]string{
	http.StatusOK:                    {"-32601", "-32602", "tool"},
	http.StatusBadRequest:            {tenderbase.EINVALID, "-32700", "-32600"},
	http.StatusUnauthorized:          {tenderbase.EUNAUTHORIZED},
	http.StatusForbidden:             {tenderbase.EFORBIDDEN, "-32600"},
	http.StatusNotFound:              {tenderbase.ENOTFOUND},
	http.StatusMethodNotAllowed:      {tenderbase.EINVALID, "-32600"},
	http.StatusRequestEntityTooLarge: {tenderbase.EINVALID, "-32600"},
	http.StatusUnsupportedMediaType:  {tenderbase.EINVALID, "-32600"},
	http.StatusTooManyRequests:       {tenderbase.ERATELIMITED, "-32029"},
	http.StatusServiceUnavailable:    {"timeout", "-32003"},
}

// fuzzExpect is what the request of an input calls for.
type fuzzExpect struct {
	freeView bool   // the caller sees what the free plan sees
	refuse   string // why the request must be refused, or ""
}

// judge returns what is wrong with the answer, or nil: a 5xx other than
// the deadline's 503; a body that is not what its Content-Type says; an
// error that names no code its status goes with, or that is larger than
// maxErrorBytes; an answer that is not an error when want.refuse says why
// it must be one (but a notification gets none); and, in a free view, a
// text in hidden.
func (a fuzzAnswer) judge(hidden map[string]bool, want fuzzExpect) error {
	switch {
	case a.status >= 500 && a.status != http.StatusServiceUnavailable:
		return fmt.Errorf("status %d", a.status)
	case a.status >= 300 && a.status < 400:
		// The mux redirects a path that is not clean to the clean one.
		if a.header.Get("Location") == "" {
			return fmt.Errorf("status %d without a Location", a.status)
		}
		return nil
	}
	doc, err := a.parse()
	if err != nil {
		return err
	}
	if err := a.checkError(doc); err != nil {
		return err
	}
	if want.refuse != "" && !doc.failed && a.status != http.StatusAccepted {
		return fmt.Errorf("status %d to a request that must be refused: %s", a.status, want.refuse)
	}
	if want.freeView {
		for _, s := range doc.texts {
			if hidden[s] {
				return fmt.Errorf("the free view shows %q, the value of a field hidden from it", s)
			}
		}
	}
	return nil
}

// fuzzDoc is what the body of an answer says.
type fuzzDoc struct {
	failed bool     // an error, a JSON-RPC error or a tool's error
	code   string   // the code the error names
	texts  []string // every text in it, trimmed
	echoed int      // the bytes of the JSON-RPC id it echoes
}

// parse parses the body as its Content-Type says. Only a 202 (an MCP
// notification accepted) may have neither.
func (a fuzzAnswer) parse() (fuzzDoc, error) {
	ct := a.header.Get("Content-Type")
	mt, params, _ := mime.ParseMediaType(ct)
	if ct == "" && len(a.body) == 0 && a.status == http.StatusAccepted {
		return fuzzDoc{}, nil
	}
	if !utf8.Valid(a.body) {
		return fuzzDoc{}, errors.New("the body is not UTF-8")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return fuzzDoc{}, fmt.Errorf("Content-Type %q", ct)
	}
	switch mt {
	case "application/json":
		return parseJSONAnswer(a.body)
	case "application/xml":
		return parseXMLAnswer(a.body)
	case "text/csv":
		return parseCSVAnswer(a.body)
	}
	return fuzzDoc{}, fmt.Errorf("Content-Type %q with a body of %d bytes", ct, len(a.body))
}

// checkError checks that an error answer names a code of its status, and
// that every 4xx is one.
func (a fuzzAnswer) checkError(doc fuzzDoc) error {
	switch {
	case !doc.failed && a.status >= 400:
		return fmt.Errorf("status %d without an error", a.status)
	case !doc.failed:
		return nil
	case !slices.Contains(errorCodes[a.status], doc.code):
		return fmt.Errorf("status %d with the error code %q; that status goes with %q", a.status, doc.code, errorCodes[a.status])
	case len(a.body)-doc.echoed > maxErrorBytes:
		return fmt.Errorf("an error of %d bytes, over %d", len(a.body), maxErrorBytes)
	}
	return nil
}

// parseJSONAnswer parses one JSON value. An object with "error" is an
// error, of the vocabulary or of JSON-RPC; an MCP result with isError is a
// tool's error.
func parseJSONAnswer(body []byte) (fuzzDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fuzzDoc{}, fmt.Errorf("the body is not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fuzzDoc{}, errors.New("the body is more than one JSON value")
	}
	var doc fuzzDoc
	jsonTexts(v, &doc.texts)
	obj, _ := v.(map[string]any)
	if e, ok := obj["error"].(map[string]any); ok {
		doc.failed, doc.code = true, fmt.Sprint(e["code"])
	}
	if r, ok := obj["result"].(map[string]any); ok && r["isError"] == true {
		doc.failed, doc.code = true, "tool"
	}
	if id, ok := obj["id"]; ok && obj["jsonrpc"] != nil {
		echoed, _ := json.Marshal(id)
		doc.echoed = len(echoed)
	}
	return doc, nil
}

// jsonTexts appends the strings of v, trimmed, to texts. A string that is
// JSON itself, as the text of an MCP result, gives its own strings.
func jsonTexts(v any, texts *[]string) {
	switch v := v.(type) {
	case string:
		var inner any
		if strings.HasPrefix(v, "{") && json.Unmarshal([]byte(v), &inner) == nil {
			jsonTexts(inner, texts)
			return
		}
		*texts = append(*texts, strings.TrimSpace(v))
	case []any:
		for _, x := range v {
			jsonTexts(x, texts)
		}
	case map[string]any:
		for _, x := range v {
			jsonTexts(x, texts)
		}
	}
}

// parseXMLAnswer parses a well-formed document of one root element; the
// root <error> is an error.
func parseXMLAnswer(body []byte) (fuzzDoc, error) {
	var doc fuzzDoc
	dec := xml.NewDecoder(bytes.NewReader(body))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return doc, fmt.Errorf("the body is not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				doc.failed, doc.code = t.Name.Local == "error", xmlAttr(t, "code")
			}
			depth++
			for _, at := range t.Attr {
				doc.texts = append(doc.texts, strings.TrimSpace(at.Value))
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			doc.texts = append(doc.texts, strings.TrimSpace(string(t)))
		}
	}
	if roots != 1 {
		return doc, fmt.Errorf("the XML body has %d root elements", roots)
	}
	return doc, nil
}

// parseCSVAnswer parses an export's CSV: rows of as many cells as its
// header row. CSV has no shape for an error; an error comes in JSON.
func parseCSVAnswer(body []byte) (fuzzDoc, error) {
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		return fuzzDoc{}, fmt.Errorf("the body is not CSV: %w", err)
	}
	if len(rows) == 0 {
		return fuzzDoc{}, errors.New("the CSV body has no header row")
	}
	var doc fuzzDoc
	for _, row := range rows {
		for _, cell := range row {
			doc.texts = append(doc.texts, strings.TrimSpace(cell))
		}
	}
	return doc, nil
}

func xmlAttr(e xml.StartElement, name string) string {
	for _, at := range e.Attr {
		if at.Name.Local == name {
			return at.Value
		}
	}
	return ""
}

// hasDuplicateMember reports whether body, valid JSON, holds an object
// with a member name twice.
func hasDuplicateMember(body []byte) bool {
	dup, _ := duplicateIn(json.NewDecoder(bytes.NewReader(body)))
	return dup
}

// duplicateIn reads the next value of dec and reports whether it holds an
// object with a member name twice.
func duplicateIn(dec *json.Decoder) (bool, error) {
	tok, err := dec.Token()
	if err != nil || (tok != json.Delim('{') && tok != json.Delim('[')) {
		return false, err
	}
	seen := map[string]bool{}
	for dec.More() {
		if tok == json.Delim('{') {
			name, err := dec.Token()
			if err != nil || seen[fmt.Sprint(name)] {
				return err == nil, err
			}
			seen[fmt.Sprint(name)] = true
		}
		if dup, err := duplicateIn(dec); dup || err != nil {
			return dup, err
		}
	}
	_, err = dec.Token() // the closing delimiter
	return false, err
}

// hiddenTexts returns the texts, of six characters or more, of the fields
// of recs hidden from the free plan, leaving out those that a free view of
// some record shows, as a supplier hidden in one record may be open in
// another.
func hiddenTexts(tb testing.TB, recs []tenderbase.Record) map[string]bool {
	tb.Helper()
	hidden, shown := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		full, err := tenderbase.MarshalRecord(r)
		if err != nil {
			tb.Fatal(err)
		}
		masked, fields, err := tenderbase.Masked(r, tenderbase.PlanFree)
		if err != nil {
			tb.Fatal(err)
		}
		var all map[string]any
		var free any
		if err := errors.Join(json.Unmarshal(full, &all), json.Unmarshal(masked, &free)); err != nil {
			tb.Fatal(err)
		}
		var texts []string
		jsonTexts(free, &texts)
		for _, s := range texts {
			shown[s] = true
		}
		texts = texts[:0]
		for _, f := range fields {
			jsonTexts(all[f], &texts)
		}
		for _, s := range texts {
			if utf8.RuneCountInString(s) >= 6 {
				hidden[s] = true
			}
		}
	}
	// A hidden text that the free view shows inside a longer one (an
	// address in a FAS case's orgXML) is shown there as a field's value.
	for h := range hidden {
		for s := range shown {
			if strings.Contains(s, h) {
				delete(hidden, h)
				break
			}
		}
	}
	return hidden
}
