package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// fakeTools is a Toolset of fake tools that show every kind of answer.
type fakeTools []*tools.Tool

func (f fakeTools) List() []*tools.Tool { return f }

func (f fakeTools) Lookup(name string) (*tools.Tool, bool) {
	for _, t := range f {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

func (f fakeTools) Prompts() []*tools.Prompt { return fakePrompts }

func (f fakeTools) Prompt(name string) (*tools.Prompt, bool) {
	for _, p := range fakePrompts {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// fakePrompts is one prompt that shows every kind of answer: a message, a
// refusal by plan, a number not found, bad arguments and an internal error.
var fakePrompts = []*tools.Prompt{{
	Name: "analyze_tender", Title: "Analyze a tender", Description: "A tender's facts and documentation.",
	Arguments: []tools.PromptArgument{{Name: "tend_num", Description: "The purchase number.", Required: true}},
	Authorize: fakeAnalysis,
	Get: func(ctx context.Context, args map[string]string) (tools.PromptResult, error) {
		if err := fakeAnalysis(ctx); err != nil {
			return tools.PromptResult{}, err
		}
		n, ok := args["tend_num"]
		switch {
		case !ok || len(args) != 1:
			return tools.PromptResult{}, &tools.ArgumentError{Message: `argument "tend_num" is required`}
		case n == "broken":
			return tools.PromptResult{}, errors.New("the disk is on fire")
		case tenders[n] == "":
			return tools.PromptResult{}, tenderbase.Errorf(tenderbase.ENOTFOUND, "no tender %s", n)
		}
		return tools.PromptResult{Description: "Analysis of tender " + n,
			Messages: []tools.PromptMessage{{Role: "user", Text: "Analyze this tender:\n" + tenders[n]}}}, nil
	},
}}

// fakeAnalysis lets the plans that include the analysis of documentation
// have the prompt, as the real prompts do.
func fakeAnalysis(ctx context.Context) error {
	k, _ := tenderbase.KeyFromContext(ctx)
	if !k.Effective().DocumentAnalysis {
		return tenderbase.Errorf(tenderbase.EFORBIDDEN, "the analysis of documentation is part of the guru and corporate plans")
	}
	return nil
}

// storeDown is the error of a store that cannot be reached.
var storeDown = tenderbase.Unavailable(errors.New("failed to connect to `user=postgres database=test`: 127.0.0.1:5432: connection refused"))

// tenders are the records of the fake ru.detail.
var tenders = map[string]string{
	"0373100000125000001": `{"id":"0373100000125000001","title":"Поставка \"бумаги\"\tА4","contact":{"phone":"+7 495 000-00-00"}}`,
}

const detailSchema = `{"type":"object","properties":{"id":{"type":"string","description":"purchase number"}},"required":["id"],"additionalProperties":false}`

func newFakeTools() fakeTools {
	return fakeTools{
		{
			Name: "ru.search", Group: "ru", Operation: "search",
			Title: "Search Russian tenders", Description: "Search Russian tenders by words.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"total":{"type":"integer"},"items":{"type":"array"}},"required":["total","items"]}`),
			Call:         fakeSearch,
		},
		{
			Name: "ru.detail", Group: "ru", Operation: "detail",
			Title: "Russian tender details", Description: "Details of a Russian tender by its purchase number.",
			InputSchema:  json.RawMessage(detailSchema),
			OutputSchema: json.RawMessage(`{"type":"object"}`),
			Call:         fakeDetail,
		},
		{
			Name: "contragent.contacts", Group: "contragent", Operation: "contacts",
			Title: "Organization contacts", Description: "Contacts of an organization by INN.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"inn":{"type":"string"}}}`),
			Call: func(ctx context.Context, args json.RawMessage) (tools.Output, error) {
				return tools.Output{}, tenderbase.Errorf(tenderbase.EFORBIDDEN, "organization contacts need a paid plan (yours: %s)", tenderbase.PlanFromContext(ctx))
			},
		},
		{
			Name: "broken.tool", Group: "broken", Operation: "tool",
			Title: "Broken", Description: "Always fails inside.",
			Call: func(context.Context, json.RawMessage) (tools.Output, error) {
				return tools.Output{}, errors.New("sqlite: database disk image is malformed")
			},
		},
		{
			Name: "store.down", Group: "store", Operation: "down",
			Title: "Store down", Description: "Always finds its store unreachable.",
			Call: func(context.Context, json.RawMessage) (tools.Output, error) {
				return tools.Output{}, storeDown
			},
		},
	}
}

// fakeDetail looks the tender up; free callers see no contact.
func fakeDetail(ctx context.Context, raw json.RawMessage) (tools.Output, error) {
	var args struct {
		ID *string `json:"id"`
	}
	if err := json.Unmarshal(raw, &args); err != nil || args.ID == nil {
		return tools.Output{}, &tools.ArgumentError{Message: "ru.detail: id is required and must be a string"}
	}
	rec, ok := tenders[*args.ID]
	if !ok {
		return tools.Output{}, tenderbase.Errorf(tenderbase.ENOTFOUND, "no tender with id %q", *args.ID)
	}
	if tenderbase.PlanFromContext(ctx).Paid() {
		return tools.Output{Value: json.RawMessage(rec)}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(rec), &fields); err != nil {
		return tools.Output{}, err
	}
	fields["contact"] = json.RawMessage("null")
	masked, err := json.Marshal(fields)
	return tools.Output{Value: masked, Restricted: []string{"contact"}}, err
}

// fakeSearch finds the one tender whatever the query, as a search answers:
// the whole records for the debug endpoint, a summary of each and the page
// as text for a model.
func fakeSearch(ctx context.Context, _ json.RawMessage) (tools.Output, error) {
	out, err := fakeDetail(ctx, json.RawMessage(`{"id":"0373100000125000001"}`))
	if err != nil {
		return out, err
	}
	out.Value = json.RawMessage(`{"total":1,"page":0,"page_size":20,"items":[` + string(out.Value) + `]}`)
	out.Summary = json.RawMessage(`{"total":1,"items":[{"id":"0373100000125000001","title":"Поставка \"бумаги\"\tА4"}]}`)
	head := "Found 1 tender, newest first, all on this page.\n"
	if len(out.Restricted) > 0 {
		head += "Your plan (free) hides contact of these tenders.\n"
	}
	out.Text = head + "1. 0373100000125000001 · Поставка \"бумаги\" А4\nWhole tender: ru.detail {\"id\": \"0373100000125000001\"}."
	return out, nil
}

// newTestHandler returns the handler the golden files describe, logging to
// logs when it is not nil.
func newTestHandler(t *testing.T, logs *bytes.Buffer) *mcp.Handler {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	if logs != nil {
		logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	h, err := mcp.New(mcp.Config{
		Info:           mcp.ServerInfo{Name: "tenderbase", Title: "Tenderbase", Version: "1.2.3"},
		AllowedOrigins: []string{"https://app.example.com", "tools.example.org"},
		Limiter:        fakeLimiter{},
	}, newFakeTools(), logger)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
