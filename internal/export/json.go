package export

import (
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// appendJSON appends record v of kind k as a JSON object: every field of
// fields, in their order, null where hidden or without a value.
func (w *Writer) appendJSON(buf []byte, k tenderbase.Kind, fields []Field, v reflect.Value) []byte {
	buf = append(buf, '{')
	for i, f := range fields {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, f.Name)
		buf = append(buf, ':')
		buf = appendJSONValue(buf, f.Type, valueOf(v, f, w.hidden[k][f.Name]))
	}
	return append(buf, '}')
}

func appendJSONValue(buf []byte, t Type, val value) []byte {
	switch {
	case !val.ok:
		return append(buf, "null"...)
	case t == TypeInt:
		return strconv.AppendInt(buf, val.num, 10)
	case t == TypeBool:
		return strconv.AppendBool(buf, val.flag)
	case t == TypeDate:
		buf = append(buf, '"')
		buf = val.date.AppendFormat(buf, time.RFC3339Nano)
		return append(buf, '"')
	}
	return appendJSONString(buf, val.text)
}

// appendJSONString appends s as a JSON string. Like the canonical form, it
// keeps <, > and & as they are, so that embedded XML stays readable; it
// escapes what JSON requires, and U+2028 and U+2029, which JavaScript
// source cannot hold, and writes invalid UTF-8 as U+FFFD.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			buf = appendJSONByte(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, `\u202`...)
			buf = append(buf, "89"[r-'\u2028'])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

const hexDigits = "0123456789abcdef"

func appendJSONByte(buf []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(buf, '\\', c)
	case '\n':
		return append(buf, '\\', 'n')
	case '\r':
		return append(buf, '\\', 'r')
	case '\t':
		return append(buf, '\\', 't')
	}
	if c < 0x20 {
		return append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(buf, c)
}
