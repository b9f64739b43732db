package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is the release, set at build time with
// -ldflags "-X main.version=v1.2.3"; otherwise it comes from the module.
var version = ""

func runVersion(ctx context.Context, c *cli, args []string) int {
	fmt.Fprintf(c.stdout, "tenderbase %s (%s)\n", currentVersion(), runtime.Version())
	return exitOK
}

func currentVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// runHelp prints the overview, or the usage and flags of one command.
func runHelp(ctx context.Context, c *cli, args []string) int {
	if len(args) == 0 {
		c.usage(c.stdout)
		return exitOK
	}
	cmd, ok := lookupCommand(args[0])
	if !ok {
		fmt.Fprintf(c.stderr, "tenderbase help: unknown command %q\n\n", args[0])
		c.usage(c.stderr)
		return exitUsage
	}
	if cmd.name == "help" || cmd.name == "version" {
		c.usage(c.stdout)
		return exitOK
	}
	// Every command prints its usage and flags for -h, on its stderr; asked
	// for, help goes to stdout.
	helpCLI := *c
	helpCLI.stderr = c.stdout
	return cmd.run(ctx, &helpCLI, []string{"-h"})
}
