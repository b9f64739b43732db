package docanalysis_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/doctext"
)

// extractionFloor is how many of the set's 600 answers the extraction gets
// right today (see docs/analysis.md); a change that gets fewer right fails.
// Raise it with every rule that gets more right.
const extractionFloor = 557

// TestExtractionAgainstTheSet runs the extraction on every tender of the
// set and scores each question against the answers read by hand, by the
// rule of testdata/README.md and docs/decisions.md: a found answer is right
// when the quotes match with white space left out (one holds the other, or
// the hand's quote stands in the paragraph the extraction quoted), or the
// facts of the hand's quote are all among those extracted; a "not stated"
// is right when nothing was extracted. Run with -v for the report.
func TestExtractionAgainstTheSet(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 31 MB of documentation")
	}
	right := map[string]int{}
	total := map[string]int{}
	unread, wrongUnread := 0, 0
	for _, dir := range tenderDirs(t) {
		hand := readAnswers(t, dir)
		files, texts := readTender(t, dir)
		for _, f := range files {
			if f.Unread != "" {
				unread++
			}
		}
		an := docanalysis.Analyze(files)
		for _, got := range an.Answers {
			q := string(got.Question)
			want := hand.Answers[q]
			total[q]++
			ok, why := agrees(got, want, texts)
			switch {
			case ok:
				right[q]++
			case want.Quote != "" && extract(filepath.Join(dir, want.File)).unread(want.Member) != "":
				wrongUnread++
				t.Logf("%s %s: %s (a file doctext does not read)", hand.PurchaseNumber, q, why)
			default:
				t.Logf("%s %s: %s", hand.PurchaseNumber, q, why)
			}
		}
	}
	all, allRight := 0, 0
	for _, q := range questions {
		t.Logf("%-26s %3d / %3d  %5.1f%%", q, right[q], total[q], 100*float64(right[q])/float64(total[q]))
		all += total[q]
		allRight += right[q]
	}
	share := float64(allRight) / float64(all)
	t.Logf("overall %d / %d right: %.1f%%; %d files gave no text; %d of the %d wrong answers are quoted from files doctext does not read",
		allRight, all, 100*share, unread, wrongUnread, all-allRight)
	if allRight < extractionFloor {
		t.Errorf("%d answers right (%.1f%%), fewer than the floor of %d", allRight, 100*share, extractionFloor)
	}
}

// agrees reports whether the extraction's answer agrees with the hand's,
// and when not, why.
func agrees(got docanalysis.Answer, want answer, texts map[string]string) (bool, string) {
	if want.Answer == "not stated" {
		if !got.Found {
			return true, ""
		}
		return false, fmt.Sprintf("not stated, extracted %q from %s ¶%d", got.Quote, got.At.File, got.At.Paragraph)
	}
	if !got.Found {
		return false, fmt.Sprintf("not found; the hand quotes %q from %s", want.Quote, want.File)
	}
	g, w := withoutSpace(got.Quote), withoutSpace(want.Quote)
	para := texts[got.At.File+"\x00"+fmt.Sprint(got.At.Paragraph)]
	switch {
	case strings.Contains(g, w), len(g) >= 12 && strings.Contains(w, g):
		return true, ""
	case got.At.File == want.File && strings.Contains(para, w):
		return true, ""
	case factsAgree(got.Facts, docanalysis.FactsOf(want.Quote)):
		return true, ""
	}
	return false, fmt.Sprintf("extracted %q from %s ¶%d; the hand quotes %q from %s", got.Quote, got.At.File, got.At.Paragraph, want.Quote, want.File)
}

// factsAgree reports whether the facts of the hand's quote and the
// extraction's share one and contradict in none: where both state facts of
// a kind (percents, amounts, days, months, decrees), they have one in
// common, and they agree on whether the thing is required; or both allow
// «или эквивалент». The hand's quote and the
// extraction's may be two statements of the same answer in two files
// («5.00%» in the print form, «5% цены контракта, что составляет 75 375,00»
// in the draft contract).
func factsAgree(got, want docanalysis.Facts) bool {
	if want.NotRequired != got.NotRequired {
		return false
	}
	if want.NotRequired || want.Equivalent && got.Equivalent {
		return true
	}
	shared := 0
	for _, k := range []struct{ got, want []float64 }{
		{got.Percents, want.Percents},
		{got.Amounts, want.Amounts},
		{days(got.Days), days(want.Days)},
		{months(got.Months), months(want.Months)},
		{decrees(got.Decrees), decrees(want.Decrees)},
	} {
		if len(k.got) == 0 || len(k.want) == 0 {
			continue
		}
		if !slices.ContainsFunc(k.want, func(v float64) bool { return slices.Contains(k.got, v) }) {
			return false
		}
		shared++
	}
	return shared > 0
}

func days(ds []docanalysis.Days) []float64 {
	var out []float64
	for _, d := range ds {
		out = append(out, float64(d.N))
	}
	return out
}

func months(ms []int) []float64 {
	var out []float64
	for _, m := range ms {
		out = append(out, float64(m))
	}
	return out
}

func decrees(ds []string) []float64 {
	var out []float64
	for _, d := range ds {
		v, _ := strconv.ParseFloat(d, 64)
		out = append(out, v)
	}
	return out
}

// readTender reads the text of every file of a tender as the service
// would, and indexes each paragraph's text without white space by file and
// number for the scoring.
func readTender(t testing.TB, dir string) ([]docanalysis.File, map[string]string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var files []docanalysis.File
	texts := map[string]string{}
	for _, path := range paths {
		name := filepath.Base(path)
		if name == "answers.json" {
			continue
		}
		f := docanalysis.File{Name: name}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := doctext.Extract(context.Background(), name, bytes.NewReader(data), int64(len(data)), doctext.Limits{})
		switch {
		case err != nil:
			f.Unread = err.Error()
		case strings.TrimSpace(txt.Text) == "":
			f.Unread = "no text layer (a scan)"
		}
		f.Text = txt.Text
		for i, line := range strings.Split(txt.Text, "\n") {
			texts[name+"\x00"+fmt.Sprint(i+1)] = withoutSpace(line)
		}
		files = append(files, f)
	}
	return files, texts
}
