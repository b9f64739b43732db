// Package jsonstring appends text as JSON strings, fast, for the encoders
// that write JSON by hand on hot paths (the MCP handler, the export).
//
// Like the canonical form of records, it keeps <, > and & as they are, so
// that embedded XML stays readable. It escapes what JSON requires, and
// U+2028 and U+2029, which JavaScript source cannot hold, and writes invalid
// UTF-8 as U+FFFD, so that its output is always valid JSON.
package jsonstring

import "unicode/utf8"

// Append appends s to dst as a JSON string.
func Append(dst []byte, s string) []byte {
	return appendString(dst, s, utf8.ValidString(s))
}

// AppendBytes appends the text b to dst as a JSON string.
func AppendBytes(dst, b []byte) []byte {
	return appendString(dst, b, utf8.Valid(b))
}

// appendString appends s as a JSON string. Runs of bytes that need no
// escape are copied at once: most text needs none. In valid UTF-8 only 0xE2
// can begin U+2028 or U+2029, so other bytes of multi-byte runes are copied
// without decoding.
func appendString[T string | []byte](dst []byte, s T, valid bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && (c < utf8.RuneSelf || valid && c != 0xE2) {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = appendEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), `\u202`...)
			dst = append(dst, "89"[r-'\u2028'])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendEscape appends the JSON escape of the ASCII byte c.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
