package tenderbase

import (
	"context"
	"time"
)

// CustomerQuestion asks a store for the figures of a customer's red flags:
// its tenders published from From (included) to To (excluded); a zero
// bound is none.
type CustomerQuestion struct {
	INN      string
	From, To time.Time
}

// Validate checks a question: an INN of 10 or 12 digits, bounds in order.
func (q CustomerQuestion) Validate() error {
	if n := len(q.INN); n != 10 && n != 12 || !allDigits(q.INN) {
		return Errorf(EINVALID, "an INN is 10 or 12 digits, got %s", Quote(q.INN))
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		return Errorf(EINVALID, "the period ends before it begins")
	}
	return nil
}

// Bounds returns the period in unix seconds, the whole of time for a
// zero bound.
func (q CustomerQuestion) Bounds() (from, to int64) {
	from, to = -1<<62, 1<<62
	if !q.From.IsZero() {
		from = q.From.Unix()
	}
	if !q.To.IsZero() {
		to = q.To.Unix()
	}
	return from, to
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// CustomerFigures are the counts over a customer's tenders that its red
// flags rest on (internal/redflags, docs/flags.md), each with a few of
// the purchase numbers it counts, the newest first.
type CustomerFigures struct {
	// Tenders are the notices of the customer in the period.
	Tenders int `json:"tenders"`
	// Bidded are those of a competitive method (not from a single
	// supplier, or of a method not stored) whose protocols name a
	// participant; SingleBid those of them with one.
	Bidded    int      `json:"bidded"`
	SingleBid Examples `json:"single_bid"`
	// Priced are the tenders of a competitive method with an initial
	// price and the price of their one contract in its currency; Close
	// those whose contract is at 99% of the initial price or more.
	Priced int      `json:"priced"`
	Close  Examples `json:"close_to_initial"`
	// Amended are the tenders whose notice is at version 4 or later: 3
	// amendments or more.
	Amended Examples `json:"amended"`
	// Complaints are those against the customer's purchases: the
	// purchases of its tenders in the period, and of the complaints that
	// name it as the customer published in the period; Upheld the
	// purchases of those founded, wholly or in part.
	Complaints Complaints `json:"complaints"`
	Upheld     []string   `json:"upheld_purchases,omitempty"`
}

// Examples is a count and some of the purchase numbers it counts.
type Examples struct {
	Count     int      `json:"count"`
	Purchases []string `json:"purchases,omitempty"`
}

// MaxExamples is how many purchase numbers a figure names.
const MaxExamples = 3

// CustomerFlagger is a store that counts a customer's figures for its red
// flags with aggregates over its facts, never reading the records.
//
// Errors: EINVALID for a question that Validate refuses.
type CustomerFlagger interface {
	CustomerFigures(ctx context.Context, q CustomerQuestion) (CustomerFigures, error)
}
