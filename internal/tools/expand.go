package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/families"
	"github.com/tenderbase/tenderbase/internal/thesaurus"
)

// The search tools expand a query by the procurement thesaurus and by
// word families unless asked for the query as written (searchArgs.Exact):
// a word that the thesaurus knows also matches its synonyms, a category
// word also lists the records coded in its classes, of OKPD2 and of OKDP
// (which classified the records before 2016), and a noun also matches its
// family's adjectives (кровля, кровельный). This file is all of it that
// the search path sees: expandQuery before the store search, and addCoded
// after it.

// maxCodedClasses bounds the classes one search lists records of: each
// costs two store searches more.
const maxCodedClasses = 4

// expansion is one expansion of a query, as an answer says it: by the
// thesaurus or by a word family (families.Source).
type expansion struct {
	Words  string       `json:"words" jsonschema:"Words of the query that were widened."`
	Also   []string     `json:"also" jsonschema:"What they also matched: synonyms, abbreviations, word family."`
	OKPD2  []codedClass `json:"okpd2,omitempty" jsonschema:"OKPD2 classes the words name."`
	OKDP   []codedClass `json:"okdp,omitempty" jsonschema:"OKDP (ОК 004-93) classes the words name: records before 2016 are coded in OKDP, not OKPD2."`
	Source string       `json:"source" jsonschema:"Where the widening comes from."`
}

// codedClass is a class of an expansion and the records of it that the
// page lists.
type codedClass struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// Records is counted on the first page, when the page has room for
	// records after the word matches; nil otherwise.
	Records *int  `json:"records,omitempty" jsonschema:"Records coded in the class (with the rest of the query) that the words do not match: the okpd2 argument lists all of an OKPD2 class."`
	Items   []int `json:"items,omitempty" jsonschema:"The numbers of this page's items that are such records, listed after the word matches."`
}

// expandQuery returns q expanded by the thesaurus and then each word of
// it, as written, by its word family (кровля, кровельный), and the
// expansions.
func expandQuery(q tenderbase.Query) (tenderbase.Query, []thesaurus.Expansion) {
	if q == nil {
		return nil, nil
	}
	out, exps := thesaurus.Default().Expand(q)
	return withFamilies(out, q, exps)
}

// withFamilies widens the words of written in q, and in the rest of the
// query that a category's records must match, by their families, and
// adds the expansions to exps.
func withFamilies(q, written tenderbase.Query, exps []thesaurus.Expansion) (tenderbase.Query, []thesaurus.Expansion) {
	fam := families.Default()
	for i := range exps {
		if exps[i].Rest != nil {
			exps[i].Rest, _ = fam.Expand(exps[i].Rest, written)
		}
	}
	q, words := fam.Expand(q, written)
	if len(words) == 0 {
		return q, exps
	}
	// One expansion for all the words a family widened: a query of many
	// words would say the source for each.
	e := thesaurus.Expansion{Source: families.Source}
	var widened []string
	for _, w := range words {
		widened = append(widened, w.Words)
		e.Also = append(e.Also, w.Also...)
	}
	e.Words = strings.Join(widened, ", ")
	return q, append(exps, e)
}

// addCoded lists, after the word matches recs of the first page of srch
// (restricted to the caller's plan), the records coded in the classes of
// exps that the words do not match, while the page has room;
// it returns the page's records and the expansions as the answer says
// them. The word matches and their total stay as the query finds them.
func (s *Set) addCoded(ctx context.Context, srch tenderbase.Search, first bool, res searchResult, recs []tenderbase.Record, exps []thesaurus.Expansion, c caller) ([]tenderbase.Record, []expansion, error) {
	out := make([]expansion, len(exps))
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Key()] = true
	}
	room := first && res.NextCursor == "" && res.RowCap == 0
	classes := 0
	for i, e := range exps {
		out[i] = expansion{Words: e.Words, Also: e.Also, Source: e.Source}
		for _, cl := range e.Classes {
			cc := codedClass{Code: cl.Code, Name: cl.Name}
			if room && classes < maxCodedClasses {
				classes++
				var err error
				if recs, err = s.codedRecords(ctx, srch, e.Rest, cl.Lookup(), &cc, recs, seen, c); err != nil {
					return nil, nil, err
				}
			}
			if cl.Field == tenderbase.LookupOKDP {
				out[i].OKDP = append(out[i].OKDP, cc)
			} else {
				out[i].OKPD2 = append(out[i].OKPD2, cc)
			}
		}
	}
	return recs, out, nil
}

// classSearch returns srch, from its first page, restricted to the records
// coded in class and to the caller's plan; false when the plan does not
// search records by their classes (it hides their objects), and the class
// lists nothing for it.
func classSearch(srch tenderbase.Search, class tenderbase.Lookup, c caller) (tenderbase.Search, bool) {
	in := srch
	in.Where = append(slices.Clone(srch.Where), class)
	in.Page, in.Cursor = 0, ""
	in, err := c.plan.Restrict(in, lookupParams)
	return in, err == nil
}

// codedRecords counts the records coded in cc's class, those class looks
// up, that match rest and the filters of srch but not its query, and
// appends those of them recs has no room for up to a page.
func (s *Set) codedRecords(ctx context.Context, srch tenderbase.Search, rest tenderbase.Query, class tenderbase.Lookup, cc *codedClass, recs []tenderbase.Record, seen map[string]bool, c caller) ([]tenderbase.Record, error) {
	in, ok := classSearch(srch, class, c)
	if !ok {
		return recs, nil
	}
	// Of the records coded in the class, those the query matches are
	// among recs already: the two totals give the others' count.
	both := in
	both.PageSize = 1
	coded := in
	coded.Query, coded.PageSize = rest, srch.Size()+len(recs)
	if rest == nil && coded.Sort == tenderbase.SortRelevance {
		coded.Sort = tenderbase.SortNewest
	}
	bothPage, err := s.store.Search(ctx, both)
	if err != nil {
		return nil, fmt.Errorf("%s search: %w", srch.Kind, err)
	}
	codedPage, err := s.store.Search(ctx, coded)
	if err != nil {
		return nil, fmt.Errorf("%s search: %w", srch.Kind, err)
	}
	n := codedPage.Total - bothPage.Total
	cc.Records = &n
	for _, r := range codedPage.Items {
		if len(recs) >= srch.Size() {
			break
		}
		if !seen[r.Key()] {
			seen[r.Key()] = true
			recs = append(recs, r)
			cc.Items = append(cc.Items, len(recs))
		}
	}
	return recs, nil
}

// writeExpansions writes a line an expansion of the thesaurus for a
// model to read.
func writeExpansions(b *strings.Builder, exps []expansion, k hitKind) {
	for _, e := range exps {
		if e.Source == families.Source {
			continue
		}
		fmt.Fprintf(b, "Expanded: %s also matched %s", e.Words, strings.Join(e.Also, ", "))
		for _, cl := range e.OKPD2 {
			writeClass(b, "OKPD2", cl, k)
		}
		// An OKDP class classifies old records only: said when it adds
		// some, it does not lengthen the line of every other answer.
		for _, cl := range e.OKDP {
			if cl.Records != nil && *cl.Records > 0 {
				writeClass(b, "OKDP", cl, k)
			}
		}
		b.WriteString(". exact: true searches the query as written; the okpd2 argument lists a class.\n")
	}
}

// writeFamilies writes, last, one line of the words that word families
// widened: a footnote, since a family's words are those of the query in
// other parts of speech.
func writeFamilies(b *strings.Builder, exps []expansion) {
	for _, e := range exps {
		if e.Source == families.Source {
			fmt.Fprintf(b, "Word families: %s also matched %s (DerivBase.Ru; exact: true searches as written).\n", e.Words, strings.Join(e.Also, ", "))
		}
	}
}

// writeClass writes a class of an expansion and the records it adds.
func writeClass(b *strings.Builder, classifier string, cl codedClass, k hitKind) {
	fmt.Fprintf(b, "; %s %s «%s»", classifier, cl.Code, cl.Name)
	if cl.Records != nil {
		fmt.Fprintf(b, ": %d %s coded in it without the words", *cl.Records, k.noun(*cl.Records))
		if len(cl.Items) > 0 {
			fmt.Fprintf(b, ", listed as %s", itemNumbers(cl.Items))
		}
	}
}

// itemNumbers writes item numbers as a range when they follow each other.
func itemNumbers(items []int) string {
	if len(items) == 1 {
		return fmt.Sprintf("item %d", items[0])
	}
	if items[len(items)-1]-items[0] == len(items)-1 {
		return fmt.Sprintf("items %d-%d", items[0], items[len(items)-1])
	}
	s := make([]string, len(items))
	for i, n := range items {
		s[i] = fmt.Sprint(n)
	}
	return "items " + strings.Join(s, ", ")
}
