package eis

import (
	"encoding"
	"encoding/xml"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// readNode is an element as the wire structs read it: the children they
// map, by local name, and whether they take the element whole. The pruning
// before decoding (prune.go) keeps what a node maps and drops the rest.
type readNode struct {
	children map[string]*readNode
	// other is the node of a child that children does not name: the element
	// type of an `xml:",any"` field; nil when no wire struct reads such a
	// child.
	other *readNode
	// whole says that a value takes the element's text or its XML, so
	// nothing of it may be dropped.
	whole bool
}

// child returns the node of the child with local name local, or nil when
// no wire struct reads it.
func (n *readNode) child(local []byte) *readNode {
	if c, ok := n.children[string(local)]; ok {
		return c
	}
	return n.other
}

// documentTree is the merged read tree of every document wire struct: a
// document element keeps what any of them maps, since the pruning comes
// before the decoder of its kind is chosen.
var documentTree = sync.OnceValue(func() *readNode {
	return readTreeOf(documentWires...)
})

// exportTree is the read tree of an <export>, each of whose children is a
// document.
var exportTree = sync.OnceValue(func() *readNode {
	return &readNode{other: documentTree()}
})

// readTreeOf returns the merged read tree of the types of values, each the
// wire struct of a document element.
func readTreeOf(values ...any) *readNode {
	var b treeBuilder
	var roots []*wireElement
	for _, v := range values {
		roots = append(roots, b.element(reflect.TypeOf(v)))
	}
	return b.merge(roots)
}

// wireElement is an element as one wire struct maps it. A child may be
// mapped by several fields (a field of its own and a path through it), so
// each name has a list, merged into one readNode at the end.
type wireElement struct {
	id       int
	children map[string][]*wireElement
	other    []*wireElement
	whole    bool
}

// treeBuilder derives read trees from wire struct types, the way
// encoding/xml maps elements to fields, then merges the elements that one
// path reaches in several wire structs into one node.
type treeBuilder struct {
	elements     []*wireElement
	byType       map[reflect.Type]*wireElement
	merged       map[string]*readNode
	wholeElement *wireElement
}

var (
	xmlNameType       = reflect.TypeFor[xml.Name]()
	unmarshalerType   = reflect.TypeFor[xml.Unmarshaler]()
	textUnmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func (b *treeBuilder) newElement() *wireElement {
	e := &wireElement{id: len(b.elements), children: map[string][]*wireElement{}}
	b.elements = append(b.elements, e)
	return e
}

// element returns the element a value of type t reads. Pointers and slices
// read as their elements do; anything that is not a plain struct takes the
// element's text, or decodes it by its own method, and reads it whole.
func (b *treeBuilder) element(t reflect.Type) *wireElement {
	t = valueType(t)
	if t.Kind() != reflect.Struct || t == xmlNameType || readsItself(t) {
		if b.wholeElement == nil {
			b.wholeElement = b.newElement()
			b.wholeElement.whole = true
		}
		return b.wholeElement
	}
	if e, ok := b.byType[t]; ok {
		return e
	}
	if b.byType == nil {
		b.byType = map[reflect.Type]*wireElement{}
	}
	e := b.newElement()
	b.byType[t] = e // before the fields, so that a recursive type ends
	b.addFields(e, t, nil)
	return e
}

// valueType returns the type encoding/xml decodes an element into for a
// field of type t: pointers and slices, other than []byte, hold it.
func valueType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || (t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8) {
		t = t.Elem()
	}
	return t
}

// readsItself reports whether t decodes its element by its own method.
func readsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || p.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalType) || p.Implements(textUnmarshalType)
}

// addFields adds to e the children that the fields of struct t map, and
// the fields of the structs it embeds, which encoding/xml promotes.
// embedding holds the embedded types being added, against a cycle.
func (b *treeBuilder) addFields(e *wireElement, t reflect.Type, embedding []reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("xml")
		if (!f.IsExported() && !f.Anonymous) || tag == "-" {
			continue
		}
		if f.Anonymous {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				if !slices.Contains(embedding, inner) {
					b.addFields(e, inner, append(embedding, inner))
				}
				continue
			}
		}
		if f.Name != "XMLName" {
			b.addField(e, f, tag)
		}
	}
}

// addField adds what field f, tagged tag, maps.
func (b *treeBuilder) addField(e *wireElement, f reflect.StructField, tag string) {
	if _, name, ok := strings.Cut(tag, " "); ok {
		tag = name // the namespace does not matter: names match by local name here
	}
	name, flags, _ := strings.Cut(tag, ",")
	switch mode := fieldMode(flags); mode {
	case "attr":
		return
	case "chardata", "cdata", "innerxml", "comment":
		e.whole = true
		return
	case "any":
		if valueType(f.Type).Kind() != reflect.Struct {
			e.whole = true
			return
		}
		e.other = append(e.other, b.element(f.Type))
		return
	}
	if name == "" {
		name = defaultElementName(f)
	}
	path := strings.Split(name, ">")
	if path[0] == "" {
		path[0] = f.Name
	}
	child := b.element(f.Type)
	for i := len(path) - 1; i > 0; i-- {
		parent := b.newElement()
		parent.children[path[i]] = []*wireElement{child}
		child = parent
	}
	e.children[path[0]] = append(e.children[path[0]], child)
}

// fieldMode returns what the flags of a tag make a field: an attribute,
// text, XML, a comment, any element, or an element (""), as encoding/xml
// reads them; "any,attr" is an attribute.
func fieldMode(flags string) string {
	mode := ""
	for _, flag := range strings.Split(flags, ",") {
		switch flag {
		case "attr":
			return "attr"
		case "chardata", "cdata", "innerxml", "comment", "any":
			mode = flag
		}
	}
	return mode
}

// defaultElementName returns the element name of a field whose tag names
// none: the name the XMLName field of its type gives, else the field's.
func defaultElementName(f reflect.StructField) string {
	t := f.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		if xmlName, ok := t.FieldByName("XMLName"); ok && len(xmlName.Index) == 1 {
			tag := xmlName.Tag.Get("xml")
			if _, name, ok := strings.Cut(tag, " "); ok {
				tag = name
			}
			if name, _, _ := strings.Cut(tag, ","); name != "" {
				return name
			}
		}
	}
	return f.Name
}

// merge returns the node that reads what every one of elements reads: a
// child is read if one of them reads it, as the union of what they read of
// it; the element is whole if one of them reads it whole. A child that an
// element does not name goes to its `xml:",any"` field, if it has one, as
// encoding/xml does. Merged nodes are kept by the set they merge, so that
// recursive types end.
func (b *treeBuilder) merge(elements []*wireElement) *readNode {
	set := distinct(elements)
	if len(set) == 0 {
		return nil
	}
	for _, e := range set {
		if e.whole {
			return wholeNode
		}
	}
	key := setKey(set)
	if n, ok := b.merged[key]; ok {
		return n
	}
	if b.merged == nil {
		b.merged = map[string]*readNode{}
	}
	n := &readNode{children: map[string]*readNode{}}
	b.merged[key] = n
	var others []*wireElement
	for _, e := range set {
		others = append(others, e.other...)
	}
	n.other = b.merge(others)
	for _, name := range childNames(set) {
		var next []*wireElement
		for _, e := range set {
			if c, ok := e.children[name]; ok {
				next = append(next, c...)
			} else {
				next = append(next, e.other...)
			}
		}
		n.children[name] = b.merge(next)
	}
	return n
}

// wholeNode is the node of every element read whole.
var wholeNode = &readNode{whole: true}

// distinct returns elements without repeats, in the order of their ids.
func distinct(elements []*wireElement) []*wireElement {
	set := slices.Clone(elements)
	slices.SortFunc(set, func(a, b *wireElement) int { return a.id - b.id })
	return slices.Compact(set)
}

// setKey names a set of elements by their ids.
func setKey(set []*wireElement) string {
	var key []byte
	for _, e := range set {
		key = strconv.AppendInt(append(key, ','), int64(e.id), 10)
	}
	return string(key)
}

// childNames returns the names of the children any of set names, sorted.
func childNames(set []*wireElement) []string {
	var names []string
	for _, e := range set {
		for name := range e.children {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
