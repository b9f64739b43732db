package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tenderbase/tenderbase"
)

// classify marks *err EUNAVAILABLE when it says that the database cannot
// be reached or cannot take a statement now (unavailable). Every exported
// method of the store defers it: a connection can break in any statement,
// and pgx returns the break from wherever it was reading.
func classify(err *error) { *err = unavailable(*err) }

// unavailable marks err EUNAVAILABLE when it says that the database cannot
// be reached or cannot take a statement now, whatever the statement was;
// the caller is told to retry. A call cut short by its context is left to
// the caller, which knows why its context ended.
func unavailable(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || !unreachable(err) {
		return err
	}
	return tenderbase.Unavailable(err)
}

// unreachable reports whether err is the database's refusal of any work
// now (unavailableState), or a connection that could not be made or broke:
// a connection attempt that failed for another reason than the server's
// answer, a network error, the socket closed under a statement (io.EOF,
// io.ErrUnexpectedEOF), or a connection pgx had closed already.
func unreachable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unavailableState(pgErr.Code)
	}
	var connectErr *pgconn.ConnectError
	var netErr *net.OpError
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed)
}

// unavailableState reports whether a SQLSTATE says that the server cannot
// do any work now, rather than that this statement is wrong: a connection
// exception (class 08), insufficient resources (class 53: a full disk, out
// of memory, too many connections), a server shutting down or starting
// (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now),
// or an I/O error (58030). A password refused (class 28) or a database
// that does not exist (3D000) is a mistake of the configuration, which
// retrying does not mend: those stay internal errors.
func unavailableState(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "58030":
		return true
	}
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53")
}
