package demo

import (
	"time"

	"github.com/tenderbase/tenderbase"
)

// executions reports the performance of the demo's 44-FZ contracts, one
// report each, by where the contract's latest version stands: the final
// payment of a completed contract, the advance of one in execution, the
// termination of a terminated one. They are derived without drawing random
// numbers, so the rest of the dataset stays as it was; 223-FZ contracts get
// none.
func (b *builder) executions() []*tenderbase.ContractExecution {
	latest := map[string]*tenderbase.Contract{}
	var order []string
	for _, c := range b.contracts {
		if _, seen := latest[c.RegNumber]; !seen {
			order = append(order, c.RegNumber)
		}
		latest[c.RegNumber] = c
	}
	var out []*tenderbase.ContractExecution
	for _, reg := range order {
		if e := execution(latest[reg]); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// Terms of the demo's reports.
const (
	payOrder        = "Платежное поручение"
	byAgreement     = "Соглашение сторон"
	supplementaryTo = "Дополнительное соглашение к контракту"
	advanceShare    = 0.3 // the largest advance 44-FZ allows
)

// execution returns the report of contract c's performance, or nil when
// nothing was due by the end of the demo period.
func execution(c *tenderbase.Contract) *tenderbase.ContractExecution {
	if c.Law != tenderbase.Law44 {
		return nil
	}
	e := &tenderbase.ContractExecution{
		ID:        documentID(c.RegNumber, "execution"),
		RegNumber: c.RegNumber,
		Law:       c.Law,
		Document:  "contractProcedure",
		Status:    c.Status,
		URL:       "https://zakupki.gov.ru/epz/contract/contractCard/process-info.html?reestrNumber=" + c.RegNumber,
	}
	stage := &tenderbase.ExecutionStage{Number: 1, StartsAt: day(c.StartsAt), EndsAt: day(c.EndsAt)}
	switch c.Status {
	case tenderbase.ContractCompleted:
		stage.Final = true
		e.Stage = stage
		e.Documents = []tenderbase.ExecutionDocument{payment(c, c.Price, day(c.EndsAt).AddDate(0, 0, 10), false)}
	case tenderbase.ContractExecuting:
		e.Stage = stage
		e.Documents = []tenderbase.ExecutionDocument{payment(c, money(c.Price*advanceShare), day(c.StartsAt).AddDate(0, 0, 14), true)}
	case tenderbase.ContractTerminated:
		e.Termination = &tenderbase.ContractTermination{
			Type: tenderbase.TerminationEnded, Date: day(c.PublishedAt), Reason: byAgreement, Document: supplementaryTo,
		}
		e.PublishedAt = c.PublishedAt.Add(2 * time.Hour)
		return e
	default:
		return nil
	}
	paid := e.Documents[0].Date
	e.PublishedAt = paid.AddDate(0, 0, 2).Add(11 * time.Hour)
	if e.PublishedAt.After(lastDay) {
		return nil
	}
	return e
}

// payment returns a payment order of amount under contract c, numbered
// from the contract's registry number.
func payment(c *tenderbase.Contract, amount float64, date time.Time, advance bool) tenderbase.ExecutionDocument {
	return tenderbase.ExecutionDocument{
		Type:      tenderbase.ExecutionPayment,
		Name:      payOrder,
		Number:    c.RegNumber[len(c.RegNumber)-5:],
		Date:      date,
		Amount:    amount,
		Currency:  "RUB",
		AmountRUB: amount,
		Advance:   advance,
	}
}

// day returns the date of t, at midnight in Moscow, as EIS dates are read.
func day(t time.Time) time.Time {
	t = t.In(msk)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, msk)
}
