package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// appendJSONText appends raw JSON as a JSON string, the text block of a
// tool's result. The tools' JSON is valid UTF-8, so only quotes,
// backslashes and control characters need escaping; anything else takes
// the slow, careful way.
func appendJSONText(dst, raw []byte) []byte {
	if !utf8.Valid(raw) {
		return appendString(dst, string(raw))
	}
	dst = append(dst, '"')
	start := 0
	for i, c := range raw {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, raw[start:i]...)
		dst = appendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, raw[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendEscape appends the JSON escape of the byte c.
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

// appendString appends s as a JSON string, replacing invalid UTF-8.
func appendString(dst []byte, s string) []byte {
	if utf8.ValidString(s) {
		return appendJSONText(dst, []byte(s))
	}
	b, _ := json.Marshal(s) // a string always marshals
	return append(dst, b...)
}
