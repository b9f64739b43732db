package ocds

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// TestSameDateReleasesMergeInAnyOrder reads two releases of one process
// published at the same instant (Jalisco publishes a process's tender,
// award and contract releases so) in the package's order and reversed,
// and each from a file of its own imported in either order: all four give
// one tender, the award's release being the later.
func TestSameDateReleasesMergeInAnyOrder(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "same-date.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg map[string]any
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	releases := pkg["releases"].([]any)
	withReleases := func(rs ...any) []byte {
		p := map[string]any{"uri": pkg["uri"], "releases": rs}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	inOrder := decodeOne(t, b)
	if inOrder.NoticeType != "award" || len(inOrder.Awards) != 1 || inOrder.Awards[0].TendersReceived != 2 {
		t.Fatalf("merged in the package's order: notice type %q, awards %+v: want the award release's", inOrder.NoticeType, inOrder.Awards)
	}
	reversed := slices.Clone(releases)
	slices.Reverse(reversed)
	tenderFile, awardFile := decodeOne(t, withReleases(releases[0])), decodeOne(t, withReleases(releases[1]))
	for name, got := range map[string]tenderbase.Record{
		"package reversed": decodeOne(t, withReleases(reversed...)),
		"award file last":  awardFile.Merge(tenderFile),
		"tender file last": tenderFile.Merge(awardFile),
	} {
		if diff := cmp.Diff(inOrder, got); diff != "" {
			t.Errorf("%s (-package order +got):\n%s", name, diff)
		}
	}
}
