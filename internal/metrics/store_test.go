package metrics

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/harvest"
)

// A sync's throttled downloads and partitions set aside are in the
// metrics, the last one set aside with its error, and gone once mended.
func TestSyncProgressSetAside(t *testing.T) {
	m := New(Build{})
	m.SyncProgress("eis", harvest.Progress{Throttled: 2, SetAside: 3, LastSetAside: "77/RJ/complaint/2026-11-20", LastSetAsideError: "archive: not a whole ZIP archive"})
	want := map[string]string{
		"tenderbase_sync_downloads_throttled":      "source=eis: 2",
		"tenderbase_sync_partitions_set_aside":     "source=eis: 3",
		"tenderbase_sync_partition_set_aside_last": "error=archive: not a whole ZIP archive partition=77/RJ/complaint/2026-11-20 source=eis: 1",
	}
	if diff := cmp.Diff(want, gauges(t, m, want)); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	m.SyncProgress("eis", harvest.Progress{})
	if got := gauges(t, m, want)["tenderbase_sync_partition_set_aside_last"]; got != "" {
		t.Errorf("a partition named set aside once none is: %s", got)
	}
}

// gauges returns the gauges of m named in names, each as its labels and
// value.
func gauges(t *testing.T, m *Metrics, names map[string]string) map[string]string {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range families {
		if _, ok := names[f.GetName()]; !ok {
			continue
		}
		for _, metric := range f.GetMetric() {
			var s string
			for _, l := range metric.GetLabel() {
				s += l.GetName() + "=" + l.GetValue() + " "
			}
			got[f.GetName()] += s[:len(s)-1] + ": " + fmtFloat(metric.GetGauge().GetValue())
		}
	}
	return got
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
