package docjobs

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// maxDocs bounds the docs of one tender read: real notices list tens of
// files, and every version of a notice names its files again as the same
// docs.
const maxDocs = 500

// Documentation is the whole documentation of one tender as the store
// holds it: every doc of its purchase number, in the order of their file
// names, with its text when the sync or an import read the file (the text
// of an archive is that of its members), and why not when they did not.
type Documentation struct {
	PurchaseNumber string
	Files          []docanalysis.File
	// Version names what was read: the analyser and each doc's id,
	// address and text. Another version of the notice that adds, drops
	// or replaces a file, or a text read later, is another version.
	Version string
}

// ReadDocumentation gathers the documentation of purchase number from st.
// A purchase number with no doc stored is ENOTFOUND.
func ReadDocumentation(ctx context.Context, st tenderbase.Store, number, analyzer string) (Documentation, error) {
	var docs []*tenderbase.Doc
	s := tenderbase.Search{Kind: tenderbase.KindDoc, PageSize: tenderbase.MaxPageSize,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: number}}}
	for {
		page, err := st.Search(ctx, s)
		if err != nil {
			return Documentation{}, fmt.Errorf("the documentation of %s: %w", number, err)
		}
		for _, r := range page.Items {
			if d, ok := r.(*tenderbase.Doc); ok && d.PurchaseNumber == number {
				docs = append(docs, d)
			}
		}
		if page.Next == "" || len(docs) >= maxDocs {
			break
		}
		s.Cursor = page.Next
	}
	if len(docs) == 0 {
		return Documentation{}, tenderbase.Errorf(tenderbase.ENOTFOUND,
			"no documentation of tender %s is stored: the notice lists no file, or has not been synced or imported", tenderbase.Quote(number))
	}
	slices.SortFunc(docs, func(a, b *tenderbase.Doc) int {
		return cmp.Or(cmp.Compare(a.FileName, b.FileName), cmp.Compare(a.ID, b.ID))
	})
	d := Documentation{PurchaseNumber: number}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", analyzer)
	seen := map[string]int{}
	for _, doc := range docs {
		text := sha256.Sum256([]byte(doc.Text))
		fmt.Fprintf(h, "%s\x00%s\x00%x\n", doc.ID, doc.URL, text)
		name := cmp.Or(doc.FileName, doc.ID)
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s (%s)", name, doc.ID)
		}
		f := docanalysis.File{Name: name, Text: doc.Text}
		if strings.TrimSpace(doc.Text) == "" {
			f.Text, f.Unread = "", unread(doc)
		}
		d.Files = append(d.Files, f)
	}
	d.Version = hex.EncodeToString(h.Sum(nil))[:32]
	return d, nil
}

// unread says why a doc has no text. The store keeps the text of a file
// read and nothing of a file that was not, so the reason is told from
// what the doc says of its file.
func unread(d *tenderbase.Doc) string {
	ext := strings.ToLower(path.Ext(d.FileName))
	switch {
	case ext == ".pdf":
		return "a PDF with no text: a scan with no text layer (no OCR is done), or a file not downloaded yet"
	case slices.Contains([]string{".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".gif"}, ext):
		return "a picture (a scan): no OCR is done"
	case ext == ".xls":
		return "an Excel 97-2003 workbook, a format not read"
	case slices.Contains([]string{".docx", ".doc", ".rtf", ".xlsx", ".odt", ".ods", ".zip", ".rar", ".7z"}, ext):
		return "no text was read from it: the file was not downloaded yet, or is damaged or locked with a password"
	case d.URL == "":
		return "the notice lists the file without an address, and no import gave its text"
	case ext == "":
		return "a file with no extension, not read"
	}
	return "a format not read (" + ext + ")"
}
