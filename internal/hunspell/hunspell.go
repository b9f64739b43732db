// Package hunspell reads a Hunspell dictionary, an affix file (.aff) and a
// word list (.dic), and expands each word of the list into the forms its
// affix flags give. The Russian analyzer's lemma table is built from one
// (textproc's generator): a word of the list is a lemma, and its forms are
// the words that lemma is found by.
//
// What is read: the character set (SET), single-character flags (the
// default FLAG type), and suffix and prefix rules (SFX, PFX) with their
// strip, append and condition parts, combined across prefix and suffix
// when both allow it. Everything else the format has (suggestion tables,
// compounding, continuation classes on affixes) bears on spelling, not on
// the forms of a word, and is skipped; a FLAG type other than the default
// is refused, since its flags would be read wrongly.
package hunspell

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// Entry is a word of the list and the forms its flags give, itself first.
type Entry struct {
	Word  string
	Forms []string
}

// Dictionary is an affix file's rules, ready to expand words.
type Dictionary struct {
	suffixes map[rune]*affixClass
	prefixes map[rune]*affixClass
	charset  string
}

// affixClass is the rules of one flag.
type affixClass struct {
	cross bool // the rules combine with those of the other side
	rules []rule
}

// rule is one line of a class: strip these letters, add those, where the
// word ends (suffix) or starts (prefix) as the condition says.
type rule struct {
	strip, add string
	cond       condition
}

// ReadAffixes reads an affix file.
func ReadAffixes(r io.Reader) (*Dictionary, error) {
	d := &Dictionary{suffixes: map[rune]*affixClass{}, prefixes: map[rune]*affixClass{}, charset: "UTF-8"}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		fields := strings.Fields(text)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if err := d.directive(fields); err != nil {
			return nil, fmt.Errorf("affix file line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read affix file: %w", err)
	}
	return d, nil
}

// directive reads one line of the affix file.
func (d *Dictionary) directive(f []string) error {
	switch f[0] {
	case "SET":
		if len(f) < 2 {
			return fmt.Errorf("SET without a character set")
		}
		d.charset = f[1]
	case "FLAG":
		return fmt.Errorf("FLAG %s: only single-character flags are read", strings.Join(f[1:], " "))
	case "SFX", "PFX":
		side := d.suffixes
		if f[0] == "PFX" {
			side = d.prefixes
		}
		return addRule(side, f)
	}
	return nil
}

// addRule reads an SFX or PFX line: the header of a class ("SFX A Y 3") or
// one of its rules ("SFX A ый ого [^щ]ый").
func addRule(side map[rune]*affixClass, f []string) error {
	if len(f) < 4 {
		return fmt.Errorf("%s line has %d fields, want at least 4", f[0], len(f))
	}
	flag, err := singleFlag(f[1])
	if err != nil {
		return err
	}
	class, ok := side[flag]
	if !ok {
		if _, err := strconv.Atoi(f[3]); err != nil {
			return fmt.Errorf("%s %s header: count %q is not a number", f[0], f[1], f[3])
		}
		side[flag] = &affixClass{cross: f[2] == "Y"}
		return nil
	}
	if len(f) < 5 {
		return fmt.Errorf("%s %s rule has no condition", f[0], f[1])
	}
	strip, add := f[2], f[3]
	if strip == "0" {
		strip = ""
	}
	add, _, _ = strings.Cut(add, "/") // continuation classes are not expanded
	if add == "0" {
		add = ""
	}
	cond, err := parseCondition(f[4])
	if err != nil {
		return fmt.Errorf("%s %s: %w", f[0], f[1], err)
	}
	class.rules = append(class.rules, rule{strip: strip, add: add, cond: cond})
	return nil
}

func singleFlag(s string) (rune, error) {
	r := []rune(s)
	if len(r) != 1 {
		return 0, fmt.Errorf("flag %q is not one character", s)
	}
	return r[0], nil
}

// ReadWords reads a word list, in the affix file's character set, and calls
// f with each word expanded. The first line, the count of words, is
// skipped; a word's flags follow a slash, and morphological fields after
// whitespace are ignored.
func (d *Dictionary) ReadWords(r io.Reader, f func(Entry) error) error {
	enc, err := htmlindex.Get(d.charset)
	if err != nil {
		return fmt.Errorf("character set %q: %w", d.charset, err)
	}
	sc := bufio.NewScanner(transform.NewReader(r, enc.NewDecoder()))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 || text == "" {
			continue
		}
		text, _, _ = strings.Cut(text, "\t")
		text, _, _ = strings.Cut(text, " ")
		word, flags, _ := strings.Cut(text, "/")
		if err := f(Entry{Word: word, Forms: d.Expand(word, flags)}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read word list line %d: %w", line, err)
	}
	return nil
}

// Expand returns word and every form its flags give, without repeats, word
// first.
func (d *Dictionary) Expand(word, flags string) []string {
	forms := []string{word}
	seen := map[string]bool{word: true}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			forms = append(forms, f)
		}
	}
	for _, fl := range flags {
		if c := d.suffixes[fl]; c != nil {
			for _, s := range c.apply(word, false) {
				add(s)
				if c.cross {
					for _, p := range d.crossPrefixes(s, flags) {
						add(p)
					}
				}
			}
		}
		if c := d.prefixes[fl]; c != nil {
			for _, p := range c.apply(word, true) {
				add(p)
			}
		}
	}
	return forms
}

// crossPrefixes returns the forms the word's prefix classes that allow
// combining give to a suffixed form.
func (d *Dictionary) crossPrefixes(form, flags string) []string {
	var out []string
	for _, fl := range flags {
		if c := d.prefixes[fl]; c != nil && c.cross {
			out = append(out, c.apply(form, true)...)
		}
	}
	return out
}

// apply returns the forms of word under each rule of the class whose
// condition it meets.
func (c *affixClass) apply(word string, prefix bool) []string {
	var out []string
	for _, r := range c.rules {
		if prefix {
			if r.cond.matchStart(word) && strings.HasPrefix(word, r.strip) {
				out = append(out, r.add+word[len(r.strip):])
			}
			continue
		}
		if r.cond.matchEnd(word) && strings.HasSuffix(word, r.strip) {
			out = append(out, word[:len(word)-len(r.strip)]+r.add)
		}
	}
	return out
}
