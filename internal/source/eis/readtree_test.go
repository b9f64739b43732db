package eis

import (
	"encoding/xml"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEveryWireStructIsListed parses the package's sources and requires
// every struct type with xml tags to be reachable from documentWires:
// Decode keeps of a document only what those types map, so a decoder whose
// wire struct is missing there would read nothing.
func TestEveryWireStructIsListed(t *testing.T) {
	reachable := map[string]bool{}
	for _, v := range documentWires {
		reachTypes(reflect.TypeOf(v), reachable)
	}
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range sources {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			checkDeclaration(t, fset, decl, reachable)
		}
	}
}

// checkDeclaration fails the test for a struct type with xml tags in decl
// that documentWires does not reach, or that is not a named type of the
// package and so cannot be listed.
func checkDeclaration(t *testing.T, fset *token.FileSet, decl ast.Decl, reachable map[string]bool) {
	t.Helper()
	if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.TYPE {
		for _, spec := range gen.Specs {
			ts := spec.(*ast.TypeSpec)
			if hasXMLTags(ts.Type) && !reachable[ts.Name.Name] {
				t.Errorf("%s: type %s has xml tags but is not reachable from documentWires (documents.go): add its document's wire struct there",
					fset.Position(ts.Pos()), ts.Name.Name)
			}
		}
		return
	}
	ast.Inspect(decl, func(n ast.Node) bool {
		if st, ok := n.(*ast.StructType); ok && hasXMLTags(st) {
			t.Errorf("%s: a struct with xml tags that is not a named type of the package: name it and reach it from documentWires (documents.go)",
				fset.Position(st.Pos()))
			return false
		}
		return true
	})
}

// hasXMLTags reports whether a struct type in n has a field tagged for
// encoding/xml.
func hasXMLTags(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if f, ok := n.(*ast.Field); ok && f.Tag != nil && strings.Contains(f.Tag.Value, `xml:"`) {
			found = true
		}
		return !found
	})
	return found
}

// reachTypes adds to seen the names of the package's types that t is or
// holds, in any field, exported or not.
func reachTypes(t reflect.Type, seen map[string]bool) {
	if t.PkgPath() == reflect.TypeFor[Format]().PkgPath() {
		name, _, _ := strings.Cut(t.Name(), "[") // a generic type's name lists its arguments
		if seen[t.String()] {
			return
		}
		seen[name], seen[t.String()] = true, true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		reachTypes(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			reachTypes(t.Field(i).Type, seen)
		}
	}
}

// TestReadTree checks the rules by which a wire struct's type gives the
// elements it reads.
func TestReadTree(t *testing.T) {
	got := treePaths(readTreeOf(treeSample{}), 3)
	want := []string{
		"*/leaf: whole",
		"*/more/leaf: whole",
		"*/more/more/…",
		"*/more/other: whole",
		"Untagged: whole",
		"a/b/c: whole",
		"a/b/d: whole",
		"custom: whole",
		"embedded: whole",
		"inner: whole",
		"named: nothing",
		"pointer: whole",
		"sub/leaf: whole",
		"sub/more/leaf: whole",
		"sub/more/more/…",
		"sub/more/other: whole",
		"subs/sub/leaf: whole",
		"subs/sub/more/…",
		"text: whole",
		"time: whole",
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read tree (-want +got):\n%s", diff)
	}
}

// treeSample has a field of each kind the rules tell apart.
type treeSample struct {
	XMLName      xml.Name      `xml:"sample"`
	Attr         string        `xml:"attr,attr"`
	Skipped      string        `xml:"-"`
	Untagged     string        // named by the field
	Path         int           `xml:"a>b>c"`
	Sibling      string        `xml:"a>b>d"`
	Pointer      *string       `xml:"pointer"`
	Sub          treeSub       `xml:"sub"`
	Subs         []*treeSub    `xml:"subs>sub"`
	Text         treeText      `xml:"text"`       // a struct that takes its text
	Time         eisTime       `xml:"time"`       // decodes itself from text
	Custom       indictedBlock `xml:"custom"`     // decodes itself from XML
	Named        treeNamed     `xml:",omitempty"` // named by its type's XMLName
	Any          []treeSub     `xml:",any"`
	private      string        // not read: unexported
	treeEmbedded               // promotes its fields
}

type treeSub struct {
	Leaf string   `xml:"leaf"`
	More *treeSub `xml:"more"`
	Also string   `xml:"more>other"`
}

type treeText struct {
	Code string `xml:"code,attr"`
	Text string `xml:",chardata"`
}

type treeNamed struct {
	XMLName xml.Name `xml:"named"`
}

type treeEmbedded struct {
	Embedded string `xml:"embedded"`
	*treeInner
}

type treeInner struct {
	Inner string `xml:"inner"`
}

// treePaths lists the elements n reads, to depth levels: each path with
// ": whole" where the element is read whole, ": nothing" where none of its
// content is, and "/…" where it goes on below depth.
func treePaths(n *readNode, depth int) []string {
	var paths []string
	var walk func(n *readNode, path string, depth int)
	walk = func(n *readNode, path string, depth int) {
		switch {
		case n.whole:
			paths = append(paths, path+": whole")
			return
		case depth == 0:
			paths = append(paths, path+"/…")
			return
		case len(n.children) == 0 && n.other == nil:
			paths = append(paths, path+": nothing")
			return
		}
		prefix := path + "/"
		if path == "" {
			prefix = ""
		}
		for name, c := range n.children {
			walk(c, prefix+name, depth-1)
		}
		if n.other != nil {
			walk(n.other, prefix+"*", depth-1)
		}
	}
	walk(n, "", depth)
	slices.Sort(paths)
	return paths
}

// TestReadTreeMerge checks that a child one wire struct names and another
// takes by its `xml:",any"` field reads what either reads of it, and that
// a child read whole by one is whole.
func TestReadTreeMerge(t *testing.T) {
	type named struct {
		Sub  treeSub `xml:"sub"`
		Text string  `xml:"text"`
	}
	type anyChild struct {
		Other []struct {
			Deep string `xml:"deep"`
		} `xml:",any"`
		Text struct {
			Part string `xml:"part"`
		} `xml:"text"`
	}
	got := treePaths(readTreeOf(named{}, anyChild{}), 2)
	want := []string{"*/deep: whole", "sub/deep: whole", "sub/leaf: whole", "sub/more/…", "text: whole"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged read tree (-want +got):\n%s", diff)
	}
}
