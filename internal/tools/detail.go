package tools

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// idArgs are the arguments of the detail tools.
type idArgs struct {
	ID string `json:"id" jsonschema:"The record's id, as search results give it. Required."`
}

func (a *idArgs) check() error { return requireText("id", &a.ID) }

// detailTool is a tool that returns one record by its key.
type detailTool struct {
	name, title, description string
	idMeans                  string // what the id argument is, for its schema
	kind                     tenderbase.Kind
	// find, when set, returns the record an id that is no key names (a
	// position of a plan by its IKZ), or nil.
	find func(ctx context.Context, id string) (tenderbase.Record, error)
	// missing returns the error for an id nothing is stored under; it says
	// what was looked for and how to find the right id.
	missing func(ctx context.Context, id string) error
	// extra, when set, returns the members added to the record's object,
	// noting in hidden what it masks, and output is then the schema of the
	// result.
	extra  func(ctx context.Context, rec tenderbase.Record, hidden restricted) (any, error)
	output outputSchema
}

// detailDefinition returns the tool t.
func (s *Set) detailDefinition(t detailTool) (*Tool, error) {
	output := t.output
	if output == nil {
		output = recordOutput(t.kind)
	}
	return build(definition[idArgs]{
		name: t.name, title: t.title, description: t.description,
		params: map[string]string{"id": t.idMeans},
		output: output,
		run: func(ctx context.Context, args idArgs) (Output, error) {
			return s.detail(ctx, t, args.ID)
		},
	})
}

// detail returns the current version of the record, masked for the caller.
func (s *Set) detail(ctx context.Context, t detailTool, id string) (Output, error) {
	rec, err := s.get(ctx, t.kind, id)
	if err == nil && rec == nil && t.find != nil {
		rec, err = t.find(ctx, id)
	}
	if err != nil {
		return Output{}, err
	}
	if rec == nil {
		return Output{}, t.missing(ctx, id)
	}
	hidden := restricted{}
	body, err := hidden.mask(rec, callerOf(ctx).plan)
	if err != nil {
		return Output{}, err
	}
	if t.extra != nil {
		more, err := t.extra(ctx, rec, hidden)
		if err != nil {
			return Output{}, err
		}
		if body, err = withMembers(body, more); err != nil {
			return Output{}, err
		}
	}
	return Output{Value: body, Restricted: hidden.list()}, nil
}

// get returns the current version of a record, or nil when none is stored.
func (s *Set) get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	rec, err := s.store.Get(ctx, k, key)
	switch tenderbase.ErrorCode(err) {
	case "":
		return rec, nil
	case tenderbase.ENOTFOUND:
		return nil, nil
	}
	return nil, fmt.Errorf("get %s %s: %w", k, key, err)
}

// notFound returns an ENOTFOUND error.
func notFound(format string, args ...any) error {
	return tenderbase.Errorf(tenderbase.ENOTFOUND, format, args...)
}
