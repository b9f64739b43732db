package export

import (
	"reflect"
	"strconv"

	"github.com/tenderbase/tenderbase/internal/jsonstring"
)

// appendJSON appends record v as a JSON object: every field of fields, in
// their order, null where hidden or without a value.
func (w *Writer) appendJSON(buf []byte, fields []Field, hidden []bool, v reflect.Value) []byte {
	buf = append(buf, '{')
	for i, f := range fields {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonstring.Append(buf, f.Name)
		buf = append(buf, ':')
		buf = appendJSONValue(buf, f.Type, valueOf(v, f, hidden[i]), w.meta.Compat)
	}
	return append(buf, '}')
}

// appendJSONTotal appends the element TenderGuru's lists begin with:
// {"Total":N}, N the exact number of matching records, as X-Total-Count.
func appendJSONTotal(buf []byte, total int) []byte {
	buf = append(buf, `{"Total":`...)
	buf = strconv.AppendInt(buf, int64(total), 10)
	return append(buf, '}')
}

func appendJSONValue(buf []byte, t Type, val value, c Compat) []byte {
	switch {
	case !val.ok:
		return append(buf, "null"...)
	case t == TypeInt:
		return strconv.AppendInt(buf, val.num, 10)
	case t == TypeBool:
		return strconv.AppendBool(buf, val.flag)
	case t == TypeDate:
		buf = append(buf, '"')
		buf = appendDate(buf, val.date, c)
		return append(buf, '"')
	}
	return jsonstring.Append(buf, val.text)
}
