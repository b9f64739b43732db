package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// defaultFeedLimit is the changes a page of the feed holds when the caller
// does not say: a search page's worth, about 2,500 characters, which a
// model reads at a glance; an integration asks for up to MaxFeedPage.
const defaultFeedLimit = 20

// feedArgs are the arguments of feed.changes.
type feedArgs struct {
	Resource string `json:"resource" jsonschema:"ru: tenders, protocols, events; fas: complaints, cases; contragent: organizations."`
	Cursor   string `json:"cursor,omitempty" jsonschema:"From next_cursor; absent: from the start."`
	Limit    int    `json:"limit,omitempty" jsonschema:"Default 20."`
}

func (a *feedArgs) check() error {
	a.Resource = strings.TrimSpace(a.Resource)
	if _, ok := tenderbase.FeedResources[a.Resource]; !ok {
		return argErrorf("argument \"resource\" must be one of %s, got %s", strings.Join(tenderbase.FeedResourceNames(), ", "), tenderbase.Quote(a.Resource))
	}
	if a.Limit < 0 || a.Limit > tenderbase.MaxFeedPage {
		return argErrorf("argument \"limit\" must be from 1 to %d (0 or left out: %d), got %d", tenderbase.MaxFeedPage, defaultFeedLimit, a.Limit)
	}
	return nil
}

// feedResult is the output of feed.changes.
type feedResult struct {
	Resource   string       `json:"resource" jsonschema:"The resource whose changes these are."`
	Changes    []feedChange `json:"changes" jsonschema:"The changes after the cursor, oldest first; empty when nothing changed since."`
	NextCursor string       `json:"next_cursor" jsonschema:"Pass it as cursor to read the changes after this page; given even when more is false, to poll later for what comes next."`
	More       bool         `json:"more" jsonschema:"Whether more changes follow at once; when false, poll later with next_cursor."`
}

// feedChange is one change of the feed, as the tool shows it.
type feedChange struct {
	Type     string    `json:"type" jsonschema:"new: a record stored for the first time; version: a new version or a correction of a stored record; withdrawn: a record taken away by a withdrawal; state: a tender whose state or deadline changed, or a world tender whose award now names its winners."`
	Kind     string    `json:"kind" jsonschema:"The record's kind: tender, protocol, tender_event, doc, contract, contract_execution, world_tender, lot, lot_event, unfair_supplier, complaint, complaint_result, fas_case or org."`
	Key      string    `json:"key" jsonschema:"The record's key: a tender's purchase number, a protocol's or event's id, a complaint's number..."`
	Revision int       `json:"revision,omitempty" jsonschema:"The version stored, for new and version."`
	State    string    `json:"state,omitempty" jsonschema:"For state: the tender's state after the change, one of active, completed (a winner is named), cancelled, failed; a world tender's is completed."`
	Deadline time.Time `json:"deadline,omitzero" jsonschema:"For state: the tender's applications deadline after the change, when it has one."`
	At       time.Time `json:"at" jsonschema:"When the service recorded the change."`
}

func (s *Set) feedChanges() (*Tool, error) {
	return build(definition[feedArgs]{
		name:  "feed.changes",
		title: "Changes since a cursor",
		description: "Changes, oldest first, to poll instead of searching again: new, version, withdrawn, or state (a tender won, " +
			"failed, cancelled or its deadline moved), with kind and key. Pass next_cursor to read on; keep it to poll " +
			"later. Next: the resource's detail tool by key." + " " + `Example: {"resource": "ru", "limit": 50}.`,
		output: outputOf[feedResult](""),
		run: func(ctx context.Context, args feedArgs) (Output, error) {
			return s.feed(ctx, args)
		},
	})
}

func (s *Set) feed(ctx context.Context, args feedArgs) (Output, error) {
	feed, ok := s.store.(tenderbase.ChangeFeed)
	if !ok {
		return Output{}, errors.New("this store keeps no feed of changes")
	}
	q := tenderbase.FeedQuery{Kinds: tenderbase.FeedResources[args.Resource], Limit: args.Limit}
	if q.Limit == 0 {
		q.Limit = defaultFeedLimit
	}
	if args.Cursor != "" {
		var err error
		if q.After, err = tenderbase.ParseFeedCursor(args.Resource, args.Cursor); err != nil {
			return Output{}, err
		}
	}
	p, err := feed.Changes(ctx, q)
	if err != nil {
		return Output{}, fmt.Errorf("read the feed of %s: %w", args.Resource, err)
	}
	res := feedResult{Resource: args.Resource, Changes: make([]feedChange, 0, len(p.Entries)),
		NextCursor: tenderbase.FeedCursor(args.Resource, p.Last), More: p.More}
	for _, e := range p.Entries {
		res.Changes = append(res.Changes, feedChange{Type: string(e.Type), Kind: string(e.Kind), Key: e.Key,
			Revision: e.Revision, State: e.State, Deadline: e.Deadline, At: e.At})
	}
	return output(res, restricted{})
}

// feedResourceEnum is the resources as the input schema lists them.
func feedResourceEnum() []any {
	var out []any
	for _, n := range tenderbase.FeedResourceNames() {
		out = append(out, n)
	}
	return out
}
