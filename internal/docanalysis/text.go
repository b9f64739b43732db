package docanalysis

import (
	"strings"
	"unicode"
)

// paragraph is one line of a file's text, split into sentences.
type paragraph struct {
	file      string
	index     int // 1-based
	page      int
	text      string
	key       string
	sentences []sentence
	// wraps is set in a PDF, whose lines are lines of the page and so may
	// cut a sentence.
	wraps bool
}

// sentence is a sentence or clause of a paragraph: text as it stands, and
// its key, which the rules are written against.
type sentence struct {
	text string
	key  string
}

// key folds s for matching: lower case, ё as е, and no white space at all,
// since doctext's text of the EIS print forms has spaces inside words
// («Об е спе чение заяв ок»), so rules cannot rely on where spaces are.
func key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			continue
		case r == 'ё' || r == 'Ё':
			r = 'е'
		case r == '–' || r == '—':
			r = '-'
		default:
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// paragraphs splits a file's text into paragraphs and sentences. The page
// of a line is counted from the footer the EIS prints at the bottom of
// every page of a print form (a line with the form's address); in other
// files the page stays 0.
func paragraphs(f File) []paragraph {
	lines := strings.Split(f.Text, "\n")
	out := make([]paragraph, 0, len(lines))
	page, printForm := 1, false
	pdf := strings.HasSuffix(strings.ToLower(f.Name), ".pdf")
	for i, line := range lines {
		k := key(line)
		p := paragraph{file: f.Name, index: i + 1, text: line, key: k, sentences: sentences(line), wraps: pdf}
		if strings.HasPrefix(k, "https://zakupki.gov.ru") {
			printForm = true
			p.page = page
			page++
		} else {
			p.page = page
		}
		out = append(out, p)
	}
	if !printForm {
		for i := range out {
			out[i].page = 0
		}
	}
	return out
}

// sentences splits a paragraph at a full stop, semicolon, question or
// exclamation mark that is followed by a space and a capital letter, and
// that ends a word of at least three letters or a bracket or quotation
// mark: «ст. 95», «г. Тарко-Сале», «3.1. Сроки» and «т.е.» stay whole. A paragraph is also one sentence of
// its own when it has no such break.
func sentences(line string) []sentence {
	var out []sentence
	rs := []rune(line)
	start := 0
	for i := 0; i+2 < len(rs); i++ {
		if !strings.ContainsRune(".;!?", rs[i]) || rs[i+1] != ' ' || !unicode.IsUpper(rs[i+2]) {
			continue
		}
		if rs[i] == '.' && !endsLongWord(rs[:i]) && !endsQuoteOrBracket(rs[:i]) {
			continue
		}
		out = appendSentence(out, string(rs[start:i+1]))
		start = i + 2
	}
	return appendSentence(out, string(rs[start:]))
}

func endsLongWord(rs []rune) bool {
	n := 0
	for i := len(rs) - 1; i >= 0 && unicode.IsLetter(rs[i]); i-- {
		n++
	}
	return n >= 3
}

// endsQuoteOrBracket reports whether rs ends with a closing bracket or
// quotation mark: «… неустоек (штрафов, пеней). Пеня начисляется …» ends a
// sentence there, as an abbreviation never does.
func endsQuoteOrBracket(rs []rune) bool {
	return len(rs) > 0 && strings.ContainsRune(")»\"", rs[len(rs)-1])
}

func appendSentence(out []sentence, s string) []sentence {
	s = strings.TrimSpace(s)
	if s == "" {
		return out
	}
	return append(out, sentence{text: s, key: key(s)})
}
