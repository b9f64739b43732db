package eis

import "bytes"

// Most of an EIS document is never read: signatures in base64, print forms,
// attachments' contents, lists of participants' details. encoding/xml would
// tokenize all of it only to skip it, so Decode first prunes the document:
// it drops every element that no wire struct maps (documentTree), with a
// scanner that only reads tags, and hands encoding/xml the rest.
//
// What is kept is kept byte for byte: the prolog, the root's start tag,
// every element a wire struct maps, and all that follows the root. No value
// takes the text between the children of an element that is not read
// whole, so white space there goes too: encoding/xml would only tokenize
// it. Whatever goes leaves its line breaks, so that encoding/xml reports a
// fault in what is kept at its line in the file. They go inside the tag
// kept just before, ahead of its '>', where encoding/xml reads them as
// white space in the tag rather than as a token of text; where no tag comes
// just before, they stay in place.
//
// Where the scanner meets what it does not follow (a DOCTYPE, a tag that is
// not well formed, tags that do not balance, a comment that does not end,
// an encoding other than UTF-8), it gives up and the document is decoded
// unpruned, so that encoding/xml reports the fault. Inside a dropped
// element the scanner reads only the shape of tags: a fault encoding/xml
// would find in the rest (a bad entity, a character XML does not allow,
// "--" in a comment) no longer rejects the document.

// prune appends to dst the document doc without the elements no wire struct
// maps, and reports whether it did; false when the scanner gave up or the
// document is of a kind no decoder reads (which the decoder rejects on
// reading its start).
func prune(dst, doc []byte) ([]byte, bool) {
	p := pruner{in: doc, out: dst}
	if !p.document() {
		return dst, false
	}
	return append(p.out, p.in[p.copied:]...), true
}

// pruner scans a document. Bytes up to pos are scanned; bytes from copied
// up to where the scan stands are kept and not yet appended to out.
type pruner struct {
	in     []byte
	out    []byte
	pos    int
	copied int
	open   []openElement // the kept elements pos is in, innermost last
	names  [][]byte      // the elements of a dropped one pos is in
	// tagEnd is the offset after the last tag kept, moved past what is
	// left out after it: the line breaks of what is left out from there go
	// inside that tag.
	tagEnd int
}

// openElement is a kept element whose end is not reached yet.
type openElement struct {
	name []byte // as written, with its prefix
	node *readNode
}

// document scans the prolog, the root and the documents in it, and
// reports whether it understood them.
func (p *pruner) document() bool {
	root, ok := p.prolog()
	if !ok || root.empty {
		return false
	}
	if kind, ok := p.kind(root); !ok || !readKind(kind) {
		return false
	}
	p.pos, p.tagEnd = root.end, root.end
	tree := documentTree()
	if string(localName(root.name)) == "export" {
		tree = exportTree()
	}
	p.open = append(p.open, openElement{root.name, tree})
	return p.elements()
}

// kind returns the kind of the document whose root's start tag is root: the
// root's local name, or, when it is an <export>, that of the first element
// in it.
func (p *pruner) kind(root startTag) ([]byte, bool) {
	kind := localName(root.name)
	if string(kind) != "export" {
		return kind, true
	}
	for pos := root.end; ; {
		lt := bytes.IndexByte(p.in[pos:], '<')
		if lt < 0 {
			return nil, false
		}
		lt += pos
		switch p.at(lt + 1) {
		case '?', '!':
			if pos = p.markupEnd(lt); pos < 0 {
				return nil, false
			}
		case '/':
			return nil, false
		default:
			first, ok := p.startTag(lt)
			return localName(first.name), ok
		}
	}
}

// readKind reports whether a decoder reads documents of kind.
func readKind(kind []byte) bool {
	_, ok := documentDecoder(string(kind))
	return ok
}

// unreadKind reports whether prefix, the start of a document, shows that no
// decoder reads its kind.
func unreadKind(prefix []byte) bool {
	p := pruner{in: prefix}
	root, ok := p.prolog()
	if !ok {
		return false
	}
	kind, ok := p.kind(root)
	return ok && !readKind(kind)
}

// prolog scans what comes before the root element (the XML declaration,
// comments, processing instructions) and returns the root's start tag.
func (p *pruner) prolog() (startTag, bool) {
	for {
		lt := bytes.IndexByte(p.in[p.pos:], '<')
		if lt < 0 {
			return startTag{}, false
		}
		lt += p.pos
		switch p.at(lt + 1) {
		case '?', '!':
			if p.pos = p.markupEnd(lt); p.pos < 0 {
				return startTag{}, false
			}
		case '/':
			return startTag{}, false
		default:
			return p.startTag(lt)
		}
	}
}

// elements scans the content of the open elements up to the end of the
// root, keeping what their nodes read and dropping the rest.
func (p *pruner) elements() bool {
	for len(p.open) > 0 {
		lt := bytes.IndexByte(p.in[p.pos:], '<')
		if lt < 0 {
			return false
		}
		lt += p.pos
		if lines, space := spaceLines(p.in[p.pos:lt]); space && lt > p.pos {
			p.cut(p.pos, lt, lines)
		}
		switch p.at(lt + 1) {
		case '/':
			end := p.endTag(lt, p.open[len(p.open)-1].name)
			if end < 0 {
				return false
			}
			p.open, p.pos, p.tagEnd = p.open[:len(p.open)-1], end, end
		case '?', '!':
			if p.pos = p.markupEnd(lt); p.pos < 0 {
				return false
			}
		default:
			tag, ok := p.startTag(lt)
			if !ok {
				return false
			}
			if !p.element(lt, tag, p.open[len(p.open)-1].node.child(localName(tag.name))) {
				return false
			}
		}
	}
	return true
}

// element keeps, drops or enters the element whose start tag at lt is tag,
// as its node says.
func (p *pruner) element(lt int, tag startTag, node *readNode) bool {
	switch {
	case node == nil:
		end := p.elementEnd(tag)
		if end < 0 {
			return false
		}
		p.drop(lt, end)
	case node.whole:
		if p.pos = p.elementEnd(tag); p.pos < 0 {
			return false
		}
		p.tagEnd = p.pos
	default:
		p.pos, p.tagEnd = tag.end, tag.end
		if !tag.empty {
			p.open = append(p.open, openElement{tag.name, node})
		}
	}
	return true
}

// drop leaves out in[from:to], but for its line breaks.
func (p *pruner) drop(from, to int) {
	p.cut(from, to, bytes.Count(p.in[from:to], newlines[:1]))
}

// cut leaves out in[from:to], which holds lines line breaks, but for them:
// they go before the '>' (or "/>") of the tag kept just before, when one
// is, else in place.
func (p *pruner) cut(from, to, lines int) {
	p.out = append(p.out, p.in[p.copied:from]...)
	var tagClose []byte
	if from == p.tagEnd {
		tagClose = []byte(">")
		if p.out[len(p.out)-2] == '/' {
			tagClose = []byte("/>")
		}
		p.out, p.tagEnd = p.out[:len(p.out)-len(tagClose)], to
	}
	for ; lines > 0; lines -= min(lines, len(newlines)) {
		p.out = append(p.out, newlines[:min(lines, len(newlines))]...)
	}
	p.out = append(p.out, tagClose...)
	p.copied, p.pos = to, to
}

var newlines = bytes.Repeat([]byte{'\n'}, 64)

// elementEnd returns the offset after the end of the element whose start
// tag is tag, checking only that the tags inside balance; -1 when they do
// not.
func (p *pruner) elementEnd(tag startTag) int {
	if tag.empty {
		return tag.end
	}
	p.names = append(p.names[:0], tag.name)
	pos := tag.end
	for {
		lt := bytes.IndexByte(p.in[pos:], '<')
		if lt < 0 {
			return -1
		}
		lt += pos
		switch p.at(lt + 1) {
		case '/':
			end := p.endTag(lt, p.names[len(p.names)-1])
			if end < 0 {
				return -1
			}
			if p.names = p.names[:len(p.names)-1]; len(p.names) == 0 {
				return end
			}
			pos = end
		case '?', '!':
			if pos = p.markupEnd(lt); pos < 0 {
				return -1
			}
		default:
			inner, ok := p.startTag(lt)
			if !ok {
				return -1
			}
			if !inner.empty {
				p.names = append(p.names, inner.name)
			}
			pos = inner.end
		}
	}
}

// spaceLines reports whether text is white space only, and how many line
// breaks it holds.
func spaceLines(text []byte) (lines int, space bool) {
	for _, c := range text {
		switch c {
		case '\n':
			lines++
		case ' ', '\t', '\r':
		default:
			return 0, false
		}
	}
	return lines, true
}

// at returns in[i], or 0 past the end.
func (p *pruner) at(i int) byte {
	if i < len(p.in) {
		return p.in[i]
	}
	return 0
}

// startTag is a start tag as the scanner reads it.
type startTag struct {
	name  []byte // as written, with its prefix
	end   int    // the offset after its '>'
	empty bool   // it ends in "/>": the element has no content
}

// startTag reads the start tag at lt: its name, then attributes, each a
// name, '=' and a quoted value, up to '>' or "/>". It fails where
// encoding/xml would see a fault in the tag's shape.
func (p *pruner) startTag(lt int) (startTag, bool) {
	name := p.name(lt + 1)
	if !xmlName(name) {
		return startTag{}, false
	}
	for i := lt + 1 + len(name); ; {
		i = p.skipSpace(i)
		switch p.at(i) {
		case '>':
			return startTag{name: name, end: i + 1}, true
		case '/':
			if p.at(i+1) != '>' {
				return startTag{}, false
			}
			return startTag{name: name, end: i + 2, empty: true}, true
		}
		attr := p.name(i)
		if !xmlName(attr) {
			return startTag{}, false
		}
		i = p.skipSpace(i + len(attr))
		if p.at(i) != '=' {
			return startTag{}, false
		}
		i = p.skipSpace(i + 1)
		quote := p.at(i)
		if quote != '"' && quote != '\'' {
			return startTag{}, false
		}
		value := bytes.IndexByte(p.in[i+1:], quote)
		if value < 0 {
			return startTag{}, false
		}
		i += value + 2
	}
}

// skipSpace returns the offset of the first byte from i that is not white
// space.
func (p *pruner) skipSpace(i int) int {
	for i < len(p.in) && (p.in[i] == ' ' || p.in[i] == '\n' || p.in[i] == '\t' || p.in[i] == '\r') {
		i++
	}
	return i
}

// endTag reads the end tag at lt, which must close the element named
// name, and returns the offset after it; -1 when it is not that name and
// white space up to '>'.
func (p *pruner) endTag(lt int, name []byte) int {
	i := lt + 2 + len(name)
	if i >= len(p.in) || !bytes.Equal(p.in[lt+2:i], name) || nameBytes[p.in[i]] {
		return -1
	}
	if i = p.skipSpace(i); p.at(i) != '>' {
		return -1
	}
	return i + 1
}

// name returns the name at i: the bytes encoding/xml reads as one (ASCII
// letters, digits, "_:.-", and every byte of a multi-byte character).
func (p *pruner) name(i int) []byte {
	j := i
	for j < len(p.in) && nameBytes[p.in[j]] {
		j++
	}
	return p.in[i:j]
}

// nameBytes says which bytes a name is made of.
var nameBytes = func() (table [256]bool) {
	for c := range table {
		table[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-' || c >= 0x80
	}
	return table
}()

// xmlName reports whether name has the shape encoding/xml requires of a
// name: it does not start with a digit, '.' or '-', and it has one colon at
// most. (Which characters beyond ASCII a name may hold is left to
// encoding/xml.)
func xmlName(name []byte) bool {
	if len(name) == 0 || '0' <= name[0] && name[0] <= '9' || name[0] == '.' || name[0] == '-' {
		return false
	}
	colon := bytes.IndexByte(name, ':')
	return colon < 0 || bytes.IndexByte(name[colon+1:], ':') < 0
}

// localName returns name without its prefix, as encoding/xml splits it: at
// its one colon, when there is text on both sides.
func localName(name []byte) []byte {
	prefix, local, ok := bytes.Cut(name, []byte{':'})
	if !ok || len(prefix) == 0 || len(local) == 0 {
		return name
	}
	return local
}

// markupEnd returns the offset after the comment, CDATA section or
// processing instruction at lt; -1 when it does not end, when it is another
// declaration (a DOCTYPE), or when it declares an encoding other than
// UTF-8.
func (p *pruner) markupEnd(lt int) int {
	rest := p.in[lt:]
	var end []byte
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		rest, end = rest[len("<!--"):], []byte("-->")
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		rest, end = rest[len("<![CDATA["):], []byte("]]>")
	case bytes.HasPrefix(rest, []byte("<?")):
		rest, end = rest[len("<?"):], []byte("?>")
	default:
		return -1
	}
	i := bytes.Index(rest, end)
	if i < 0 {
		return -1
	}
	if p.in[lt+1] == '?' && !utf8Declaration(p.name(lt+2), rest[:i]) {
		return -1
	}
	return len(p.in) - len(rest) + i + len(end)
}

// utf8Declaration reports whether the processing instruction whose target
// and content (up to "?>") are given declares no encoding other than
// UTF-8: it is not the XML declaration, or that declares UTF-8 or no
// encoding. A declaration it cannot make out counts as another encoding.
func utf8Declaration(target, content []byte) bool {
	if string(target) != "xml" {
		return true
	}
	before, value, declared := bytes.Cut(content, []byte("encoding="))
	if !declared {
		return !bytes.Contains(content, []byte("encoding"))
	}
	if bytes.Contains(before, []byte("encoding")) || len(value) == 0 || (value[0] != '"' && value[0] != '\'') {
		return false
	}
	value, after, closed := bytes.Cut(value[1:], value[:1])
	return closed && bytes.EqualFold(value, []byte("utf-8")) && !bytes.Contains(after, []byte("encoding"))
}
