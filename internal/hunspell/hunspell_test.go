package hunspell

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"
)

// affixes are rules of the shapes the Russian dictionary uses: suffixes
// with a strip part, conditions with sets and negated sets, and a prefix
// class that combines with the suffixes.
const affixes = `SET UTF-8
TRY оеа

SFX I Y 4
SFX I   а   ы     [^кгхжшчщ]а
SFX I   а   и     [кгхжшчщ]а
SFX I   ка  ок    ка
SFX I   0   ми    .

PFX N Y 1
PFX N   0   не    .
`

func TestExpand(t *testing.T) {
	d, err := ReadAffixes(strings.NewReader(affixes))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		word, flags string
		want        []string
	}{
		{"поставка", "I", []string{"поставка", "поставки", "поставок", "поставками"}},
		{"охрана", "I", []string{"охрана", "охраны", "охранами"}},
		{"охрана", "IN", []string{"охрана", "охраны", "неохраны", "охранами", "неохранами", "неохрана"}},
		{"и", "", []string{"и"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, d.Expand(tt.word, tt.flags)); diff != "" {
			t.Errorf("%s/%s (-want +got):\n%s", tt.word, tt.flags, diff)
		}
	}
}

// TestReadWordsInCharset checks that a word list in the affix file's
// character set is decoded, its count line skipped and its morphological
// fields ignored.
func TestReadWordsInCharset(t *testing.T) {
	d, err := ReadAffixes(strings.NewReader(strings.Replace(affixes, "UTF-8", "KOI8-R", 1)))
	if err != nil {
		t.Fatal(err)
	}
	list, err := charmap.KOI8R.NewEncoder().String("2\nзамена/I\tpo:noun\nЧП\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []Entry
	if err := d.ReadWords(strings.NewReader(list), func(e Entry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"замена", []string{"замена", "замены", "заменами"}}, {"ЧП", []string{"ЧП"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestReadAffixesErrors(t *testing.T) {
	for _, aff := range []string{
		"FLAG long\n",
		"SFX AB Y 1\n",
		"SFX A Y x\n",
		"SFX A Y 1\nSFX A 0 ы\n",
		"SFX A Y 1\nSFX A 0 ы [аб\n",
	} {
		if _, err := ReadAffixes(strings.NewReader(aff)); err == nil {
			t.Errorf("%q read without an error", aff)
		}
	}
}
