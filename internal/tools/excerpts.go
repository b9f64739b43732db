package tools

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// docText is the text of one file of a tender's documentation.
type docText struct{ name, text string }

// relevantStems mark the parts of procurement documentation a bidder reads
// first: requirements, the technical task, terms and deadlines, payment,
// securities, evaluation, guarantees, penalties, quantities, acceptance.
var relevantStems = []string{
	"требован", "техническ", "задани", "срок", "поставк", "оплат", "обеспечен", "критери", "оценк",
	"гарант", "неусто", "штраф", "пени", "количеств", "характеристик", "цен", "приемк", "ответственност",
}

// maxPart bounds a part of a text, in characters: a text without blank
// lines is cut into parts of about this size at line or word ends.
const maxPart = 2000

// part is a paragraph of a file, how relevant it is and whether it is kept.
type part struct {
	text  string
	size  int // characters
	score int
	kept  bool
}

// excerpts returns the texts of docs cut to about budget characters: the
// most relevant parts are kept first (those naming the most of
// relevantStems, then the earlier), and written in their files' order,
// each file saying how much of it is shown and where parts are left out.
func excerpts(docs []docText, budget int) string {
	parts := make([][]part, len(docs)) // of each doc, in its order
	for i, d := range docs {
		for _, p := range paragraphs(d.text) {
			parts[i] = append(parts[i], part{text: p, size: utf8.RuneCountInString(p), score: relevance(p)})
		}
	}
	var ranked []*part
	for i := range parts {
		for j := range parts[i] {
			ranked = append(ranked, &parts[i][j])
		}
	}
	slices.SortStableFunc(ranked, func(a, b *part) int { return cmp.Compare(b.score, a.score) })
	left := budget
	for _, p := range ranked {
		if p.size <= left {
			p.kept = true
			left -= p.size
		}
	}
	var b strings.Builder
	for i, d := range docs {
		shown := 0
		for _, p := range parts[i] {
			if p.kept {
				shown += p.size
			}
		}
		fmt.Fprintf(&b, "### %s (%d of %d characters shown)\n\n", d.name, shown, utf8.RuneCountInString(d.text))
		gap := false
		for _, p := range parts[i] {
			if !p.kept {
				gap = true
				continue
			}
			if gap {
				b.WriteString("[…]\n\n")
				gap = false
			}
			b.WriteString(p.text)
			b.WriteString("\n\n")
		}
		if gap {
			b.WriteString("[…]\n\n")
		}
	}
	return b.String()
}

// paragraphs splits a text at blank lines, and a paragraph longer than
// maxPart at line ends, or else at spaces, into parts of at most about
// maxPart characters.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		p = strings.TrimSpace(p)
		for utf8.RuneCountInString(p) > maxPart {
			cut := cutAt(p, maxPart)
			out = append(out, strings.TrimSpace(p[:cut]))
			p = strings.TrimSpace(p[cut:])
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cutAt returns the byte offset to cut s at: the last line end, or else
// the last space, within its first n characters, or else the n-th
// character itself.
func cutAt(s string, n int) int {
	limit := len(s)
	for i := range s {
		if n == 0 {
			limit = i
			break
		}
		n--
	}
	head := s[:limit]
	if i := strings.LastIndexByte(head, '\n'); i > len(head)/2 {
		return i + 1
	}
	if i := strings.LastIndexByte(head, ' '); i > len(head)/2 {
		return i + 1
	}
	return limit
}

// relevance counts the relevant words a part names.
func relevance(p string) int {
	lower := strings.ToLower(p)
	n := 0
	for _, s := range relevantStems {
		n += strings.Count(lower, s)
	}
	return n
}
