package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// contractResult is the part of contracts.detail that the reports of the
// contract's performance decide.
type contractResult struct {
	Status     string            `json:"status"`
	State      string            `json:"state"`
	StateFrom  string            `json:"state_from"`
	Paid       float64           `json:"paid"`
	Payments   int               `json:"payments"`
	Executions []json.RawMessage `json:"executions"`
}

const execReg = "3770123456725000011"

func registered(status string) *tenderbase.Contract {
	return &tenderbase.Contract{RegNumber: execReg, Law: tenderbase.Law44, Version: 1, Subject: "Поставка бумаги",
		Customer: tenderbase.Party{INN: "7701234560", Name: "ГБУЗ «ГКБ № 15»"}, Price: 1000, Currency: "RUB",
		Status: status, PublishedAt: day(1)}
}

func paymentOf(number string, amount float64, d int) tenderbase.ExecutionDocument {
	return tenderbase.ExecutionDocument{Type: tenderbase.ExecutionPayment, Name: "Платежное поручение", Number: number,
		Date: day(d), Amount: amount, Currency: "RUB"}
}

func report(id string, d int, status string, docs ...tenderbase.ExecutionDocument) *tenderbase.ContractExecution {
	return &tenderbase.ContractExecution{ID: id, RegNumber: execReg, Law: tenderbase.Law44, Document: "contractProcedure",
		PublishedAt: day(d), Stage: &tenderbase.ExecutionStage{Number: 1}, Documents: docs, Status: status}
}

func TestContractDetailAppliesReports(t *testing.T) {
	advance := paymentOf("11", 300, 5)
	rest := paymentOf("12", 650.10, 20)
	acceptance := tenderbase.ExecutionDocument{Type: tenderbase.ExecutionAcceptance, Name: "Акт", Number: "7", Date: day(19), Amount: 950.10}
	terminated := report("r3", 25, tenderbase.ContractTerminated)
	terminated.Stage = nil
	terminated.Termination = &tenderbase.ContractTermination{Type: tenderbase.TerminationEnded, Date: day(25), Reason: "Соглашение сторон", Paid: 950.10}
	for _, tt := range []struct {
		name          string
		recs          []tenderbase.Record
		state, from   string
		paid          float64
		payments, got int
	}{
		{"no report: the registry's own status", []tenderbase.Record{registered(tenderbase.ContractExecuting)},
			"execution", "contract " + execReg + " (version 1)", 0, 0, 0},
		{"no status at all: being performed", []tenderbase.Record{registered("")},
			"execution", "contract " + execReg + " (version 1)", 0, 0, 0},
		// The second report restates the advance: it counts once.
		{"completed, payments counted once", []tenderbase.Record{
			report("r2", 22, tenderbase.ContractCompleted, advance, acceptance, rest), registered(tenderbase.ContractExecuting),
			report("r1", 6, tenderbase.ContractExecuting, advance)},
			"completed", "contract_execution r2 (contractProcedure)", 950.10, 2, 2},
		{"terminated after payments, in any order", []tenderbase.Record{
			terminated, report("r1", 6, tenderbase.ContractExecuting, advance), registered(tenderbase.ContractExecuting),
			report("r2", 22, "", advance, rest)},
			"terminated", "contract_execution r3 (contractProcedure)", 950.10, 2, 3},
		{"a report without a status leaves the newest that has one", []tenderbase.Record{
			report("r1", 6, tenderbase.ContractExecuting, advance), report("r2", 22, "", rest), registered(tenderbase.ContractCompleted)},
			"execution", "contract_execution r1 (contractProcedure)", 950.10, 2, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set := emptySet(t, tt.recs...)
			got, _ := decodeCall[contractResult](t, set, tenderbase.PlanFree, "contracts.detail", `{"id": "`+execReg+`"}`)
			if got.State != tt.state || got.StateFrom != tt.from || got.Paid != tt.paid || got.Payments != tt.payments || len(got.Executions) != tt.got {
				t.Errorf("state %q from %q, paid %v in %d payments, %d reports; want %q from %q, %v in %d, %d",
					got.State, got.StateFrom, got.Paid, got.Payments, len(got.Executions), tt.state, tt.from, tt.paid, tt.payments, tt.got)
			}
		})
	}
}

// A withdrawn report no longer counts: its payments and its status are gone.
func TestContractDetailWithdrawnReport(t *testing.T) {
	wrong := report("r2", 22, tenderbase.ContractCompleted, paymentOf("12", 700, 20))
	withdrawal := &tenderbase.Withdrawal{ID: "contractProcedureCancel-r2", TargetKind: tenderbase.KindContractExecution, TargetKey: "r2",
		Document: "contractProcedureCancel", PublishedAt: day(23)}
	set := emptySet(t, withdrawal, registered(tenderbase.ContractExecuting), wrong, report("r1", 6, tenderbase.ContractExecuting, paymentOf("11", 300, 5)))
	got, _ := decodeCall[contractResult](t, set, tenderbase.PlanFree, "contracts.detail", `{"id": "`+execReg+`"}`)
	if got.State != "execution" || got.Paid != 300 || len(got.Executions) != 1 {
		t.Errorf("state %q, paid %v, %d reports; want execution, 300, 1", got.State, got.Paid, len(got.Executions))
	}
}

func TestContractDetailOnlyReports(t *testing.T) {
	set := emptySet(t, report("r1", 6, tenderbase.ContractExecuting, paymentOf("11", 300, 5)))
	_, err := call(t, set, asPlan(tenderbase.PlanFree), "contracts.detail", `{"id": "`+execReg+`"}`)
	if errorCode(err) != tenderbase.ENOTFOUND || !strings.Contains(err.Error(), "only 1 report(s) of its performance") {
		t.Errorf("contracts.detail of a contract known by its reports only: %v; want not found saying a report is stored", err)
	}
}
