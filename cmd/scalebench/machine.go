package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// machine describes what the bench ran on.
type machine struct {
	CPUs       int    `json:"cpus"`
	GoVersion  string `json:"go_version"`
	Commit     string `json:"commit"` // empty when the build has none
	Modified   bool   `json:"modified"`
	LoadBefore string `json:"load_before"` // /proc/loadavg
	LoadAfter  string `json:"load_after"`
}

// describe returns the machine's line of a report: its CPUs, the build and
// the load before and after the run.
func (m machine) describe() string {
	commit := "unknown (not stamped in this build)"
	if m.Commit != "" {
		commit = m.Commit
		if m.Modified {
			commit += " with changes"
		}
	}
	return fmt.Sprintf("machine: %d CPUs, %s, commit %s; load %s before, %s after", m.CPUs, m.GoVersion, commit, m.LoadBefore, m.LoadAfter)
}

// currentMachine describes the machine and the build, and the load now.
func currentMachine() machine {
	m := machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), LoadBefore: loadAverage()}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				m.Commit = s.Value
			case "vcs.modified":
				m.Modified = s.Value == "true"
			}
		}
	}
	return m
}

// loadAverage returns the first three fields of /proc/loadavg, or "?"
// where there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// startPeak starts measuring the process's peak resident memory, and
// returns the function that reads it, 0 when it is unknown. Linux resets
// the peak (VmHWM) when "5" is written to /proc/self/clear_refs; where it
// cannot, the peak is that of the whole run so far.
func startPeak(logger *slog.Logger) func() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		logger.Warn("the peak RSS of a build is that of the run so far", "err", err)
	}
	return peakRSS
}

// peakRSS returns VmHWM of /proc/self/status in bytes, or 0.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
