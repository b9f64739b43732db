package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// maxStatements bounds the prepared statements kept per connection.
// Searches make a few dozen distinct SQL texts (by number of lookups); the
// bound only guards against a pathological caller.
const maxStatements = 128

// pool hands out connections, each with its own prepared statements.
// Preparing an FTS5 query costs as much as running a selective one, and
// database/sql cannot keep statements prepared for transactions without a
// free connection to prepare them on, so the store pools connections itself.
type pool struct {
	db    *sql.DB
	conns chan *conn // nil entries are connections not opened yet
}

func newPool(db *sql.DB, n int) *pool {
	p := &pool{db: db, conns: make(chan *conn, n)}
	for range n {
		p.conns <- nil
	}
	return p
}

// Every statement of the store runs through tx or run, which mark the
// errors of a store that cannot be read or written now (unavailable).

// tx runs f in a transaction begun with begin ("BEGIN", "BEGIN IMMEDIATE"),
// committing when f returns nil and rolling back otherwise.
func (p *pool) tx(ctx context.Context, begin string, f func(c *conn) error) (err error) {
	defer func() { err = unavailable(err) }()
	c, err := p.get(ctx)
	if err != nil {
		return err
	}
	defer func() { p.put(c, err) }()
	if _, err := c.c.ExecContext(ctx, begin); err != nil {
		return fmt.Errorf("begin: %w", describe(err))
	}
	if err := f(c); err != nil {
		// Roll back even when ctx is done: the connection goes back to the pool.
		if _, rerr := c.c.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			c.broken = true
		}
		return err
	}
	if _, err := c.c.ExecContext(ctx, "COMMIT"); err != nil {
		c.c.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return fmt.Errorf("commit: %w", describe(err))
	}
	return nil
}

// run runs f on a connection outside a transaction: for single statements.
func (p *pool) run(ctx context.Context, f func(c *conn) error) (err error) {
	defer func() { err = unavailable(err) }()
	c, err := p.get(ctx)
	if err != nil {
		return err
	}
	defer func() { p.put(c, err) }()
	return f(c)
}

func (p *pool) get(ctx context.Context) (*conn, error) {
	select {
	case c := <-p.conns:
		if c != nil {
			return c, nil
		}
		sc, err := p.db.Conn(ctx)
		if err != nil {
			p.conns <- nil
			return nil, fmt.Errorf("connect: %w", describe(err))
		}
		return &conn{c: sc, stmts: map[string]*sql.Stmt{}}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns c to the pool, or closes it when it may be left in a bad state.
func (p *pool) put(c *conn, err error) {
	if c.broken || errors.Is(err, sql.ErrConnDone) {
		c.close()
		p.conns <- nil
		return
	}
	p.conns <- c
}

// close closes every connection and the database.
func (p *pool) close() error {
	for range cap(p.conns) {
		if c := <-p.conns; c != nil {
			c.close()
		}
	}
	return p.db.Close()
}

// conn is one connection and the statements prepared on it.
type conn struct {
	c      *sql.Conn
	stmts  map[string]*sql.Stmt
	broken bool
}

func (c *conn) close() {
	for _, st := range c.stmts {
		st.Close()
	}
	c.c.Close()
}

// stmt returns query prepared on c, or nil when c holds too many already.
func (c *conn) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	if len(c.stmts) >= maxStatements {
		return nil, nil
	}
	st, err := c.c.PrepareContext(ctx, query)
	if err != nil {
		return nil, describe(err)
	}
	c.stmts[query] = st
	return st, nil
}

func (c *conn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := c.stmt(ctx, query)
	if err != nil || st == nil {
		if err != nil {
			return nil, err
		}
		return c.c.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

func (c *conn) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := c.stmt(ctx, query)
	if err != nil || st == nil {
		if err != nil {
			return nil, err
		}
		return c.c.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// queryRow runs a query for one row, as sql.QueryRow does.
func (c *conn) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := c.stmt(ctx, query)
	if err != nil || st == nil {
		return c.c.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}
