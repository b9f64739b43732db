// Package tools holds the tools of the MCP interface (spec 4.2) apart from
// any protocol: their names and debug endpoints, their descriptions and
// schemas, and what a call does. The JSON-RPC endpoint and the debug
// endpoints both serve this one Set, so a tool answers the same over both.
//
// A tool's arguments are a typed Go struct, decoded strictly; its input and
// output schemas are generated from Go types once, in New. The caller's plan
// comes from the context (tenderbase.KeyFromContext): records are masked for
// it, and search pages stop at its row cap.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/freshness"
	"github.com/tenderbase/tenderbase/internal/spelling"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// Tool is one tool of the MCP interface.
type Tool struct {
	Name      string // "ru.search"
	Group     string // "ru": the debug endpoint is POST /mcp/<Group>/<Operation>
	Operation string // "search"
	Title     string
	// Description is what a model reads to choose and call the tool.
	Description string
	// Effect says what a call does to what the server keeps: most tools
	// only read.
	Effect       Effect
	InputSchema  json.RawMessage // a JSON Schema with "type": "object"
	OutputSchema json.RawMessage // a JSON Schema with "type": "object", of Output.Structured
	// ValueSchema is the JSON Schema of Output.Value where it is not
	// OutputSchema: a search's whole records, which its debug endpoint
	// answers. Nil for the other tools.
	ValueSchema json.RawMessage
	// Call runs the tool. Its errors are an *ArgumentError when the arguments
	// do not fit InputSchema, a *tenderbase.Error the caller can act on
	// (EINVALID, ENOTFOUND, EFORBIDDEN), or an internal error.
	Call func(ctx context.Context, args json.RawMessage) (Output, error)
}

// Effect is what a tool's call does to what the server keeps.
type Effect int

const (
	// Reads changes nothing: the call can be repeated at will.
	Reads Effect = iota
	// Creates adds something each time it is called.
	Creates
	// Deletes takes something away; calling it again changes nothing
	// more.
	Deletes
)

// Output is the result of a tool call.
type Output struct {
	// Value is the whole result, a JSON object: what the debug endpoint
	// answers, and what MCP answers too unless Summary is set. A search
	// called with BriefForm leaves it empty (WithForm).
	Value json.RawMessage
	// Summary and Text are set by the search tools, whose Value (a page of
	// whole records) would fill a model's context. Summary is the page with
	// a summary in place of each record, a JSON object that MCP answers as
	// structured content; Text is the same page written for a model to
	// read, MCP's text block. Text names the fields the plan hides itself.
	// A search called with WholeForm leaves them empty (WithForm).
	Summary json.RawMessage
	Text    string
	// Restricted lists the fields hidden from the caller's plan (null in
	// Value), sorted and distinct, for the X-Restricted-Fields header.
	Restricted []string
}

// EndpointSchema returns the JSON Schema of what the tool's debug endpoint
// answers, Output.Value: ValueSchema, or OutputSchema where the two are one.
func (t *Tool) EndpointSchema() json.RawMessage {
	if t.ValueSchema != nil {
		return t.ValueSchema
	}
	return t.OutputSchema
}

// Structured returns what MCP answers as structured content, valid against
// the tool's OutputSchema: Summary when it is set, else Value.
func (o Output) Structured() json.RawMessage {
	if o.Summary != nil {
		return o.Summary
	}
	return o.Value
}

// ArgumentError says that a tool's arguments do not fit its input schema:
// they are not an object, an argument is unknown, missing or of the wrong
// type, or a number is out of range. Protocols answer it as invalid params
// (JSON-RPC -32602, HTTP 400).
type ArgumentError struct{ Message string }

func (e *ArgumentError) Error() string { return e.Message }

func argErrorf(format string, args ...any) *ArgumentError {
	return &ArgumentError{Message: fmt.Sprintf(format, args...)}
}

// Set is the tools of the service over one store. It is safe for concurrent
// use.
type Set struct {
	store tenderbase.Store
	// vocab is the store's vocabulary, which corrects a query's words
	// that no record holds; nil when the store lists none.
	vocab  *spelling.Vocabulary
	logger *slog.Logger
	list   []*Tool
	byName map[string]*Tool
	// prompts are the MCP prompts (prompts.go).
	prompts []*Prompt
	// searches holds the search tool of each kind, for SearchOf.
	searches map[tenderbase.Kind]searchTool
	// scanPages and scanPageSize bound a scan through every record of a
	// lookup (the contracts of an INN): scanPages pages of scanPageSize.
	scanPages, scanPageSize int
	// webhooks says where subscriptions.create lets a webhook point.
	webhooks webhook.Policy
	// freshness is what data.freshness reports on besides the store.
	freshness freshness.Config
	// analyses makes and keeps the analyses of docs.analyze; nil on a
	// server that makes none.
	analyses *docjobs.Service
	// counts, within one search call, runs each count once (countingOnce);
	// nil outside a call.
	counts *countCache
}

// New returns the tools over store. A nil logger discards. It panics if a
// schema cannot be generated, which is a programming error that every test
// run would show.
func New(store tenderbase.Store, logger *slog.Logger) *Set {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Set{
		store: store, logger: logger, byName: map[string]*Tool{}, searches: map[tenderbase.Kind]searchTool{},
		scanPages: maxScanPages, scanPageSize: tenderbase.MaxPageSize,
	}
	if src, ok := store.(spelling.Source); ok {
		s.vocab = spelling.NewVocabulary(src, nil)
	}
	for _, def := range s.definitions() {
		t, err := def()
		if err != nil {
			panic(fmt.Sprintf("tools: %v", err))
		}
		s.list = append(s.list, t)
		s.byName[t.Name] = t
	}
	s.prompts = s.promptDefinitions()
	return s
}

// SetWebhookPolicy sets the addresses subscriptions.create lets a
// webhook point at: by default public ones only.
func (s *Set) SetWebhookPolicy(p webhook.Policy) { s.webhooks = p }

// definitions returns the constructors of the tools in the order of spec 4.2.
func (s *Set) definitions() []func() (*Tool, error) {
	return []func() (*Tool, error){
		s.ruSearch, s.ruDetail, s.ruIzm, s.ruContractByNum,
		s.docsSearch, s.docsAnalyze,
		s.contractsSearch, s.contractsDetail,
		s.worldSearch, s.worldDetail,
		s.contragentByInn, s.contragentContacts,
		s.torgiSearch, s.torgiDetail,
		s.rnpSearch, s.rnpDetail,
		s.plansSearch, s.plansDetail,
		s.feedChanges,
		s.pricesMonitor, s.ruFlags, s.analyticsAggregate, s.analyticsProfile,
		s.subscriptionsCreate, s.subscriptionsList, s.subscriptionsDelete,
		s.dataFreshness,
	}
}

// List returns the tools in the order of spec 4.2. The caller must not
// modify them.
func (s *Set) List() []*Tool { return s.list }

// Lookup returns the tool called name ("ru.search").
func (s *Set) Lookup(name string) (*Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// ByEndpoint returns the tool of the debug endpoint /mcp/<group>/<operation>.
func (s *Set) ByEndpoint(group, operation string) (*Tool, bool) {
	return s.Lookup(group + "." + operation)
}

// definition is what a tool is made of before its schemas are generated.
type definition[A any] struct {
	name, title, description string
	effect                   Effect
	// params overrides the descriptions the argument type's tags give, for
	// tools that share an argument type but mean other things by it.
	params map[string]string
	// rules narrow, for this tool, what argumentRules say of an argument
	// that it takes fewer values of than others do.
	rules map[string]func(*jsonschema.Schema)
	// only, when set, names the fields of A that are the tool's arguments:
	// tools that share an argument type but take some of its arguments.
	only   []string
	output outputSchema
	// value, when set, is the schema of Output.Value where it is not
	// output's (Tool.ValueSchema).
	value outputSchema
	run   func(ctx context.Context, args A) (Output, error)
}

// build generates the schemas of d and returns its tool.
func build[A any](d definition[A]) (*Tool, error) {
	fields, err := onlyFields(argFieldsOf[A](), d.only)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.name, err)
	}
	if err := fields.checkBounded(); err != nil {
		return nil, fmt.Errorf("%s: %w", d.name, err)
	}
	in, err := inputSchema[A](fields, d.params, d.rules)
	if err == nil && d.only != nil {
		in, err = onlyProperties(in, fields)
	}
	if err != nil {
		return nil, fmt.Errorf("%s input schema: %w", d.name, err)
	}
	out, err := d.output()
	if err != nil {
		return nil, fmt.Errorf("%s output schema: %w", d.name, err)
	}
	var whole json.RawMessage
	if d.value != nil {
		if whole, err = d.value(); err != nil {
			return nil, fmt.Errorf("%s value schema: %w", d.name, err)
		}
	}
	group, op, _ := strings.Cut(d.name, ".")
	return &Tool{
		Name: d.name, Group: group, Operation: op,
		Title: d.title, Description: d.description, Effect: d.effect,
		InputSchema: in, OutputSchema: out, ValueSchema: whole,
		Call: func(ctx context.Context, raw json.RawMessage) (Output, error) {
			var args A
			if err := fields.decode(raw, &args); err != nil {
				return Output{}, err
			}
			return d.run(ctx, args)
		},
	}, nil
}

// caller is what the tools need to know of whoever calls them.
type caller struct {
	plan   tenderbase.Plan
	limits tenderbase.PlanLimits
}

// callerOf returns the caller of ctx. A caller without a key, or with a key
// of a plan this build does not know, gets the free view, so that nothing
// unknown ever sees more than free.
func callerOf(ctx context.Context) caller {
	k, ok := tenderbase.KeyFromContext(ctx)
	if !ok {
		return caller{plan: tenderbase.PlanFree, limits: tenderbase.Plans[tenderbase.PlanFree]}
	}
	if _, known := tenderbase.Plans[k.Plan]; !known {
		k.Plan = tenderbase.PlanFree
	}
	return caller{plan: k.Plan, limits: k.Effective()}
}

// onlyFields returns the fields named in names, in the order of fields, or
// all of them when names is nil.
func onlyFields(fields argFields, names []string) (argFields, error) {
	if names == nil {
		return fields, nil
	}
	var out argFields
	for _, n := range names {
		if !slices.ContainsFunc(fields, func(f argField) bool { return f.name == n }) {
			return nil, fmt.Errorf("argument %q is no field of the argument type", n)
		}
	}
	for _, f := range fields {
		if slices.Contains(names, f.name) {
			out = append(out, f)
		}
	}
	return out, nil
}

// onlyProperties returns the input schema with the properties of fields
// alone.
func onlyProperties(schema json.RawMessage, fields argFields) (json.RawMessage, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	keep := func(name string) bool {
		return slices.ContainsFunc(fields, func(f argField) bool { return f.name == name })
	}
	for name := range s.Properties {
		if !keep(name) {
			delete(s.Properties, name)
		}
	}
	// The order of the properties is not read back from JSON: it is the
	// fields' own.
	s.PropertyOrder = nil
	for _, f := range fields {
		s.PropertyOrder = append(s.PropertyOrder, f.name)
	}
	s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return !keep(n) })
	return marshal(&s)
}
