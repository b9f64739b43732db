package spelling

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tenderbase/tenderbase/internal/hunspell"
)

// The vocabulary of the benchmarks: the forms of the Russian Hunspell
// dictionary (the npm package dictionary-ru unpacked: its index.aff and
// index.dic), every one of them or an even sample of -words.
var (
	dicDir   = flag.String("dic", "", "folder of the dictionary-ru package (index.aff, index.dic) the benchmarks take their words from")
	numWords = flag.Int("words", 300_000, "words of the benchmarks' vocabulary")
)

var dictionaryForms = sync.OnceValues(func() ([]string, error) {
	aff, err := os.Open(filepath.Join(*dicDir, "index.aff"))
	if err != nil {
		return nil, err
	}
	defer aff.Close()
	d, err := hunspell.ReadAffixes(aff)
	if err != nil {
		return nil, err
	}
	dic, err := os.Open(filepath.Join(*dicDir, "index.dic"))
	if err != nil {
		return nil, err
	}
	defer dic.Close()
	seen := map[string]bool{}
	var forms []string
	err = d.ReadWords(dic, func(e hunspell.Entry) error {
		for _, f := range e.Forms {
			f = strings.ReplaceAll(strings.ToLower(f), "ё", "е")
			if !seen[f] {
				seen[f] = true
				forms = append(forms, f)
			}
		}
		return nil
	})
	if err != nil || len(forms) <= *numWords {
		return forms, err
	}
	sample := make([]string, 0, *numWords)
	for i := range *numWords {
		sample = append(sample, forms[i*len(forms) / *numWords])
	}
	// The words the benchmarks look near are in every sample.
	return append(sample, "поставка", "лекарства", "бумага"), nil
})

func benchWords(b *testing.B) []string {
	b.Helper()
	if *dicDir == "" {
		b.Skip("-dic names no dictionary")
	}
	words, err := dictionaryForms()
	if err != nil {
		b.Fatal(err)
	}
	return words
}

// BenchmarkBuild builds the index of the vocabulary, as a store's
// vocabulary is built at its first correction and after its writes, and
// reports its size and the heap it keeps.
func BenchmarkBuild(b *testing.B) {
	words := benchWords(b)
	var idx *Index
	for b.Loop() {
		var err error
		if idx, err = Build(words); err != nil {
			b.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	idx = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	idx, _ = Build(words)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(idx.Len()), "words")
	b.ReportMetric(float64(idx.Size())/(1<<20), "MB-fst")
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MB-heap")
}

// BenchmarkNear looks the known words near a query word up.
func BenchmarkNear(b *testing.B) {
	idx, err := Build(benchWords(b))
	if err != nil {
		b.Fatal(err)
	}
	for _, word := range []string{"поставака", "лекраства", "бумвга", "трансцендентность", "электроэнергея"} {
		b.Run(word, func(b *testing.B) {
			var n int
			for b.Loop() {
				near, err := idx.Near(word)
				if err != nil {
					b.Fatal(err)
				}
				n = len(near)
			}
			b.ReportMetric(float64(n), "near")
		})
	}
}
