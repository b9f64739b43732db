package eis

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The official schemas, under the shared data folder.
const (
	xsdFcs10       = "xsd44/kb392__goszakupki-scheme-44fz/fcsExport.xsd"
	xsdFcs14       = "xsd44-v14.1/rezident1989__portal44_xml/fcsExport.xsd"
	xsdPurchase223 = "xsd223/Homyakin__ZakupkiParser/purchase.xsd"
	xsdContract223 = "xsd223/Homyakin__ZakupkiParser/contract.xsd"
	xsdUnfair223   = "xsd223/Homyakin__ZakupkiParser/dishonestSupplier.xsd"
)

// sharedData is the folder of real samples and official schemas beside the
// repository, when it is there.
var sharedData = filepath.Join("..", "..", "..", "..", "shared", "data")

// fixtureRules says which schemas a fixture is checked against, by the
// start of its file name; the first rule that matches decides. A rule
// without schemas takes the one of the scheme version the document declares
// (schemeSchemas); a rule with noSchema says why a document has none here.
var fixtureRules = []struct {
	prefix   string
	schemas  []string
	noSchema string
}{
	// The legacy 44-FZ documents are checked against both versions.
	{prefix: "fcs", schemas: []string{xsdFcs10, xsdFcs14}},
	{prefix: "epNotificationEZT2020_0372200067924000512", noSchema: "an EZT2020 drug purchase, whose drugPurchaseObjectsInfo comes directly under notificationInfo, is of a scheme later than 14.1, which is not among the shared data"},
	{prefix: "ep", schemas: []string{xsdFcs14}},
	{prefix: "purchase", schemas: []string{xsdPurchase223}},
	{prefix: "contract223_", schemas: []string{xsdContract223}},
	{prefix: "contract44_2012_", noSchema: "the 94-FZ export of 2012 has no schema among the shared data"},
	{prefix: "contract44_"},
	{prefix: "complaint"},
	{prefix: "checkResult"},
	{prefix: "contractCancel"},
	{prefix: "contractProcedure"},
	{prefix: "pprf615", schemas: []string{xsdFcs14}},
	{prefix: "unfairSupplier"},
	{prefix: "dishonestSupplier", schemas: []string{xsdUnfair223}},
	{prefix: "tenderPlan2020"},
}

// schemeSchemas maps the major scheme version a document declares to its
// schema. 13.x documents are checked against 14.1, which accepts them.
var schemeSchemas = map[string]string{"10": xsdFcs10, "13": xsdFcs14, "14": xsdFcs14}

// schemeVersionPattern finds the major scheme version a document declares.
var schemeVersionPattern = regexp.MustCompile(`schemeVersion="(\d+)\.`)

// fixtureSchemas returns the schemas the fixture at path is checked
// against, as paths under sharedData, or why it has none. It fails the
// test when no rule covers the fixture.
func fixtureSchemas(t *testing.T, path string) (schemas []string, noSchema string) {
	t.Helper()
	name := filepath.Base(path)
	for _, r := range fixtureRules {
		if !strings.HasPrefix(name, r.prefix) {
			continue
		}
		if r.schemas != nil || r.noSchema != "" {
			return r.schemas, r.noSchema
		}
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := schemeVersionPattern.FindSubmatch(doc)
		if m == nil || schemeSchemas[string(m[1])] == "" {
			t.Fatalf("%s: no schema for the scheme version it declares", path)
		}
		return []string{schemeSchemas[string(m[1])]}, ""
	}
	t.Fatalf("%s: no schema for it: add a rule to fixtureRules", path)
	return nil, ""
}

// schemaTools returns xmllint, skipping the test when it or the schemas
// are not at hand.
func schemaTools(t *testing.T) string {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (apt-get install -y libxml2-utils): fixtures not checked against the schemas")
	}
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("no shared data folder at %s: fixtures not checked against the schemas", sharedData)
	}
	return xmllint
}

// checkFixtureSchemas validates the fixture at path with xmllint against
// each of its schemas.
func checkFixtureSchemas(t *testing.T, path string) {
	t.Helper()
	xmllint := schemaTools(t)
	schemas, noSchema := fixtureSchemas(t, path)
	if noSchema != "" {
		t.Skipf("%s: not checked: %s", path, noSchema)
	}
	var failed []string
	for _, schema := range schemas {
		out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join(sharedData, schema), path).CombinedOutput()
		if err != nil {
			failed = append(failed, schema+": "+err.Error()+"\n"+string(out))
		}
	}
	if len(failed) > 0 {
		t.Errorf("%s does not validate against\n%s", path, strings.Join(failed, "\n"))
	}
}

// TestFixturesValidate checks every fixture under testdata against the
// official schemas with xmllint, where xmllint and the schemas are at hand.
func TestFixturesValidate(t *testing.T) {
	schemaTools(t)
	var files []string
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".xml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures under testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(filepath.ToSlash(file), "testdata/"), func(t *testing.T) {
			t.Parallel()
			checkFixtureSchemas(t, file)
		})
	}
}
