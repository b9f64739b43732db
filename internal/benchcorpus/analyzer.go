package benchcorpus

import (
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// analyzer analyzes the texts of tenders as a search matches them, keeping
// the analysis of the skeleton's few texts (placing methods, OKPD2 codes
// and names) rather than doing it again for every tender. It is one
// worker's: not safe for concurrent use.
type analyzer struct {
	known map[string][]textproc.Token
	keys  map[string]struct{} // of the last tender analyzed
	pairs map[pair]struct{}   // room for the pairs of a tender
}

func newAnalyzer() *analyzer {
	a := &analyzer{known: map[string][]textproc.Token{}, keys: map[string]struct{}{}, pairs: map[pair]struct{}{}}
	for _, ms := range methods {
		for _, m := range ms {
			a.known[m.v.name] = nil
		}
	}
	for _, c := range okpd2Classes {
		a.known[c.code], a.known[c.name] = nil, nil
	}
	return a
}

// fields returns the analyzed texts of t that a search of a paid plan
// matches (tenderbase.MatchedText), and gathers the lemma keys of its
// Russian words into a.keys.
func (a *analyzer) fields(t *tenderbase.Tender) [][]textproc.Token {
	texts := tenderbase.MatchedText(t, false)
	fields := make([][]textproc.Token, len(texts))
	for i, text := range texts {
		toks, skeleton := a.known[text]
		if toks == nil {
			toks = query.Fields([]string{text})[0]
			if skeleton {
				a.known[text] = toks
			}
		}
		fields[i] = toks
	}
	clear(a.keys)
	for _, f := range fields {
		for _, tok := range f {
			for _, k := range lemmaKeys(tok.Stem) {
				a.keys[k] = struct{}{}
			}
		}
	}
	return fields
}

// lemmaKeys returns the lemma keys of a Russian word's key
// (textproc.LemmaKeys), and none of a word of Latin letters or digits,
// which no query of the corpus looks for.
func lemmaKeys(key string) []string {
	if key == "" || key[0] < 0x80 {
		return nil
	}
	if isWord(key) {
		return []string{key}
	}
	return textproc.LemmaKeys(key)
}
