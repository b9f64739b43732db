// Command tenderbase serves, imports and searches procurement data.
//
//	tenderbase serve [--addr 127.0.0.1:8080] [--demo]
//	tenderbase import PATH...
//	tenderbase search RESOURCE [QUERY]
//	tenderbase sync [--follow] [--since DATE] [--regions 77,50] [--sources eis]
//	tenderbase sync status
//	tenderbase keys create|list|suspend|resume|revoke|limits
//	tenderbase subscriptions list|create|delete|deliveries
//	tenderbase probe [--addr HOST:PORT] [--ready]
//	tenderbase version
//	tenderbase help [COMMAND]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tenderbase/tenderbase"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2 // bad arguments, flags or query
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, a second one ends the process at once.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], &cli{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}

// cli is what a command runs with: its output streams and its environment.
type cli struct {
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// command is one subcommand.
type command struct {
	name    string
	usage   string // the arguments, as in "import PATH..."
	summary string
	run     func(ctx context.Context, c *cli, args []string) int
}

func commands() []command {
	return []command{
		{"serve", "serve [flags]", "start the HTTP server", runServe},
		{"import", "import [flags] PATH...", "load files, folders and .zip archives into the store", runImport},
		{"search", "search [flags] RESOURCE [QUERY]", "search the store, newest first (resources: " + resourceNames() + ")", runSearch},
		{"sync", "sync [status] [flags]", "fetch new documents from the publishers into the store; show how each source stands", runSync},
		{"keys", "keys SUBCOMMAND [flags] [ID]", "create, list, suspend, resume and revoke API keys; set their limits", runKeys},
		{"subscriptions", "subscriptions SUBCOMMAND [ID]", "list, create and delete accounts' saved searches; show their deliveries", runSubscriptions},
		{"probe", "probe [--addr HOST:PORT] [--ready]", "ask a running server whether it is alive (or ready); exit 0 if so, the image's healthcheck", runProbe},
		{"version", "version", "print the version", runVersion},
		{"help", "help [COMMAND]", "show help for tenderbase or a command", runHelp},
	}
}

// run runs the command named by args[0] and returns the exit status.
func run(ctx context.Context, args []string, c *cli) int {
	if len(args) == 0 {
		c.usage(c.stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	cmd, ok := lookupCommand(name)
	if !ok {
		fmt.Fprintf(c.stderr, "tenderbase: unknown command %q\n\n", args[0])
		c.usage(c.stderr)
		return exitUsage
	}
	return cmd.run(ctx, c, args[1:])
}

func lookupCommand(name string) (command, bool) {
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd, true
		}
	}
	return command{}, false
}

// usage writes the overview of every command.
func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: tenderbase COMMAND [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-32s %s\n", cmd.usage, cmd.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every command that uses the store takes --db PATH (default ./tenderbase.db, env TENDERBASE_DB).")
	fmt.Fprintln(w, "Flags may come before or after the arguments. Run \"tenderbase help COMMAND\" for a command's flags.")
}

// fail reports err on stderr and returns the exit status it calls for: a
// usage error for invalid input, a failure otherwise. The command line is
// used by the person who runs it, so internal errors are shown in full.
func (c *cli) fail(err error) int {
	fmt.Fprintf(c.stderr, "tenderbase: %v\n", err)
	if tenderbase.ErrorCode(err) == tenderbase.EINVALID {
		return exitUsage
	}
	return exitFailure
}
