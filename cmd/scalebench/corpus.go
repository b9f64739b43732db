package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/tenderbase/tenderbase/internal/benchcorpus"
)

// corpus is the corpus of a run: its NDJSON file in the cache and what
// counting it found.
type corpus struct {
	Path   string
	Survey survey
}

// survey is what counting a corpus found, kept beside it in the cache:
// generating and counting a million tenders takes minutes.
type survey struct {
	Vocabulary benchcorpus.Vocabulary `json:"vocabulary"`
	Classes    []benchcorpus.Class    `json:"classes"`
}

// corpusName names the files of the corpus of the configuration, by the
// generator's version, the seed and the number of tenders.
func (c config) corpusName() string {
	return fmt.Sprintf("corpus-v%s-seed%d-n%d", benchcorpus.Version, c.Seed, c.Records)
}

// loadCorpus returns the corpus of the configuration, generating its file
// and counting its words unless the cache holds them.
func loadCorpus(cfg config, logger *slog.Logger) (corpus, error) {
	if err := os.MkdirAll(cfg.Cache, 0o755); err != nil {
		return corpus{}, fmt.Errorf("make the cache folder: %w", err)
	}
	base := filepath.Join(cfg.Cache, cfg.corpusName())
	c := corpus{Path: base + ".ndjson"}
	if err := cached(c.Path, logger, "write the corpus", func(path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := benchcorpus.WriteNDJSON(f, cfg.Seed, cfg.Records); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}); err != nil {
		return c, err
	}
	err := cached(base+".classes-v"+benchcorpus.ClassesVersion+".json", logger, "count the corpus's words", func(path string) error {
		counts := benchcorpus.Count(cfg.Seed, cfg.Records)
		s := survey{Vocabulary: counts.Vocabulary(), Classes: counts.Classes()}
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(path, b, 0o644)
	})
	if err != nil {
		return c, err
	}
	b, err := os.ReadFile(base + ".classes-v" + benchcorpus.ClassesVersion + ".json")
	if err == nil {
		err = json.Unmarshal(b, &c.Survey)
	}
	if err != nil {
		return c, fmt.Errorf("read the corpus's classes: %w", err)
	}
	return c, nil
}

// cached makes the file at path with write unless it is there: write makes
// a file of another name, which takes path's only once complete, so that
// an interrupted run leaves no half file to be taken for a whole one.
func cached(path string, logger *slog.Logger, what string, write func(path string) error) error {
	if _, err := os.Stat(path); err == nil {
		logger.Info(what+": cached", "path", path)
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	logger.Info(what, "path", path)
	start := time.Now()
	tmp := path + ".part"
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	logger.Info(what+": done", "in", time.Since(start).Round(time.Millisecond))
	return nil
}
