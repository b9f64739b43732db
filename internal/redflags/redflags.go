// Package redflags holds the red flags of one tender: the rules, each named
// with the published set it comes from, and what each rule makes of the
// records stored under the tender's purchase number and of its winners.
// It reads nothing itself: the caller gathers the evidence by lookups
// (internal/tools) and Check applies the rules to it, so that every rule
// and every threshold is in this one package (docs/flags.md).
package redflags

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// States of a flag.
const (
	Fired      = "fired"
	NotFired   = "not_fired"
	CannotTell = "cannot_tell" // the data the rule needs is missing: Missing says which
)

// Flag is one rule checked against one tender.
type Flag struct {
	Rule   string `json:"rule" jsonschema:"The rule's name: single_bid, price_close_to_initial, short_deadline, many_amendments, winner_new, winner_unfair, winner_bankrupt, complaints_upheld."`
	Source string `json:"source" jsonschema:"The published set of red flags (and its code) or the law the rule follows."`
	State  string `json:"state" jsonschema:"fired, not_fired or cannot_tell."`
	// Because gives the figures the state rests on, each naming its
	// record, so that a reader can check it.
	Because []string `json:"because" jsonschema:"The figures the state rests on, each naming the record it comes from."`
	Missing string   `json:"missing,omitempty" jsonschema:"For cannot_tell: the data that is missing."`
	Open    []string `json:"open,omitempty" jsonschema:"The records to open next, as tool and id: ru.contractByNum <number>, contracts.detail <reg_number>, rnp.detail <registry_number>..."`
}

// Evidence is what is stored of one tender, gathered by lookups on its
// purchase number and on its winners' INNs.
type Evidence struct {
	PurchaseNumber string
	// Tender is the notice's current version; nil when none is stored.
	Tender *tenderbase.Tender
	// Versions are the stored versions of the notice, oldest first.
	Versions []*tenderbase.Tender
	// Events are the tender's events, newest first.
	Events []*tenderbase.TenderEvent
	// Protocols are the protocols in force, newest first, their
	// participants identified across the protocols of a lot.
	Protocols []*tenderbase.Protocol
	// Contracts are the contracts concluded from the tender.
	Contracts []*tenderbase.Contract
	// Winners are who won, with what the registers hold of each.
	Winners []Winner
	// Complaints and Results are the complaints naming the purchase and
	// the results of their checks.
	Complaints []*tenderbase.Complaint
	Results    []*tenderbase.ComplaintResult
}

// Winner is a winner of the tender with what is stored of it elsewhere.
type Winner struct {
	INN, Name string
	// Award is the day it was named winner (its protocol's date) or its
	// contract signed: the day the registers are read at.
	Award time.Time
	// Org is its register card; nil when none is stored.
	Org *tenderbase.Org
	// Unfair are the entries of the register of unfair suppliers naming
	// its INN.
	Unfair []*tenderbase.UnfairSupplier
	// Bankruptcy are the fedresurs lots that sell its property as a
	// debtor.
	Bankruptcy []*tenderbase.Lot
}

// Check applies every rule to e on day now, in the order of docs/flags.md.
func Check(e Evidence, now time.Time) []Flag {
	return []Flag{
		singleBid(e),
		priceCloseToInitial(e),
		shortDeadline(e),
		manyAmendmentsRule(e),
		winnerNew(e),
		winnerUnfair(e, now),
		winnerBankrupt(e),
		complaintsUpheld(e),
	}
}

// Fired counts the flags that fired.
func FiredCount(flags []Flag) int {
	n := 0
	for _, f := range flags {
		if f.State == Fired {
			n++
		}
	}
	return n
}

// competitive reports whether the tender was placed by a competitive
// method, whether that is known, and what it is known from. A purchase from
// a single supplier (EIS codes EP44, EP223..., "у единственного
// поставщика", or a 223-FZ protocol of such a purchase) is not.
func competitive(e Evidence) (yes, known bool, from string) {
	if t := e.Tender; t != nil && (t.PlacingMethod != "" || t.PlacingMethodCode != "") {
		return !singleSupplier(t), true, method(t)
	}
	for _, p := range e.Protocols {
		if p.Type == singleSupplierProtocol {
			return false, true, fmt.Sprintf("protocol %s, %s", orOf(p.Number, p.ID), p.Type)
		}
	}
	return false, false, ""
}

// singleSupplierProtocol is the 223-FZ protocol of a purchase from a single
// supplier (Протокол проведения закупки у единственного поставщика).
const singleSupplierProtocol = "purchaseProtocolPAEP"
