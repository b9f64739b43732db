package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/tenderbase/tenderbase/internal/jsonstring"
)

// JSON-RPC error codes; see the package doc for when each is used.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	// codeRateLimited, codeTimeout, codeForbidden and codeUnavailable are
	// in the range JSON-RPC leaves to servers; 29 echoes HTTP 429, 03 the
	// 503 a timeout comes with, 43 HTTP 403, though a refusal by plan comes
	// with 200 as the other errors of a method do, and 53 the 503 of a
	// store that cannot be reached.
	codeRateLimited = -32029
	codeTimeout     = -32003
	codeForbidden   = -32043
	codeUnavailable = -32053
)

// rpcError is a JSON-RPC error answer and the HTTP status it goes with.
type rpcError struct {
	status     int
	code       int
	message    string
	data       []byte // JSON, or nil
	retryAfter int    // seconds; sets Retry-After when positive
	allowPost  bool   // sets Allow: POST
}

// request is the envelope of one JSON-RPC message. Params, and the id that
// is echoed exactly as sent, stay raw JSON.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	// Result and Error mark a client's response to a server request.
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// exchange holds the buffers of one request and its answer. Exchanges are
// pooled so that a steady stream of requests allocates little.
type exchange struct {
	in   []byte
	out  []byte
	req  request
	call callParams
}

var exchanges = sync.Pool{New: func() any { return &exchange{in: make([]byte, 0, 4096), out: make([]byte, 0, 4096)} }}

// maxPooled bounds the buffers kept for reuse, so that one huge request does
// not pin its memory for good.
const maxPooled = 64 << 10

func getExchange() *exchange { return exchanges.Get().(*exchange) }

func putExchange(x *exchange) {
	if cap(x.in) > maxPooled || cap(x.out) > maxPooled {
		return
	}
	x.in, x.out = x.in[:0], x.out[:0]
	// Unmarshal only sets the fields present, so every field is cleared;
	// the raw fields keep their capacity for the next request.
	x.req = request{ID: x.req.ID[:0], Params: x.req.Params[:0], Result: x.req.Result[:0], Error: x.req.Error[:0]}
	x.call = callParams{Arguments: x.call.Arguments[:0]}
	exchanges.Put(x)
}

// readBody reads the request body into x.in, at most limit bytes.
func (x *exchange) readBody(w http.ResponseWriter, r *http.Request, limit int64) error {
	body := http.MaxBytesReader(w, r.Body, limit)
	buf := x.in[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			x.in = buf
			return nil
		}
		if err != nil {
			x.in = buf
			return err
		}
	}
}

// openResult starts the answer {"jsonrpc":"2.0","id":…,"result": in x.out;
// closeResult ends it.
func (x *exchange) openResult() {
	x.out = append(x.out[:0], `{"jsonrpc":"2.0","id":`...)
	x.out = append(x.out, x.req.ID...)
	x.out = append(x.out, `,"result":`...)
}

func (x *exchange) closeResult() { x.out = append(x.out, "}\n"...) }

// writeResult answers with result, which is JSON.
func (x *exchange) writeResult(w http.ResponseWriter, result []byte) {
	x.openResult()
	x.out = append(x.out, result...)
	x.closeResult()
	send(w, http.StatusOK, x.out)
}

// writeError answers with e, echoing the request's id if it has a valid one.
func (x *exchange) writeError(w http.ResponseWriter, e *rpcError) {
	id := x.req.ID
	if !validID(id) {
		id = nullID
	}
	out := append(x.out[:0], `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"error":{"code":`...)
	out = strconv.AppendInt(out, int64(e.code), 10)
	out = append(out, `,"message":`...)
	out = jsonstring.Append(out, e.message)
	if e.data != nil {
		out = append(out, `,"data":`...)
		out = append(out, e.data...)
	}
	out = append(out, "}}\n"...)
	x.out = out
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.retryAfter))
	}
	if e.allowPost {
		w.Header().Set("Allow", http.MethodPost)
	}
	send(w, e.status, out)
}

var (
	nullID          = []byte("null")
	jsonContentType = []string{"application/json"}
)

// send writes body with its length, in one write.
func send(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	// A failed write means the client has gone; there is nobody to tell.
	_, _ = w.Write(body)
}

// maxIDBytes bounds a request id, which every answer echoes: clients send
// small integers and UUIDs, and an id of a megabyte would make every error
// about the request as large.
const maxIDBytes = 256

// validID reports whether id is a JSON-RPC id MCP allows: a string or an
// integer, at most maxIDBytes long. Null, fractions, exponents and other
// values are not.
func validID(id []byte) bool {
	if len(id) == 0 || len(id) > maxIDBytes {
		return false
	}
	if id[0] == '"' {
		return true // Unmarshal has checked that the string is well formed
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
