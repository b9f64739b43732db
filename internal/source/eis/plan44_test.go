package eis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
)

// TestTenderPlanGolden checks that the plan-schedule fixture, built against
// the published XSD, yields exactly the positions of its golden file.
func TestTenderPlanGolden(t *testing.T) {
	file := filepath.Join("testdata", "plan", "tenderPlan2020_202501623000201001_3.xml")
	recs, errs := decodeFixture(t, file)
	if len(recs) != 4 || len(errs) != 0 {
		t.Errorf("%d records, rejections %v; want the four positions", len(recs), errs)
	}
	golden.Check(t, strings.TrimSuffix(file, ".xml")+".golden", goldenText(t, recs, errs))
}

// TestTenderPlanRejects checks that a plan-schedule without its registry
// number, or with a position without one, is rejected.
func TestTenderPlanRejects(t *testing.T) {
	doc := readFixtures(t, "plan", "tenderPlan2020_202501623000201001_3.xml")[0]
	for name, edited := range map[string]string{
		"no plan number":     strings.Replace(doc, "<ns5:planNumber>202501623000201001</ns5:planNumber>", "", 1),
		"no position number": strings.Replace(doc, "<ns5:positionNumber>202501623000201001000004</ns5:positionNumber>", "", 1),
		"a year in words":    strings.Replace(doc, "<ns5:publishYear>2025</ns5:publishYear>", "<ns5:publishYear>2025г</ns5:publishYear>", 1),
	} {
		recs, errs := decodeAll(t, "tenderPlan2020.xml", edited)
		if len(recs) != 0 || len(errs) != 1 {
			t.Errorf("%s: %d records, rejections %v; want one rejection", name, len(recs), errs)
		}
	}
	// The rejection quotes the value and a line at or after it, which the
	// dropped elements after it (extNumber, IKU...) may push down.
	lines := strings.Split(doc, "\n")
	year := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "<ns5:publishYear>2025</ns5:publishYear>") }) + 1
	_, errs := decodeAll(t, "tenderPlan2020.xml", strings.Replace(doc, "<ns5:publishYear>2025</ns5:publishYear>", "<ns5:publishYear>2025г</ns5:publishYear>", 1))
	var line int
	if len(errs) != 1 {
		t.Fatalf("a year in words: rejections %v, want one", errs)
	}
	if _, err := fmt.Sscanf(errs[0].Error()[strings.LastIndex(errs[0].Error(), "by line "):], "by line %d", &line); err != nil ||
		!strings.Contains(errs[0].Error(), `<tenderPlan2020> holds "2025г" where a number is due`) || line < year || line > year+5 {
		t.Errorf("a year in words on line %d: rejected with %q", year, errs[0])
	}
}

// TestTenderPlanWithoutOwner checks that a plan-schedule without its
// owner's block, which the schema requires but a broken file may lack,
// names no owner rather than an empty one.
func TestTenderPlanWithoutOwner(t *testing.T) {
	doc := readFixtures(t, "plan", "tenderPlan2020_202501623000201001_3.xml")[0]
	start, end := strings.Index(doc, "<ns5:ownerInfo>"), strings.Index(doc, "</ns5:ownerInfo>")
	recs, errs := decodeAll(t, "tenderPlan2020.xml", doc[:start]+doc[end+len("</ns5:ownerInfo>"):])
	if len(recs) != 4 || len(errs) != 0 {
		t.Fatalf("%d records, rejections %v; want the four positions", len(recs), errs)
	}
	for _, r := range recs {
		if p := r.(*tenderbase.PlannedPurchase); p.Owner != nil {
			t.Errorf("position %s has an owner %+v", p.PositionNumber, *p.Owner)
		}
	}
}
