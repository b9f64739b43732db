package tenderbase

import (
	"context"
	"time"
)

// Role is the side of procurement an organization's profile looks at it
// from.
type Role string

// The roles of a profile.
const (
	RoleCustomer Role = "customer" // it buys: its notices and contracts as customer
	RoleSupplier Role = "supplier" // it sells: the protocols it took part in, its contracts as supplier
)

// Profiling asks for the profile of the organization of one INN in one
// role, over the records dated in [From, To) (a zero bound is open).
type Profiling struct {
	INN  string
	Role Role
	// Top is how many rows each list of the profile gives (1 to MaxTop;
	// 0 is DefaultTop); the rest are counted.
	Top      int
	From, To time.Time
	// Quarterly cuts the spend over time by quarter rather than by year.
	Quarterly bool
}

// Size returns the number of rows each list gives.
func (p Profiling) Size() int {
	if p.Top == 0 {
		return DefaultTop
	}
	return p.Top
}

// Validate checks a profiling: an INN of 10 or 12 digits, a known role,
// a top in range and a period that is not empty.
func (p Profiling) Validate() error {
	if !ValidINN(p.INN) || IsPlaceholderINN(p.INN) {
		return Errorf(EINVALID, "inn is 10 digits (an organization) or 12 (a person), got %s", Quote(p.INN))
	}
	if p.Role != RoleCustomer && p.Role != RoleSupplier {
		return Errorf(EINVALID, "unknown role %s (known: customer, supplier)", Quote(string(p.Role)))
	}
	if p.Top < 0 || p.Top > MaxTop {
		return Errorf(EINVALID, "top must be from 1 to %d, got %d", MaxTop, p.Top)
	}
	if !p.From.IsZero() && !p.To.IsZero() && !p.From.Before(p.To) {
		return Errorf(EINVALID, "the period is empty: from %s is not before to %s", p.From.Format(time.DateOnly), p.To.Format(time.DateOnly))
	}
	return nil
}

// Rivals is a store that answers how a supplier fared in the protocols,
// from the participants it keeps of every protocol. Both stores of the
// project are Rivals and give the same figures to the same question.
//
// Errors: EINVALID for a profiling that Validate refuses.
type Rivals interface {
	Rivalry(ctx context.Context, p Profiling) (Rivalry, error)
}

// Rivalry is a supplier's record in the protocols dated in a period. A
// procedure is one lot of one purchase (a protocol without a lot number
// is lot 0): every protocol of it that names the supplier by INN counts
// once, whatever its stage.
type Rivalry struct {
	INN  string `json:"inn"`
	Name string `json:"name,omitempty"`
	// Procedures it took part in; Won those where a protocol names it a
	// winner; Lost those where one names another participant and not it.
	Procedures int `json:"procedures"`
	Won        int `json:"won"`
	Lost       int `json:"lost"`
	// Rivals are the participants it met most often, Winners those who
	// won most often where it lost; More* count the rest.
	Rivals      []Rival `json:"rivals"`
	MoreRivals  int     `json:"more_rivals"`
	Winners     []Rival `json:"winners"`
	MoreWinners int     `json:"more_winners"`
	// Statuses are its contracts as a supplier, dated in the period, by
	// status, the most first.
	Statuses   []StatusCount `json:"statuses"`
	Generation int64         `json:"-"`
}

// Rival is a participant met in the procedures of a Rivalry.
type Rival struct {
	INN  string `json:"inn"`
	Name string `json:"name,omitempty"`
	// Met is the procedures both took part in; Won those of them the
	// rival won; WonOver those it won and the supplier did not.
	Met     int `json:"met"`
	Won     int `json:"won"`
	WonOver int `json:"won_over"`
}

// Bid is a participant of a protocol as a store keeps it for rivalries.
type Bid struct {
	Purchase string
	Lot      int
	INN      string
	Name     string
	Offer    int64 // minor units; 0 when none
	Won      bool
	Date     time.Time // the protocol's
}

// BidsOf returns the participants of p named by INN, placeholders left
// out, each winner (Protocol.Winners) marked; none for a protocol that
// names no purchase, which no procedure joins.
func BidsOf(p *Protocol) []Bid {
	if p.PurchaseNumber == "" {
		return nil
	}
	winners := map[string]bool{}
	for _, w := range p.Winners() {
		winners[w.INN] = true
	}
	var out []Bid
	for _, part := range p.Participants {
		if part.INN == "" || IsPlaceholderINN(part.INN) {
			continue
		}
		out = append(out, Bid{Purchase: p.PurchaseNumber, Lot: p.LotNumber, INN: part.INN, Name: partyName(part.Party),
			Offer: minor(part.Price), Won: winners[part.INN], Date: p.Date()})
	}
	return out
}

// Profile is what the stored records say of one organization in one
// role, each part computed in the store.
type Profile struct {
	INN  string `json:"inn"`
	Name string `json:"name,omitempty"`
	Role Role   `json:"role"`
	// A customer's: its contracts by supplier (the total is every
	// contract, its drop the price drops), its spend by year or quarter,
	// its notices by placing method (the total's competition is the
	// single-bid share), and the complaints against it.
	Suppliers  *Aggregate `json:"suppliers,omitempty"`
	Spend      []Group    `json:"spend,omitempty"`
	Methods    *Aggregate `json:"methods,omitempty"`
	Complaints int        `json:"complaints"`
	// A supplier's: its contracts by customer (the total's drop is its
	// mean discount), its record in the protocols with its contracts by
	// status, and its entries in the unfair-supplier register.
	Customers *Aggregate `json:"customers,omitempty"`
	Rivalry   *Rivalry   `json:"rivalry,omitempty"`
	Unfair    int        `json:"unfair"`
}

// StatusCount is the number of a supplier's contracts in one status
// (Contract.Status: execution, completed, terminated, annulled).
type StatusCount struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}
