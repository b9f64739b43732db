package llm

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// systemPrompt says what the model is to write and in what shape.
const systemPrompt = `You read the documentation of a Russian public procurement (44-FZ or 223-FZ) for a supplier deciding whether to bid.
Answer with one JSON object and nothing else, of this shape:
{"summary": [{"text": "...", "quote": "..."}], "risks": [{"text": "...", "quote": "..."}]}
"summary": at most 8 statements on what is bought, where and by when it is delivered, the money (price, securities, advance, payment terms) and how the winner is chosen.
"risks": at most 8 statements on what is unusual or risky for a supplier: a very short deadline, heavy penalties, a brand without "или эквивалент", requirements that narrow the field, a large security, late payment, terms missing or contradicting each other.
Every statement has a "quote": a passage of at least a few words copied character for character from the documentation below, which proves the statement. Leave out any statement you cannot prove with such a quote. Never quote the headings of this message.
Write each "text" in Russian, in one or two sentences.`

// repairPrompt asks again for an answer that was not the JSON asked for.
const repairPrompt = `Your answer is not the JSON object asked for (%v). Answer again with that JSON object alone.`

// contextLines is how many lines before and after an extracted quote are
// sent with it, and excerptRunes the most sent of one such excerpt.
const (
	contextLines = 2
	excerptRunes = 800
)

// mainFile matches the names of the files read first: the notice and its
// print form, the draft contract, the description of the object.
var mainFile = regexp.MustCompile(`(?i)извещ|печатн|проект|контракт|договор|тз|техническ|описани`)

// userPrompt is what is sent of the documentation, within budget
// characters: first the answers extracted by rule, each with the lines
// around its quote (at most half the budget); then the start of each file
// with text, the main files first, sharing what is left equally; then the
// files that gave no text, by name.
func userPrompt(a docanalysis.Analysis, files []docanalysis.File, budget int) string {
	var b strings.Builder
	unread := unreadLine(files)
	left := budget - utf8.RuneCountInString(unread)
	write := func(s string) {
		b.WriteString(s)
		left -= utf8.RuneCountInString(s)
	}
	write("Answers extracted by rule, with the text around each quote:\n")
	lines := linesOf(files)
	half := budget / 2
	for _, ans := range a.Answers {
		s := excerptOf(ans, lines)
		if budget-left+utf8.RuneCountInString(s) > half || utf8.RuneCountInString(s) > left {
			continue
		}
		write(s)
	}
	write("\nThe documentation, the start of each file:\n")
	withText := textFiles(files)
	for i, f := range withText {
		head := fmt.Sprintf("\n=== %s ===\n", f.Name)
		share := left/(len(withText)-i) - utf8.RuneCountInString(head)
		if share <= 0 {
			break
		}
		write(head)
		write(start(f.Text, share))
	}
	b.WriteString(unread)
	return b.String()
}

// unreadLine names the files that gave no text, and why.
func unreadLine(files []docanalysis.File) string {
	var unread []string
	for _, f := range files {
		if strings.TrimSpace(f.Text) == "" {
			unread = append(unread, fmt.Sprintf("%s (%s)", f.Name, cmp.Or(f.Unread, "no text")))
		}
	}
	if len(unread) == 0 {
		return ""
	}
	return "\n\nFiles whose text could not be read: " + strings.Join(unread, "; ") + "\n"
}

// excerptOf is the line of one answer: the question, and the lines around
// its quote, or that it is not stated.
func excerptOf(ans docanalysis.Answer, lines map[string][]string) string {
	if !ans.Found {
		return fmt.Sprintf("- %s: not stated\n", ans.Question)
	}
	ls := lines[ans.At.File]
	i := ans.At.Paragraph - 1
	if i < 0 || i >= len(ls) {
		return fmt.Sprintf("- %s (%s): %s\n", ans.Question, ans.At.File, cut(ans.Quote, excerptRunes))
	}
	around := strings.Join(ls[max(0, i-contextLines):min(len(ls), i+contextLines+1)], "\n")
	return fmt.Sprintf("- %s (%s, line %d):\n%s\n", ans.Question, ans.At.File, ans.At.Paragraph, cut(around, excerptRunes))
}

func linesOf(files []docanalysis.File) map[string][]string {
	m := make(map[string][]string, len(files))
	for _, f := range files {
		m[f.Name] = strings.Split(f.Text, "\n")
	}
	return m
}

// textFiles returns the files with text, the main ones first, each group
// in the order given.
func textFiles(files []docanalysis.File) []docanalysis.File {
	var out []docanalysis.File
	for _, f := range files {
		if strings.TrimSpace(f.Text) != "" {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(x, y docanalysis.File) int {
		return rank(x) - rank(y)
	})
	return out
}

func rank(f docanalysis.File) int {
	if mainFile.MatchString(f.Name) {
		return 0
	}
	return 1
}

// start returns the whole lines at the start of text that fit in n
// characters, or the start of the first line when it alone is longer.
func start(text string, n int) string {
	var b strings.Builder
	used := 0
	for line := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		l := utf8.RuneCountInString(line) + 1
		if used+l > n {
			if used == 0 {
				return cut(line, n)
			}
			break
		}
		b.WriteString(line)
		b.WriteByte('\n')
		used += l
	}
	return b.String()
}

// cut returns s cut to at most n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
