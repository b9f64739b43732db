package docanalysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/doctext"
)

// questions are the keys every answers.json holds, in the order of
// testdata/README.md.
var questions = []string{
	"application_security", "contract_security", "warranty_security",
	"advance", "delivery", "payment", "evaluation_criteria", "requirements",
	"national_regime", "sme", "penalties", "warranty", "contract_term",
	"brand_without_equivalent", "short_deadline",
}

type answer struct {
	Answer string `json:"answer"`
	Quote  string `json:"quote"`
	File   string `json:"file"`
	Member string `json:"member"`
	Where  string `json:"where"`
	Note   string `json:"note"`
}

type answers struct {
	PurchaseNumber string            `json:"purchase_number"`
	Answers        map[string]answer `json:"answers"`
}

// TestTenderAnswersAreWellFormed checks what the extraction runner relies on
// when it reads the hand-read answers: every tender's answers.json names its
// purchase, answers every question, and a found answer names a file of the
// tender, where in it, and the quote.
func TestTenderAnswersAreWellFormed(t *testing.T) {
	for _, dir := range tenderDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			a := readAnswers(t, dir)
			if a.PurchaseNumber != filepath.Base(dir) {
				t.Errorf("purchase_number %q, directory %q", a.PurchaseNumber, filepath.Base(dir))
			}
			if len(a.Answers) != len(questions) {
				t.Errorf("%d answers, want %d", len(a.Answers), len(questions))
			}
			for _, q := range questions {
				ans, ok := a.Answers[q]
				switch {
				case !ok:
					t.Errorf("%s: no answer", q)
				case ans.Answer == "not stated":
					if ans.Quote != "" || ans.File != "" {
						t.Errorf("%s: not stated, yet quotes %q from %q", q, ans.Quote, ans.File)
					}
				case ans.Answer == "" || ans.Quote == "" || ans.File == "" || ans.Where == "":
					t.Errorf("%s: a found answer needs answer, quote, file and where: %+v", q, ans)
				default:
					if _, err := os.Stat(filepath.Join(dir, ans.File)); err != nil {
						t.Errorf("%s: %v", q, err)
					}
				}
			}
		})
	}
}

// TestTenderQuotesStandInExtractedText checks that each quote can be found
// in the text the service extracts from the file it names, white space left
// out of both: doctext puts spaces inside the words of the EIS print forms,
// whose letters are spaced out («Н о м ер и з в ещ ени я»), so white space
// cannot be compared there.
// A quote in a file that doctext cannot read fails too: every file that
// holds a quote, DOC ones included, is in a format it reads.
func TestTenderQuotesStandInExtractedText(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 31 MB of documentation")
	}
	texts := map[string]extracted{}
	for _, dir := range tenderDirs(t) {
		a := readAnswers(t, dir)
		for _, q := range questions {
			ans := a.Answers[q]
			if ans.Quote == "" {
				continue
			}
			path := filepath.Join(dir, ans.File)
			ex, ok := texts[path]
			if !ok {
				ex = extract(path)
				texts[path] = ex
			}
			if why := ex.unread(ans.Member); why != "" {
				t.Errorf("%s %s: %s %s not read: %s", a.PurchaseNumber, q, ans.File, ans.Member, why)
				continue
			}
			if !strings.Contains(ex.text, withoutSpace(ans.Quote)) {
				t.Errorf("%s %s: quote not in the text of %s %s: %q", a.PurchaseNumber, q, ans.File, ans.Member, ans.Quote)
			}
		}
	}
}

func tenderDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "tenders", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 30 {
		t.Fatalf("%d tenders in testdata/tenders, want at least 30", len(dirs))
	}
	return dirs
}

func readAnswers(t *testing.T, dir string) answers {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a answers
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return a
}

// extracted is the text doctext gives for one file, white space left out.
type extracted struct {
	text    string
	err     error
	members []doctext.Member
}

func extract(path string) extracted {
	data, err := os.ReadFile(path)
	if err != nil {
		return extracted{err: err}
	}
	txt, err := doctext.Extract(context.Background(), filepath.Base(path), bytes.NewReader(data), int64(len(data)), doctext.Limits{})
	return extracted{text: withoutSpace(txt.Text), err: err, members: txt.Members}
}

// unread says why the file, or its member when one is named, gave no text;
// "" when it was read.
func (e extracted) unread(member string) string {
	if e.err != nil {
		return e.err.Error()
	}
	if member == "" {
		return ""
	}
	for _, m := range e.members {
		if m.Name == member {
			return m.Skipped
		}
	}
	return "no member " + member
}

// withoutSpace returns s with all its white space, no-break spaces
// included, left out.
func withoutSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), "")
}
