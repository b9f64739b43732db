package tenderbase

import (
	"context"
	"errors"
	"fmt"
)

// Error codes form the small vocabulary every layer speaks. The edges (HTTP,
// JSON-RPC, the command line) translate them; nothing in between needs to know
// about status codes.
const (
	EINVALID      = "invalid"      // the caller's input is wrong; the message says how
	ENOTFOUND     = "not_found"    // the thing asked for does not exist
	EUNAUTHORIZED = "unauthorized" // no key, or a key nobody issued
	EFORBIDDEN    = "forbidden"    // a valid key whose plan does not allow this
	ERATELIMITED  = "rate_limited" // too many requests for this key
	ETIMEOUT      = "timeout"      // the request took longer than the server gives one request
	EUNAVAILABLE  = "unavailable"  // the service cannot answer now (it is starting, or its store cannot be reached or cannot write); retry soon
	EINTERNAL     = "internal"     // our fault; details are logged, not shown
)

// Error is an error the caller is meant to read. Code is one of the E*
// constants; Message is written for the caller, never containing internals.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the caller-facing message of err: the message of its
// *Error, or a generic one for internal errors, whose details must not leak.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// ContextError returns err as the caller should read it once ctx has ended.
// A call cut short by a deadline or by a client that went away fails with
// whatever its driver makes of that; the reason ctx ended (its cause, which
// a deadline set for one request makes an ETIMEOUT *Error) is the truer
// answer, and err stays in the chain for the log. An error the caller can
// act on already, and any error while ctx is live, are returned as they are.
func ContextError(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || ErrorCode(err) != EINTERNAL {
		return err
	}
	return errors.Join(context.Cause(ctx), err)
}

// storeUnavailable is what a caller reads of a store that cannot be
// reached or cannot write.
var storeUnavailable = &Error{Code: EUNAVAILABLE,
	Message: "the store cannot be reached or cannot write at the moment"}

// Unavailable marks err, a failure of a store that cannot be reached or
// cannot write (its database down, its connection cut, its disk full),
// EUNAVAILABLE: the caller is told to retry, not that the service failed;
// the edges say when (Retry-After).
// err stays in the chain and is what the error says, for the log. The
// stores decide which driver errors these are, by their codes; nil, and an
// error with a code of its own, are returned as they are.
func Unavailable(err error) error {
	if err == nil || ErrorCode(err) != EINTERNAL {
		return err
	}
	return &unavailableError{err}
}

// unavailableError is an error marked by Unavailable.
type unavailableError struct{ cause error }

func (e *unavailableError) Error() string   { return e.cause.Error() }
func (e *unavailableError) Unwrap() []error { return []error{storeUnavailable, e.cause} }
