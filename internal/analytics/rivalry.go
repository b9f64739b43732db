package analytics

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Scanner reads the rows of a statement, as database/sql and pgx both give
// them.
type Scanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Query runs a statement in a store's read transaction and returns its
// rows and what closes them.
type Query func(ctx context.Context, sql string, args ...any) (Scanner, func(), error)

// Placeholder returns the store's placeholder of the n-th argument, from
// 1: ?1 in SQLite, $1 in PostgreSQL.
type Placeholder func(n int) string

// BidValues returns the values of a bids row after rid: purchase, lot,
// inn, name, offer, won, published.
func BidValues(b tenderbase.Bid) []any {
	won := 0
	if b.Won {
		won = 1
	}
	return []any{b.Purchase, b.Lot, b.INN, text(b.Name), positive(b.Offer), won, b.Date.Unix()}
}

// BidColumns are the columns of a bids row after rid, in the order of
// BidValues.
var BidColumns = []string{"purchase", "lot", "inn", "name", "offer", "won", "published"}

// Rivalry answers p (a supplier's) from the bids table through q, in three
// statements and one for the names: the totals, the rivals met most and
// the rivals who won most where the supplier did not. Both stores run it
// over the same SQL.
func Rivalry(ctx context.Context, q Query, ph Placeholder, p tenderbase.Profiling) (tenderbase.Rivalry, error) {
	if err := p.Validate(); err != nil {
		return tenderbase.Rivalry{}, err
	}
	from, to := int64(math.MinInt64), int64(math.MaxInt64)
	if !p.From.IsZero() {
		from = p.From.Unix()
	}
	if !p.To.IsZero() {
		to = p.To.Unix()
	}
	out := tenderbase.Rivalry{INN: p.INN, Rivals: []tenderbase.Rival{}, Winners: []tenderbase.Rival{}}
	args := []any{p.INN, from, to}
	err := scan(ctx, q, totalsSQL(ph), args, func(r Scanner) error {
		return r.Scan(&out.Procedures, &out.Won, &out.Lost)
	})
	if err != nil {
		return out, fmt.Errorf("rivalry of %s: %w", p.INN, err)
	}
	if out.Rivals, out.MoreRivals, err = rivals(ctx, q, rivalsSQL(ph, false), append(args, p.Size())); err != nil {
		return out, fmt.Errorf("rivals of %s: %w", p.INN, err)
	}
	if out.Winners, out.MoreWinners, err = rivals(ctx, q, rivalsSQL(ph, true), append(args, p.Size())); err != nil {
		return out, fmt.Errorf("winners over %s: %w", p.INN, err)
	}
	if err := name(ctx, q, ph, &out); err != nil {
		return out, fmt.Errorf("names of rivals of %s: %w", p.INN, err)
	}
	out.Statuses = []tenderbase.StatusCount{}
	err = scan(ctx, q, statusesSQL(ph), args, func(r Scanner) error {
		var c tenderbase.StatusCount
		if err := r.Scan(&c.Status, &c.Count); err != nil {
			return err
		}
		out.Statuses = append(out.Statuses, c)
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("contracts of %s by status: %w", p.INN, err)
	}
	return out, nil
}

// statusesSQL counts the contracts of the supplier (argument 1), dated in
// [2, 3), by the status their facts keep, the most first: those of which
// it is any supplier, as a search of contracts by supplier_inn finds them.
func statusesSQL(ph Placeholder) string {
	return `SELECT COALESCE(f.outcome, '` + tenderbase.ContractExecuting + `') AS status, count(*) AS n FROM facts f
		WHERE f.kind = '` + string(tenderbase.KindContract) + `' AND f.published >= ` + ph(2) + ` AND f.published < ` + ph(3) + `
		AND f.rid IN (SELECT l.rid FROM lookups l WHERE l.kind = '` + string(tenderbase.KindContract) + `'
			AND l.field = '` + tenderbase.LookupSupplierINN + `' AND l.value = ` + ph(1) + `)
		GROUP BY COALESCE(f.outcome, '` + tenderbase.ContractExecuting + `') ORDER BY n DESC, status`
}

// mineSQL selects the procedures the supplier (argument 1) took part in
// within the period [2, 3), and whether it won each.
func mineSQL(ph Placeholder) string {
	return `SELECT purchase, lot, max(won) AS won FROM bids
		WHERE inn = ` + ph(1) + ` AND published >= ` + ph(2) + ` AND published < ` + ph(3) + ` GROUP BY purchase, lot`
}

// totalsSQL counts the procedures, those won, and those lost: where
// another participant won and the supplier did not.
func totalsSQL(ph Placeholder) string {
	return `WITH mine AS (` + mineSQL(ph) + `)
		SELECT count(*), COALESCE(sum(m.won), 0),
			COALESCE(sum(CASE WHEN m.won = 0 AND EXISTS (SELECT 1 FROM bids w
				WHERE w.purchase = m.purchase AND w.lot = m.lot AND w.won = 1 AND w.inn <> ` + ph(1) + `) THEN 1 ELSE 0 END), 0)
		FROM mine m`
}

// rivalsSQL lists the other participants of the supplier's procedures:
// the procedures met, those they won, those they won where the supplier
// did not, and the number of such rivals; the most met first, or with
// winners the most won over first, of those who won over it at all.
func rivalsSQL(ph Placeholder, winners bool) string {
	having, order := "", "n_met DESC, n_won DESC, inn"
	if winners {
		having, order = " HAVING sum(CASE WHEN won = 1 AND mine = 0 THEN 1 ELSE 0 END) > 0", "n_beat DESC, n_met DESC, inn"
	}
	return `WITH mine AS (` + mineSQL(ph) + `), pairs AS (
			SELECT b.inn, max(b.won) AS won, max(m.won) AS mine FROM bids b
			JOIN mine m ON m.purchase = b.purchase AND m.lot = b.lot
			WHERE b.inn <> ` + ph(1) + ` GROUP BY b.inn, b.purchase, b.lot)
		SELECT inn, count(*) AS n_met, sum(won) AS n_won, sum(CASE WHEN won = 1 AND mine = 0 THEN 1 ELSE 0 END) AS n_beat,
			count(*) OVER ()
		FROM pairs GROUP BY inn` + having + ` ORDER BY ` + order + ` LIMIT ` + ph(4)
}

func rivals(ctx context.Context, q Query, sql string, args []any) ([]tenderbase.Rival, int, error) {
	out, all := []tenderbase.Rival{}, 0
	err := scan(ctx, q, sql, args, func(r Scanner) error {
		var v tenderbase.Rival
		if err := r.Scan(&v.INN, &v.Met, &v.Won, &v.WonOver, &all); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, all - len(out), err
}

// name gives the supplier and every rival listed the name most of their
// bids write, the shortest and then the first in order on a tie, as a
// group of an aggregate takes its name.
func name(ctx context.Context, q Query, ph Placeholder, rv *tenderbase.Rivalry) error {
	inns := []any{rv.INN}
	for _, list := range [][]tenderbase.Rival{rv.Rivals, rv.Winners} {
		for _, r := range list {
			inns = append(inns, r.INN)
		}
	}
	marks := make([]string, len(inns))
	for i := range inns {
		marks[i] = ph(i + 1)
	}
	names := map[string]*group{}
	err := scan(ctx, q, `SELECT inn, name, count(*) FROM bids WHERE name IS NOT NULL AND inn IN (`+strings.Join(marks, ", ")+`)
		GROUP BY inn, name`, inns, func(r Scanner) error {
		var inn, n string
		var count int
		if err := r.Scan(&inn, &n, &count); err != nil {
			return err
		}
		g := names[inn]
		if g == nil {
			g = &group{names: map[string]int{}}
			names[inn] = g
		}
		g.names[n] += count
		return nil
	})
	if err != nil {
		return err
	}
	of := func(inn string) string {
		if g := names[inn]; g != nil {
			return g.name()
		}
		return ""
	}
	rv.Name = of(rv.INN)
	for _, list := range [][]tenderbase.Rival{rv.Rivals, rv.Winners} {
		for i := range list {
			list[i].Name = of(list[i].INN)
		}
	}
	return nil
}

func scan(ctx context.Context, q Query, sql string, args []any, each func(Scanner) error) error {
	rows, done, err := q(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer done()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Numbered returns the placeholders ?1, ?2 of SQLite.
func Numbered(n int) string { return "?" + strconv.Itoa(n) }

// Dollar returns the placeholders $1, $2 of PostgreSQL.
func Dollar(n int) string { return "$" + strconv.Itoa(n) }
