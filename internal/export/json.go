package export

import (
	"reflect"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/jsonstring"
)

// appendJSON appends record v of kind k as a JSON object: every field of
// fields, in their order, null where hidden or without a value.
func (w *Writer) appendJSON(buf []byte, k tenderbase.Kind, fields []Field, v reflect.Value) []byte {
	buf = append(buf, '{')
	for i, f := range fields {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonstring.Append(buf, f.Name)
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
	return jsonstring.Append(buf, val.text)
}
