// Package dictru is the Russian Hunspell dictionary the analysis is built
// from: LibreOffice's ru_RU (Alexander Lebedev's, BSD license), as the npm
// package dictionary-ru publishes it, pinned to one version and checked
// against the integrity the registry publishes for it. The generators of
// textproc's lemma table and of the word families read it through Read,
// so both are built from the same words.
package dictru

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase/internal/hunspell"
)

// The dictionary's package and its published integrity.
const (
	URL       = "https://registry.npmjs.org/dictionary-ru/-/dictionary-ru-3.0.0.tgz"
	Integrity = "sha512-tigem0CDnNpxEciW6ktwVH3wWB4FYpuvpwA6IR6UlF7bVu2kez6vOejVNyZgBX1TJIjuYTCTuLxzg/YOls2mRQ=="
)

// The files of the package that make the dictionary.
const (
	affixFile = "package/index.aff"
	wordsFile = "package/index.dic"
)

// Read returns the dictionary's affixes and its word list, for the
// affixes' ReadWords: from the package file at path, or downloaded from
// URL when path is empty, after checking the package against Integrity.
func Read(path string) (*hunspell.Dictionary, []byte, error) {
	pkg, err := fetch(path)
	if err != nil {
		return nil, nil, err
	}
	sum := sha512.Sum512(pkg)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != Integrity {
		return nil, nil, fmt.Errorf("dictionary package has integrity %s, want %s", got, Integrity)
	}
	files, err := untar(pkg, affixFile, wordsFile)
	if err != nil {
		return nil, nil, err
	}
	aff, err := hunspell.ReadAffixes(bytes.NewReader(files[affixFile]))
	if err != nil {
		return nil, nil, err
	}
	return aff, files[wordsFile], nil
}

// fetch returns the bytes of the package at path, or downloaded.
func fetch(path string) ([]byte, error) {
	if path != "" {
		return os.ReadFile(path)
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Get(URL)
	if err != nil {
		return nil, fmt.Errorf("download the dictionary: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download the dictionary: %s from %s", resp.Status, URL)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}

// untar returns the named files of a gzipped tar archive.
func untar(tgz []byte, names ...string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("dictionary package: %w", err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("dictionary package: %w", err)
		}
		if slices.Contains(names, h.Name) {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("dictionary package %s: %w", h.Name, err)
			}
		}
	}
	for _, n := range names {
		if files[n] == nil {
			return nil, fmt.Errorf("dictionary package has no %s", n)
		}
	}
	return files, nil
}
