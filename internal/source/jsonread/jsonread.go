// Package jsonread holds what the JSON source formats share: telling a
// format by the members of its top-level object, and numbers that
// publishers write as strings or as numbers.
package jsonread

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// TopMembers returns which of names the JSON object that prefix starts has
// at its top level, reading no further than the prefix: a detector sees the
// start of a file only.
func TopMembers(prefix []byte, names ...string) []string {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(prefix, []byte("\ufeff"))))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var found []string
	for {
		key, err := dec.Token()
		if err != nil || key == json.Delim('}') {
			return found
		}
		for _, n := range names {
			if key == n {
				found = append(found, n)
			}
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return found
		}
	}
}

// IsObject reports whether prefix starts a JSON object.
func IsObject(prefix []byte) bool {
	body := bytes.TrimLeft(prefix, " \t\r\n\ufeff")
	return len(body) > 0 && body[0] == '{'
}

// Number is a number a publisher writes as a JSON number or as a string
// ("342000.00", "342 000,00"); null, "" and a string that is no number are 0.
type Number float64

// UnmarshalJSON reads either form.
func (n *Number) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*n = 0
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		s = strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(str)
	}
	if s == "" {
		*n = 0
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		*n = 0
		return nil //nolint:nilerr // a price written as words is no price
	}
	*n = Number(f)
	return nil
}
