package tenderbase

import "time"

// ContractExecution is what a customer reports of a registered contract's
// performance: the payments and acceptances of one stage, and the
// termination or annulment of the contract, as an EIS contractProcedure
// (44-FZ) or performanceContract (223-FZ) gives them. Like protocols, these
// reports are records of their own rather than versions of the contract:
// each is published on its own date, may come before the contract it is of,
// and a contract's execution is all of them, applied when it is read.
type ContractExecution struct {
	ID          string    `json:"id"`         // the EIS document id
	RegNumber   string    `json:"reg_number"` // the registry number of the contract
	Law         string    `json:"law,omitempty"`
	Document    string    `json:"document"` // the EIS document, e.g. "contractProcedure"
	Version     int       `json:"version,omitempty"`
	PublishedAt time.Time `json:"published_at"`
	// Stage is the stage of the contract the report is of; nil when the
	// report is of the contract as a whole.
	Stage     *ExecutionStage     `json:"stage,omitempty"`
	Documents []ExecutionDocument `json:"documents,omitempty"`
	// Termination ends the contract before its performance: a termination
	// or a court's annulment.
	Termination *ContractTermination `json:"termination,omitempty"`
	// Status is the contract's state after the report, in the words of
	// Contract.Status; empty when the report does not say.
	Status      string       `json:"status,omitempty"`
	Attachments []Attachment `json:"attachments,omitempty"`
	URL         string       `json:"url,omitempty"`
}

// ExecutionStage is a stage of a contract's performance.
type ExecutionStage struct {
	Number   int       `json:"number"` // the stage's ordinal number, as the report gives it
	StartsAt time.Time `json:"starts_at,omitzero"`
	EndsAt   time.Time `json:"ends_at,omitzero"`
	// Final says the stage completes the contract.
	Final bool `json:"final,omitempty"`
}

// Types of execution documents.
const (
	ExecutionPayment    = "payment"    // a payment order or another payment document
	ExecutionAcceptance = "acceptance" // an acceptance certificate, an invoice, a bill of lading
	ExecutionOther      = "execution"  // another document of performance
)

// ExecutionDocument is one document of a contract's performance: a payment
// or an acceptance of what was supplied.
type ExecutionDocument struct {
	Type     string    `json:"type"` // one of the Execution constants
	Name     string    `json:"name,omitempty"`
	Number   string    `json:"number,omitempty"`
	Date     time.Time `json:"date,omitzero"`
	Amount   float64   `json:"amount,omitempty"` // paid or accepted, in Currency
	Currency string    `json:"currency,omitempty"`
	// AmountRUB is the amount in roubles, where the report gives it.
	AmountRUB float64 `json:"amount_rub,omitempty"`
	VAT       float64 `json:"vat,omitempty"`
	// Advance marks an advance payment, made before what it pays for was
	// accepted.
	Advance bool `json:"advance,omitempty"`
	// ImproperExecution is what the customer says of a failure to perform,
	// as worded; EIS often says "Отсутствует" (none).
	ImproperExecution string `json:"improper_execution,omitempty"`
}

// Types of termination.
const (
	TerminationEnded    = "termination" // by agreement, a party's refusal or a court
	TerminationAnnulled = "annulment"   // a court found the contract invalid
)

// ContractTermination is the end of a contract before its performance.
type ContractTermination struct {
	Type   string    `json:"type"` // one of the Termination constants
	Date   time.Time `json:"date,omitzero"`
	Reason string    `json:"reason,omitempty"` // as worded
	// Document is the document it rests on, e.g. an additional agreement.
	Document string  `json:"document,omitempty"`
	Paid     float64 `json:"paid,omitempty"` // paid under the contract by then
}

func (e *ContractExecution) Kind() Kind      { return KindContractExecution }
func (e *ContractExecution) Key() string     { return e.ID }
func (e *ContractExecution) Revision() int   { return e.Version }
func (e *ContractExecution) Date() time.Time { return e.PublishedAt }

// SearchText returns nil: reports are found through their contract.
func (e *ContractExecution) SearchText() []Text { return nil }

// Flags returns nil.
func (e *ContractExecution) Flags() []string { return nil }

// Lookups returns the registry number of the contract.
func (e *ContractExecution) Lookups() []Lookup {
	return lookups(LookupRegNumber, e.RegNumber)
}
