package importer

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// input is one file to read: a plain file, or a zip archive whose members are
// read one by one.
type input struct {
	path    string
	size    int64 // of the content to read: an archive's members, uncompressed
	archive bool
}

// plan turns the paths into the files to read, in order, and sums their sizes
// for Progress. Paths that cannot be read are skipped here, with the reason.
func (imp *importer) plan(paths []string) []input {
	var inputs []input
	for _, p := range paths {
		// Within what one path gives, one folder after the other, so that
		// a folder's files of documentation meet its notices before the
		// next folder is read; the paths keep the order they were given in.
		expanded := imp.expand(p)
		slices.SortStableFunc(expanded, func(a, b input) int { return strings.Compare(filepath.Dir(a.path), filepath.Dir(b.path)) })
		inputs = append(inputs, expanded...)
	}
	for _, in := range inputs {
		imp.total += in.size
	}
	imp.report()
	return inputs
}

// expand returns the files a path names. A path given explicitly is read even
// when hidden or a symbolic link, since someone asked for it by name.
func (imp *importer) expand(path string) []input {
	info, err := os.Stat(path)
	if err != nil {
		imp.skip(path, "", reason(err))
		return nil
	}
	if info.IsDir() {
		return imp.walk(path)
	}
	return imp.file(path, info)
}

// walk returns the files under root in lexical order, leaving out hidden
// files and folders and not following symbolic links to folders.
func (imp *importer) walk(root string) []input {
	var inputs []input
	visit := func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			imp.skip(path, "", reason(err))
		case path != root && strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return filepath.SkipDir
			}
		case d.IsDir():
		case d.Type()&fs.ModeSymlink != 0:
			inputs = append(inputs, imp.link(path)...)
		default:
			inputs = append(inputs, imp.entry(path, d)...)
		}
		return nil
	}
	_ = filepath.WalkDir(root, visit) // visit never fails: it records problems
	return inputs
}

// link returns the file a symbolic link found in a folder points to.
func (imp *importer) link(path string) []input {
	info, err := os.Stat(path)
	if err != nil {
		imp.skip(path, "", reason(err))
		return nil
	}
	if info.IsDir() {
		imp.skip(path, "", "symbolic link to a folder, not followed")
		return nil
	}
	return imp.file(path, info)
}

// entry returns the input for a file found in a folder.
func (imp *importer) entry(path string, d fs.DirEntry) []input {
	info, err := d.Info()
	if err != nil {
		imp.skip(path, "", reason(err))
		return nil
	}
	return imp.file(path, info)
}

// file returns the input for one file, telling a zip archive by its content.
func (imp *importer) file(path string, info fs.FileInfo) []input {
	if !info.Mode().IsRegular() {
		imp.skip(path, "", "not a regular file")
		return nil
	}
	isZip, err := startsLikeZip(path)
	if err != nil {
		imp.skip(path, "", reason(err))
		return nil
	}
	if !isZip {
		return []input{{path: path, size: info.Size()}}
	}
	size, office, err := archiveSize(path)
	switch {
	case err != nil:
		imp.skip(path, "", "corrupt zip archive: "+reason(err))
		return nil
	case office:
		// A DOCX, XLSX or ODT is a zip archive too, but one document.
		return []input{{path: path, size: info.Size()}}
	}
	return []input{{path: path, size: size, archive: true}}
}

// zipMagic starts every zip archive: a local file header or, in an archive
// with no members, the end of the central directory.
var zipMagic = [][]byte{[]byte("PK\x03\x04"), []byte("PK\x05\x06")}

func isZip(prefix []byte) bool {
	return slices.ContainsFunc(zipMagic, func(m []byte) bool { return bytes.HasPrefix(prefix, m) })
}

func startsLikeZip(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false, err
	}
	return isZip(head[:n]), nil
}

// archiveSize returns the uncompressed size of the members of an archive
// that will be read, and whether the archive is an office document (Office
// Open XML or OpenDocument) rather than an archive of files.
func archiveSize(path string) (size int64, office bool, err error) {
	zr, members, err := openArchive(path)
	if err != nil {
		return 0, false, err
	}
	defer zr.Close()
	for _, m := range zr.File {
		if m.Name == "[Content_Types].xml" || m.Name == "mimetype" {
			return 0, true, nil
		}
	}
	for _, m := range members {
		size += int64(m.UncompressedSize64)
	}
	return size, false, nil
}

// openArchive opens a zip archive and returns its members to read, sorted by
// name, without folders and hidden files.
func openArchive(path string) (*zip.ReadCloser, []*zip.File, error) {
	zr, err := zip.OpenReader(path)
	if errors.Is(err, zip.ErrInsecurePath) {
		// Nothing is written to disk, so a member named "../x" is harmless.
		err = nil
	}
	if err != nil {
		return nil, nil, err
	}
	var members []*zip.File
	for _, m := range zr.File {
		if !m.FileInfo().IsDir() && !hiddenMember(m.Name) {
			members = append(members, m)
		}
	}
	slices.SortFunc(members, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	return zr, members, nil
}

// hiddenMember reports whether an archive member is hidden, or is the
// metadata macOS adds to the archives it makes.
func hiddenMember(name string) bool {
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") || part == "__MACOSX" {
			return true
		}
	}
	return false
}

// reason returns why an operation on a path failed, without repeating the
// path, which the report names anyway.
func reason(err error) string {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	return err.Error()
}
