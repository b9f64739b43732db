package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// answer is the model's answer read: its statements with a text and a
// quote, and how many it gave that had not both.
type answer struct {
	summary, risks []docanalysis.Statement
	dropped        int
}

// parseAnswer reads the JSON object of the model's answer. It is lenient
// with what surrounds the object (a Markdown fence, a sentence before it),
// and strict with the object: it must have "summary" or "risks", each an
// array; a statement that is not an object with a string "text" and a
// string "quote", both given, is dropped and counted.
func parseAnswer(content string) (answer, error) {
	var a answer
	from, to := strings.Index(content, "{"), strings.LastIndex(content, "}")
	if from < 0 || to < from {
		return a, errors.New("no JSON object in it")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content[from:to+1]), &top); err != nil {
		return a, fmt.Errorf("not JSON: %v", err)
	}
	summary, hasSummary := top["summary"]
	risks, hasRisks := top["risks"]
	if !hasSummary && !hasRisks {
		return a, errors.New(`neither "summary" nor "risks" in it`)
	}
	var err error
	if a.summary, err = a.statements("summary", summary); err != nil {
		return a, err
	}
	if a.risks, err = a.statements("risks", risks); err != nil {
		return a, err
	}
	return a, nil
}

// statements reads the array of statements named name, counting those
// dropped.
func (a *answer) statements(name string, raw json.RawMessage) ([]docanalysis.Statement, error) {
	if raw == nil || string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%q is not an array", name)
	}
	var out []docanalysis.Statement
	for _, item := range items {
		var s struct {
			Text  *string `json:"text"`
			Quote *string `json:"quote"`
		}
		if json.Unmarshal(item, &s) != nil || s.Text == nil || s.Quote == nil ||
			strings.TrimSpace(*s.Text) == "" || strings.TrimSpace(*s.Quote) == "" {
			a.dropped++
			continue
		}
		out = append(out, docanalysis.Statement{Text: strings.TrimSpace(*s.Text), Quote: strings.TrimSpace(*s.Quote)})
	}
	return out, nil
}
