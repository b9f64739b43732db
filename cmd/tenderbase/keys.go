package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tenderbase/tenderbase"
)

// keysCommands are the subcommands of keys.
func keysCommands() []command {
	return []command{
		{"create", "keys create --plan PLAN --name NAME [flags]",
			"create an active key and print its secret, the only time it is shown", runKeysCreate},
		{"list", "keys list [--json]", "list every key, newest first; secrets are never shown", runKeysList},
		{"suspend", "keys suspend ID", "refuse a key until it is resumed", runKeysStatus("suspend", tenderbase.KeySuspended)},
		{"resume", "keys resume ID", "accept a suspended key again", runKeysStatus("resume", tenderbase.KeyActive)},
		{"revoke", "keys revoke ID", "refuse a key for good", runKeysStatus("revoke", tenderbase.KeyRevoked)},
		{"limits", "keys limits ID [flags]", "show a key's limits, or change those the flags give", runKeysLimits},
	}
}

// keysGroup is the keys command's subcommands.
func keysGroup() subcommands {
	return subcommands{name: "keys", intro: "Manage the API keys of the store.", list: keysCommands()}
}

// runKeys runs the keys subcommand named by args[0].
func runKeys(ctx context.Context, c *cli, args []string) int { return keysGroup().run(ctx, c, args) }

// keysCommand looks up a subcommand for its flag set.
func keysCommand(name string) command { return keysGroup().command(name) }

// limitFlags are the flags of a key's overrides.
func limitFlags(fs *flag.FlagSet, l *tenderbase.Limits) {
	fs.IntVar(&l.RatePerMinute, "rate-per-minute", 0, "steady rate `R` in requests a minute; 0 for the plan's default")
	fs.IntVar(&l.Burst, "burst", 0, "`B` requests allowed at once; 0 for the plan's default")
	fs.IntVar(&l.RowCap, "row-cap", 0, "`C` rows one query may page through; 0 for the plan's default, -1 for no cap")
}

// keysConfig is the command line of one keys subcommand.
type keysConfig struct {
	Store storeConfig
	ID    string // of the key to change
}

// parseKeys parses the flags of subcommand cmd, which takes an ID when
// wantID is true, after more adds its own flags to the flag set.
func (c *cli) parseKeys(cmd command, args []string, wantID bool, more func(*flag.FlagSet)) (cfg keysConfig, fs *flag.FlagSet, code int, ok bool) {
	cfg.ID, fs, code, ok = c.parseSubcommand(cmd, args, &cfg.Store, "key", wantID, more)
	return cfg, fs, code, ok
}

// withKeys opens the key store of sc, runs f on it and closes it. Only
// create may start a new store file; the other subcommands need one.
func (c *cli) withKeys(ctx context.Context, sc storeConfig, create bool, f func(tenderbase.KeyStore) error) int {
	return withStoreOf(ctx, c, sc, create, "API keys", func(_ tenderbase.Store, keys tenderbase.KeyStore) error { return f(keys) })
}

// runKeysCreate creates a key. The secret alone goes on the first line of
// stdout, so that a script can take it with head -1; the key's description
// follows, and a reminder that the secret is shown once goes to stderr.
func runKeysCreate(ctx context.Context, c *cli, args []string) int {
	var k tenderbase.Key
	var plan string
	cmd := keysCommand("create")
	cfg, fs, code, ok := c.parseKeys(cmd, args, false, func(fs *flag.FlagSet) {
		fs.StringVar(&plan, "plan", "", "`PLAN` of the key: free, standard, guru or corporate")
		fs.StringVar(&k.Name, "name", "", "`NAME` the holder knows the key by")
		fs.StringVar(&k.Account, "account", "", "`ACCOUNT` whose seats the key takes; default a new account of its own")
		limitFlags(fs, &k.Overrides)
	})
	if !ok {
		return code
	}
	if plan == "" || strings.TrimSpace(k.Name) == "" {
		fmt.Fprintf(c.stderr, "tenderbase %s: --plan and --name are required\n", cmd.name)
		fs.Usage()
		return exitUsage
	}
	k.Plan = tenderbase.Plan(plan)
	return c.withKeys(ctx, cfg.Store, true, func(keys tenderbase.KeyStore) error {
		created, secret, err := keys.CreateKey(ctx, k)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, secret)
		writeKey(c.stdout, created)
		fmt.Fprintln(c.stderr, "tenderbase: the secret on the first line is shown only this once; store it now")
		return nil
	})
}

// writeKey describes a key, one field a line.
func writeKey(w io.Writer, k tenderbase.Key) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "id\t%s\n", k.ID)
	fmt.Fprintf(tw, "name\t%s\n", k.Name)
	fmt.Fprintf(tw, "account\t%s\n", k.Account)
	fmt.Fprintf(tw, "plan\t%s\n", k.Plan)
	fmt.Fprintf(tw, "status\t%s\n", k.Status)
	fmt.Fprintf(tw, "limits\t%s\n", describeLimits(k))
	tw.Flush()
}

// describeLimits says what limits apply to k, marking the overrides.
func describeLimits(k tenderbase.Key) string {
	l, o := k.Effective(), k.Overrides
	rows := "no row cap"
	if l.RowCap > 0 {
		rows = fmt.Sprintf("%d rows a query", l.RowCap)
	}
	return fmt.Sprintf("%d requests a minute%s, %d at once%s, %s%s",
		l.RatePerMinute, agreed(o.RatePerMinute), l.Burst, agreed(o.Burst), rows, agreed(o.RowCap))
}

// agreed marks a value that overrides the plan's.
func agreed(override int) string {
	if override != 0 {
		return " (agreed)"
	}
	return ""
}

// runKeysList lists the keys as a table or as JSON.
func runKeysList(ctx context.Context, c *cli, args []string) int {
	var asJSON bool
	cfg, _, code, ok := c.parseKeys(keysCommand("list"), args, false, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print the keys as a JSON array")
	})
	if !ok {
		return code
	}
	return c.withKeys(ctx, cfg.Store, false, func(keys tenderbase.KeyStore) error {
		list, err := keys.Keys(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			return writeKeysJSON(c.stdout, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(c.stderr, "tenderbase: no keys yet; create one with: tenderbase keys create --plan PLAN --name NAME")
			return nil
		}
		return writeKeys(c.stdout, list)
	})
}

func writeKeysJSON(w io.Writer, keys []tenderbase.Key) error {
	if keys == nil {
		keys = []tenderbase.Key{} // [], not null, so that a consumer can always iterate
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(keys)
}

// writeKeys writes the keys as a table.
func writeKeys(w io.Writer, keys []tenderbase.Key) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tACCOUNT\tPLAN\tSTATUS\tCREATED\tOVERRIDES")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Account, k.Plan, k.Status,
			k.CreatedAt.UTC().Format(time.RFC3339), describeOverrides(k.Overrides))
	}
	return tw.Flush()
}

// describeOverrides lists a key's overrides tersely, "-" for none.
func describeOverrides(o tenderbase.Limits) string {
	var parts []string
	if o.RatePerMinute != 0 {
		parts = append(parts, fmt.Sprintf("rate=%d/min", o.RatePerMinute))
	}
	if o.Burst != 0 {
		parts = append(parts, fmt.Sprintf("burst=%d", o.Burst))
	}
	switch {
	case o.RowCap < 0:
		parts = append(parts, "rows=unlimited")
	case o.RowCap > 0:
		parts = append(parts, fmt.Sprintf("rows=%d", o.RowCap))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// runKeysStatus returns the subcommand name, which gives a key status.
func runKeysStatus(name, status string) func(context.Context, *cli, []string) int {
	return func(ctx context.Context, c *cli, args []string) int {
		cfg, _, code, ok := c.parseKeys(keysCommand(name), args, true, func(*flag.FlagSet) {})
		if !ok {
			return code
		}
		return c.withKeys(ctx, cfg.Store, false, func(keys tenderbase.KeyStore) error {
			k, err := keys.SetKeyStatus(ctx, cfg.ID, status)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "%s (%s, account %s): %s\n", k.ID, k.Name, k.Account, k.Status)
			return nil
		})
	}
}

// runKeysLimits shows a key's limits, or changes the overrides the flags
// give and keeps the others: an agreement on one parameter does not undo
// the others.
func runKeysLimits(ctx context.Context, c *cli, args []string) int {
	var given tenderbase.Limits
	cfg, fs, code, ok := c.parseKeys(keysCommand("limits"), args, true, func(fs *flag.FlagSet) {
		limitFlags(fs, &given)
	})
	if !ok {
		return code
	}
	return c.withKeys(ctx, cfg.Store, false, func(keys tenderbase.KeyStore) error {
		k, err := findKey(ctx, keys, cfg.ID)
		if err != nil {
			return err
		}
		if l, changed := mergeLimits(fs, k.Overrides, given); changed {
			if k, err = keys.SetKeyLimits(ctx, k.ID, l); err != nil {
				return err
			}
		}
		fmt.Fprintf(c.stdout, "%s (plan %s): %s\n", k.ID, k.Plan, describeLimits(k))
		return nil
	})
}

// mergeLimits returns cur with the fields whose flags were set taken from
// given, and whether any was set.
func mergeLimits(fs *flag.FlagSet, cur, given tenderbase.Limits) (tenderbase.Limits, bool) {
	changed := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "rate-per-minute":
			cur.RatePerMinute, changed = given.RatePerMinute, true
		case "burst":
			cur.Burst, changed = given.Burst, true
		case "row-cap":
			cur.RowCap, changed = given.RowCap, true
		}
	})
	return cur, changed
}

// findKey returns the key with id, or ENOTFOUND.
func findKey(ctx context.Context, keys tenderbase.KeyStore, id string) (tenderbase.Key, error) {
	list, err := keys.Keys(ctx)
	if err != nil {
		return tenderbase.Key{}, err
	}
	for _, k := range list {
		if k.ID == id {
			return k, nil
		}
	}
	return tenderbase.Key{}, tenderbase.Errorf(tenderbase.ENOTFOUND, "no key with id %s", tenderbase.Quote(id))
}
