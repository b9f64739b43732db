package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"
)

// Set at build time, where the build has no version control to read them
// from (a container build copies no .git):
//
//	-ldflags "-X main.version=v1.2.3 -X main.commit=abc123 -X main.buildTime=2026-11-26T10:00:00Z"
//
// Otherwise they come from what go build stamps into the binary in a git
// checkout (debug.ReadBuildInfo).
var (
	version   = ""
	commit    = ""
	buildTime = "" // RFC 3339
)

// build describes the running binary.
type build struct {
	Version    string
	Commit     string
	Modified   bool      // built from a checkout with uncommitted changes
	CommitTime time.Time // zero when unknown
	BuildTime  time.Time // zero when unknown
	// BuildTimeOfFile tells that BuildTime is the binary file's
	// modification time, the best a build without -ldflags leaves.
	BuildTimeOfFile bool
	GoVersion       string
}

// currentBuild reads the build of the running binary: the values set with
// -ldflags first, then those go build stamped.
func currentBuild() build {
	b := build{Version: version, Commit: commit, GoVersion: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				b.CommitTime, _ = time.Parse(time.RFC3339, s.Value)
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if t, err := time.Parse(time.RFC3339, buildTime); err == nil {
		b.BuildTime = t
	} else if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			b.BuildTime, b.BuildTimeOfFile = fi.ModTime().UTC(), true
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// currentVersion is the version the server gives its MCP clients and its
// metrics: the release, or the commit a development build was made from.
func currentVersion() string { return currentBuild().shortVersion() }

// shortVersion is the release, or the commit a development build was made
// from.
func (b build) shortVersion() string {
	if b.Version == "devel" && b.Commit != "" {
		return "devel-" + shortCommit(b.Commit)
	}
	return b.Version
}

func shortCommit(c string) string {
	return c[:min(len(c), 12)]
}

func runVersion(ctx context.Context, c *cli, args []string) int {
	b := currentBuild()
	fmt.Fprintf(c.stdout, "tenderbase %s\n", b.Version)
	switch {
	case b.Commit == "":
		fmt.Fprintln(c.stdout, "commit:    unknown (built without version control: go build in a git checkout stamps it, or -ldflags -X main.commit=...)")
	case b.Modified:
		fmt.Fprintf(c.stdout, "commit:    %s, with uncommitted changes\n", b.Commit)
	default:
		fmt.Fprintf(c.stdout, "commit:    %s\n", b.Commit)
	}
	if !b.CommitTime.IsZero() {
		fmt.Fprintf(c.stdout, "committed: %s\n", b.CommitTime.Format(time.RFC3339))
	}
	switch {
	case b.BuildTime.IsZero():
		fmt.Fprintln(c.stdout, "built:     unknown")
	case b.BuildTimeOfFile:
		fmt.Fprintf(c.stdout, "built:     %s (the binary's modification time)\n", b.BuildTime.Format(time.RFC3339))
	default:
		fmt.Fprintf(c.stdout, "built:     %s\n", b.BuildTime.Format(time.RFC3339))
	}
	fmt.Fprintf(c.stdout, "go:        %s %s/%s\n", b.GoVersion, runtime.GOOS, runtime.GOARCH)
	return exitOK
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
