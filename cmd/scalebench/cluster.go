package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
)

// cluster is the PostgreSQL server the bench's databases are on, reached
// through the admin URL.
type cluster struct {
	admin *url.URL
	conn  *pgx.Conn
}

// connect connects to the server of the admin URL.
func connect(ctx context.Context, admin string) (*cluster, error) {
	u, err := url.Parse(admin)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, admin)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL at %s is unreachable: %w", u.Redacted(), err)
	}
	return &cluster{admin: u, conn: conn}, nil
}

func (c *cluster) close() { c.conn.Close(context.Background()) }

// urlOf returns the URL of database db of the server: the admin URL with
// another database.
func (c *cluster) urlOf(db string) string {
	u := *c.admin
	u.Path = "/" + db
	return u.String()
}

// marker returns the comment of database db, which says what corpus the
// bench built in it: none when there is no such database, or when its
// build did not end.
func (c *cluster) marker(ctx context.Context, db string) (string, error) {
	var comment *string
	err := c.conn.QueryRow(ctx,
		"SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1", db).Scan(&comment)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("look for database %s: %w", db, err)
	case comment == nil:
		return "", nil
	}
	return *comment, nil
}

// recreate drops database db, if it is there, and creates it empty.
func (c *cluster) recreate(ctx context.Context, db string) error {
	id := pgx.Identifier{db}.Sanitize()
	if _, err := c.conn.Exec(ctx, "DROP DATABASE IF EXISTS "+id+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", db, err)
	}
	if _, err := c.conn.Exec(ctx, "CREATE DATABASE "+id); err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return nil
}

// setMarker records in database db's comment what corpus it holds, once
// it is complete.
func (c *cluster) setMarker(ctx context.Context, db, marker string) error {
	_, err := c.conn.Exec(ctx, "COMMENT ON DATABASE "+pgx.Identifier{db}.Sanitize()+" IS "+quoteLiteral(marker))
	if err != nil {
		return fmt.Errorf("mark database %s: %w", db, err)
	}
	return nil
}

// size returns the size of database db on disk.
func (c *cluster) size(ctx context.Context, db string) (int64, error) {
	var n int64
	if err := c.conn.QueryRow(ctx, "SELECT pg_database_size($1)", db).Scan(&n); err != nil {
		return 0, fmt.Errorf("size of database %s: %w", db, err)
	}
	return n, nil
}

// quoteLiteral quotes s as an SQL string literal; COMMENT takes no
// parameter.
func quoteLiteral(s string) string {
	out := []byte{'\''}
	for i := range len(s) {
		if s[i] == '\'' {
			out = append(out, '\'')
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}
