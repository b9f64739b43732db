package tenderbase

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"time"
)

// DescribeJSONError says what is wrong with a JSON text that did not decode
// into a record, in the words of JSON rather than of Go: "field law:
// expected a string, got a number".
func DescribeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return "field " + typeErr.Field + ": expected " + jsonTypeOf(typeErr.Type) + ", got " + article(typeErr.Value)
	case errors.As(err, &syntaxErr):
		return "not valid JSON: " + strings.TrimPrefix(syntaxErr.Error(), "json: ")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// JSONTypeName names the JSON type of a value decoded into an any: "a
// string", "a number", "an object"...
func JSONTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "true or false"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

var timeType = reflect.TypeFor[time.Time]()

// jsonTypeOf names the JSON type a Go type decodes from.
func jsonTypeOf(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		if t == timeType {
			return "a date or a time"
		}
		return "an object"
	}
	return "another type"
}

// article puts "a" or "an" before the JSON type encoding/json names
// ("string", "number", "object", "array", "bool", or "number 1.5" for a
// number that does not fit).
func article(value string) string {
	switch {
	case value == "bool":
		return "true or false"
	case strings.HasPrefix(value, "number "):
		return "the number " + strings.TrimPrefix(value, "number ")
	case value == "object" || value == "array":
		return "an " + value
	}
	return "a " + value
}
