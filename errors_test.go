package tenderbase_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

func TestContextError(t *testing.T) {
	driverErr := errors.New("sqlite: interrupted (9)")
	timeout := tenderbase.Errorf(tenderbase.ETIMEOUT, "the request took longer than 1ns")
	past, cancelPast := context.WithTimeoutCause(context.Background(), time.Nanosecond, timeout)
	defer cancelPast()
	<-past.Done()
	gone, cancelGone := context.WithCancel(context.Background())
	cancelGone()
	tests := []struct {
		name     string
		ctx      context.Context
		err      error
		code     string
		message  string
		canceled bool
	}{
		{"live context", context.Background(), driverErr, tenderbase.EINTERNAL, "internal error", false},
		{"no error", past, nil, "", "", false},
		{"deadline with a cause", past, driverErr, tenderbase.ETIMEOUT, "the request took longer than 1ns", false},
		{"deadline, an error the caller can act on", past, tenderbase.Errorf(tenderbase.ENOTFOUND, "no tender"), tenderbase.ENOTFOUND, "no tender", false},
		{"client gone", gone, driverErr, tenderbase.EINTERNAL, "internal error", true},
	}
	for _, tt := range tests {
		got := tenderbase.ContextError(tt.ctx, tt.err)
		if tenderbase.ErrorCode(got) != tt.code || tenderbase.ErrorMessage(got) != tt.message {
			t.Errorf("%s: got %v (%s), want code %q message %q", tt.name, got, tenderbase.ErrorCode(got), tt.code, tt.message)
		}
		if errors.Is(got, context.Canceled) != tt.canceled {
			t.Errorf("%s: errors.Is(context.Canceled) = %v", tt.name, !tt.canceled)
		}
		if tt.err != nil && !errors.Is(got, tt.err) {
			t.Errorf("%s: the original error is lost: %v", tt.name, got)
		}
	}
}

func TestUnavailable(t *testing.T) {
	driverErr := errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
	notFound := tenderbase.Errorf(tenderbase.ENOTFOUND, "no tender")
	tests := []struct {
		name string
		err  error
		code string
		text string
	}{
		{"a driver error", driverErr, tenderbase.EUNAVAILABLE, driverErr.Error()},
		{"wrapped again", fmt.Errorf("search: %w", tenderbase.Unavailable(driverErr)), tenderbase.EUNAVAILABLE, "search: " + driverErr.Error()},
		{"an error with a code of its own", notFound, tenderbase.ENOTFOUND, "no tender"},
	}
	for _, tt := range tests {
		got := tt.err
		if tt.name != "wrapped again" {
			got = tenderbase.Unavailable(tt.err)
		}
		if tenderbase.ErrorCode(got) != tt.code || got.Error() != tt.text || !errors.Is(got, tt.err) {
			t.Errorf("%s: got %q (%s), want %q (%s) with the error in its chain", tt.name, got, tenderbase.ErrorCode(got), tt.text, tt.code)
		}
	}
	if msg := tenderbase.ErrorMessage(tenderbase.Unavailable(driverErr)); strings.Contains(msg, "127.0.0.1") || !strings.Contains(msg, "store") {
		t.Errorf("the caller reads %q: it must name the store, and no host", msg)
	}
	if tenderbase.Unavailable(nil) != nil {
		t.Error("Unavailable(nil) is not nil")
	}
}
