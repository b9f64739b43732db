package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// OpenSyncLog returns a fresh, empty sync log, closed when the test ends.
// Reopen, when not nil, closes it and opens the same store again, so that
// the suite sees what outlives a restart.
type OpenSyncLog func(t *testing.T) (log tenderbase.SyncLog, reopen func() tenderbase.SyncLog)

// RunSyncLog runs the behaviour suite of tenderbase.SyncLog.
func RunSyncLog(t *testing.T, open OpenSyncLog) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, OpenSyncLog)
	}{
		{"Checkpoints", testSyncCheckpoints},
		{"States", testSyncStates},
		{"Invalid", testSyncInvalid},
		{"ListAndDelete", testSyncListAndDelete},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, open) })
	}
}

// syncTime is a moment every store keeps exactly (microseconds, UTC).
var syncTime = time.Date(2026, 11, 25, 21, 0, 0, 123456000, time.UTC)

func testSyncCheckpoints(t *testing.T, open OpenSyncLog) {
	ctx := context.Background()
	log, reopen := open(t)
	if _, err := log.Checkpoint(ctx, "eis", "77/PRIZ/epNotificationEF2020/2026-11-25"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Fatalf("Checkpoint of a partition never completed: %v, want ENOTFOUND", err)
	}
	first := tenderbase.Checkpoint{Source: "eis", Partition: "77/PRIZ/epNotificationEF2020/2026-11-25", At: syncTime}
	cursor := tenderbase.Checkpoint{Source: "torgi", Partition: "77/PRIZ/epNotificationEF2020/2026-11-25", Value: "v1", At: syncTime}
	for _, c := range []tenderbase.Checkpoint{first, cursor} {
		if err := log.SetCheckpoint(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// A partition completed again replaces what was recorded of it.
	cursor.Value, cursor.At = "v2", syncTime.Add(time.Hour)
	if err := log.SetCheckpoint(ctx, cursor); err != nil {
		t.Fatal(err)
	}
	if reopen != nil {
		log = reopen()
	}
	for _, want := range []tenderbase.Checkpoint{first, cursor} {
		got, err := log.Checkpoint(ctx, want.Source, want.Partition)
		if err != nil {
			t.Fatalf("Checkpoint(%s, %s): %v", want.Source, want.Partition, err)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(time.Time.Equal)); diff != "" {
			t.Errorf("Checkpoint(%s, %s) (-want +got):\n%s", want.Source, want.Partition, diff)
		}
	}
}

func testSyncStates(t *testing.T, open OpenSyncLog) {
	ctx := context.Background()
	log, reopen := open(t)
	states, err := log.SyncStates(ctx)
	if err != nil || len(states) != 0 {
		t.Fatalf("SyncStates of a new store: %v, %v; want none", states, err)
	}
	torgi := tenderbase.SyncState{Source: "torgi", LastAttempt: syncTime, LastError: "torgi.gov.ru answered 503 Service Unavailable", LastErrorAt: syncTime}
	eis := tenderbase.SyncState{Source: "eis", Through: syncTime.Add(-time.Hour), LastAttempt: syncTime, LastSuccess: syncTime,
		Partitions: 3, Files: 4, Records: 5, Inserted: 4, Rejected: 1, LastRejection: "a.zip!/b.xml: bad"}
	for _, s := range []tenderbase.SyncState{torgi, eis} {
		if err := log.PutSyncState(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	torgi.LastError, torgi.LastSuccess = "", syncTime.Add(time.Minute)
	if err := log.PutSyncState(ctx, torgi); err != nil {
		t.Fatal(err)
	}
	if reopen != nil {
		log = reopen()
	}
	states, err = log.SyncStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]tenderbase.SyncState{eis, torgi}, states, cmp.Comparer(time.Time.Equal)); diff != "" {
		t.Errorf("SyncStates (-want +got):\n%s", diff)
	}
}

func testSyncInvalid(t *testing.T, open OpenSyncLog) {
	ctx := context.Background()
	log, _ := open(t)
	if err := log.SetCheckpoint(ctx, tenderbase.Checkpoint{Partition: "x", At: syncTime}); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
		t.Errorf("SetCheckpoint without a source: %v, want EINVALID", err)
	}
	if err := log.PutSyncState(ctx, tenderbase.SyncState{}); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
		t.Errorf("PutSyncState without a source: %v, want EINVALID", err)
	}
}

func testSyncListAndDelete(t *testing.T, open OpenSyncLog) {
	ctx := context.Background()
	log, _ := open(t)
	for _, c := range []tenderbase.Checkpoint{
		{Source: "eis", Partition: "texts/b_%", Value: "1"},
		{Source: "eis", Partition: "texts/a", Value: "2"},
		{Source: "eis", Partition: "textsX"},
		{Source: "eis", Partition: "77/PRIZ/x/2026-11-25"},
		{Source: "torgi", Partition: "texts/c"},
	} {
		c.At = syncTime
		if err := log.SetCheckpoint(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	names := func(prefix string, limit int) []string {
		t.Helper()
		cps, err := log.Checkpoints(ctx, "eis", prefix, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, c := range cps {
			out = append(out, c.Partition+"="+c.Value)
		}
		return out
	}
	if diff := cmp.Diff([]string{"texts/a=2", "texts/b_%=1"}, names("texts/", 10)); diff != "" {
		t.Errorf("Checkpoints(texts/) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"texts/b_%=1"}, names("texts/b_", 10)); diff != "" {
		t.Errorf("a prefix with _ and %% is taken as it is (-want +got):\n%s", diff)
	}
	if got := names("texts/", 1); len(got) != 1 {
		t.Errorf("limit 1 gave %v", got)
	}
	if err := log.DeleteCheckpoint(ctx, "eis", "texts/a"); err != nil {
		t.Fatal(err)
	}
	if err := log.DeleteCheckpoint(ctx, "eis", "never"); err != nil {
		t.Errorf("forgetting a partition never recorded: %v", err)
	}
	if diff := cmp.Diff([]string{"texts/b_%=1"}, names("texts/", 10)); diff != "" {
		t.Errorf("after DeleteCheckpoint (-want +got):\n%s", diff)
	}
}
