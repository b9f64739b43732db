package tenderbase

import "time"

// Withdrawal withdraws an earlier record, as an EIS checkResultCancel
// withdraws a check result. It is a record of its own, so that it holds
// whichever order the two arrive in: the target stays stored, with every
// version, but a store no longer returns it from Search or Get, and a target
// stored after its withdrawal is withdrawn at once.
type Withdrawal struct {
	ID          string    `json:"id"` // the EIS document id of the withdrawing document
	TargetKind  Kind      `json:"target_kind"`
	TargetKey   string    `json:"target_key"`
	Document    string    `json:"document,omitempty"` // the EIS document, e.g. "checkResultCancel"
	PublishedAt time.Time `json:"published_at,omitzero"`
	Reason      string    `json:"reason,omitempty"`
}

func (w *Withdrawal) Kind() Kind      { return KindWithdrawal }
func (w *Withdrawal) Key() string     { return w.ID }
func (w *Withdrawal) Revision() int   { return 0 }
func (w *Withdrawal) Date() time.Time { return w.PublishedAt }

// SearchText returns nil: withdrawals are listed, not searched.
func (w *Withdrawal) SearchText() []Text { return nil }

// Flags returns nil.
func (w *Withdrawal) Flags() []string { return nil }

// Lookups returns nil.
func (w *Withdrawal) Lookups() []Lookup { return nil }
