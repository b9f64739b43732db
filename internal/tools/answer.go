package tools

import (
	"context"
	"encoding/json"

	"github.com/tenderbase/tenderbase"
)

// searchResult is the output of every search tool.
type searchResult struct {
	Total    int               `json:"total" jsonschema:"The exact number of matching records, also those past the plan's row cap. A plan that does not show a field does not match its words, nor count the records only they would find."`
	Page     int               `json:"page" jsonschema:"This page, from 0."`
	PageSize int               `json:"page_size" jsonschema:"Records a page: 20."`
	RowCap   int               `json:"row_cap,omitempty" jsonschema:"Present when the plan shows only the first row_cap records of this search."`
	Notice   string            `json:"notice,omitempty" jsonschema:"Why this page holds fewer records than it would without the plan's row cap."`
	Items    []json.RawMessage `json:"items" jsonschema:"The records of this page, newest first. Fields the plan does not show are null."`
}

// answer turns one page of a search into the tool's output: the records
// masked for the caller's plan, tenders with their derived state.
func (s *Set) answer(ctx context.Context, t searchTool, res searchResult, recs []tenderbase.Record, c caller) (Output, error) {
	hidden := restricted{}
	var err error
	if res.Items, err = hidden.maskAll(docPreviews(recs), c.plan); err != nil {
		return Output{}, err
	}
	if t.kind == tenderbase.KindTender {
		if err := s.addStates(ctx, recs, res.Items); err != nil {
			return Output{}, err
		}
	}
	return output(res, hidden)
}
