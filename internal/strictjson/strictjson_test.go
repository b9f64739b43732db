package strictjson_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/strictjson"
)

func TestCheck(t *testing.T) {
	tests := []struct{ json, message string }{
		{`{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, ""},
		{`{"a":1,"a":2}`, `member "/a" is given twice; give each member of a JSON object once`},
		{`{"a":1,"\u0061":2}`, `member "/a" is given twice; give each member of a JSON object once`},
		{`{"p":{"args":{"q":"x","q":"y"}}}`, `member "/p/args/q" is given twice; give each member of a JSON object once`},
		{`[{"a":1},{"a":1,"a":1}]`, `member "/1/a" is given twice; give each member of a JSON object once`},
		{`{"a/b":1,"a/b":2}`, `member "/a~1b" is given twice; give each member of a JSON object once`},
		// Invalid UTF-8 and broken JSON are the concern of whoever reads
		// the JSON next.
		{"{\"q\":\"\xff\"}", ""},
		{`{"a":1,`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		err := strictjson.Check([]byte(tt.json))
		if tt.message == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", tt.json, err)
			}
			continue
		}
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: %v, want an EINVALID error", tt.json, err)
			continue
		}
		if diff := cmp.Diff(tt.message, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.json, diff)
		}
	}
}

// BenchmarkCheck checks a tools/call message, as the MCP handler does for
// every request.
func BenchmarkCheck(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"поставка лекарственных","regions":[77,50]}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := strictjson.Check(msg); err != nil {
			b.Fatal(err)
		}
	}
}
