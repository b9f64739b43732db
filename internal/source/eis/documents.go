package eis

import "strings"

// documents maps the local name of each document element to its decoder.
// A name ending in "*" matches every name it begins; the longest such prefix
// wins, and an exact name wins over any prefix. Each family of documents
// adds its own map here.
var documents = merge(complaintDocuments, contracts, contractCancels, notices44, notices223, protocols44, protocols223, events, executions, unfairSuppliers44, unfairSuppliers223, plans44, plans223)

// documentWires holds a value of the wire struct of every kind of document
// the decoders read. Decode keeps of a document only the elements one of
// them maps (prune.go), so a decoder that reads a new wire struct needs it
// here: TestEveryWireStructIsListed fails until it is.
var documentWires = []any{
	complaintWire{}, complaintCancelWire{}, complaintGroupWire{}, checkResultWire{}, checkResultCancelWire{},
	contract44{}, contract223{}, contractCancel44{},
	epNoticeWire{}, fcsNoticeWire{}, purchaseNoticeWire{},
	event44Wire{}, partialNoticeWire{}, event223Wire{},
	protocol44Wire{}, purchaseProtocolWire{},
	contractProcedureWire{}, contractProcedureCancelWire{}, performanceContractWire{},
	unfairSupplierWire{}, unfairSupplier2022Wire{}, unfairExclude2022Wire{}, dishonestSupplierWire{},
	tenderPlanWire{}, purchasePlanWire{},
}

// documentDecoder returns the decoder of the documents named kind. A kind
// that holds no record of ours has none, even where a prefix would claim it.
func documentDecoder(kind string) (documentFunc, bool) {
	if _, no := notRecords[kind]; no {
		return nil, false
	}
	if f, ok := documents[kind]; ok {
		return f, true
	}
	var best documentFunc
	longest := -1
	for name, f := range documents {
		prefix, ok := strings.CutSuffix(name, "*")
		if ok && strings.HasPrefix(kind, prefix) && len(prefix) > longest {
			best, longest = f, len(prefix)
		}
	}
	return best, best != nil
}

func merge(families ...map[string]documentFunc) map[string]documentFunc {
	all := map[string]documentFunc{}
	for _, family := range families {
		for name, f := range family {
			if _, dup := all[name]; dup {
				panic("eis: two decoders for " + name)
			}
			all[name] = f
		}
	}
	return all
}

// notRecords says, for kinds of documents that hold no record of ours, why.
var notRecords = map[string]string{
	"fcsClarification": "an answer to a participant's question, not a change of the notice",

	// Plans: drafts, part-documents and the plans of before 2020. Each
	// approved version of a plan is published whole, as <purchasePlan>
	// (223-FZ) or <tenderPlan2020> (44-FZ).
	"purchasePlanProject":                   "a draft of a 223-FZ purchase plan, before its approval; the approved plan comes as <purchasePlan>",
	"purchasePlanProjectAdditionalPosition": "positions added to a draft of a 223-FZ purchase plan, before its approval",
	"purchasePlanProjectUpdatePosition":     "positions changed in a draft of a 223-FZ purchase plan, before its approval",
	"purchasePlanAdditionalPosition":        "positions added to a 223-FZ purchase plan, named by the plan's GUID only, without the registration number and version the positions are kept under",
	"purchasePlanUpdatePosition":            "positions changed or deleted in a 223-FZ purchase plan, without the plan's version to order them by",
	"tenderPlan":                            "a 44-FZ plan-schedule of before 2017, whose positions no notice of 2020 or later names",
	"tenderPlan2017":                        "a 44-FZ plan-schedule of 2017 to 2019, whose positions no notice of 2020 or later names",
	"tenderPlanUnstructured":                "a 44-FZ plan-schedule published as a file only, without positions",
	"tenderPlanCancel":                      "the cancellation of a 44-FZ plan-schedule, which names the plan and none of its positions",

	// Contracts: what precedes a contract's registration, or counts contracts.
	"fcsContractSign":         "a notice that a contract was signed, without the registry number a contract is kept under; the contract comes as <contract>",
	"cpContractSign":          "a notice that an electronic contract was signed, without the registry number a contract is kept under; the contract comes as <contract>",
	"purchaseContractAccount": "a customer's monthly count and total of contracts of one kind, not a contract",

	// Notices: what a participant, not the customer, sends.
	"epNoticeApplicationCancel": "a participant's withdrawal of its application, not a change of the notice",

	// Protocols: what restates a result without a protocol.
	"fcsPlacementResult": "the EIS's summary of a procedure's result, which names participants by journal number only and has no document id; the protocols it follows carry the same result",

	// The register of unfair suppliers: the way to an entry, and the other
	// register of the same form.
	"dishonestApplication":               "a customer's application to include a supplier in the 223-FZ register, not an entry; the entry comes as <dishonestSupplier>",
	"dishonestApplicationRejectType":     "the rejection of a customer's application to the 223-FZ register, not an entry",
	"dishonestSupplierIncludeType":       "the control body's packet including an application in the 223-FZ register; the entry comes as <dishonestSupplier>",
	"dishonestSupplierExcludeType":       "the control body's packet excluding an entry of the 223-FZ register; the entry's next version, <dishonestSupplier> with excludeDate, says so",
	"dishonestSupplierReject":            "the control body's refusal to include an application in the 223-FZ register, not an entry",
	"pprf615UnfairContractor2022":        "an entry of the register of unfair contractors of capital repairs (PP RF 615), another register than the RNP",
	"pprf615UnfairContractor2022Exclude": "an exclusion from the register of unfair contractors of capital repairs (PP RF 615), another register than the RNP",
}

// whyNot says why a kind of document holds no record of ours.
func whyNot(kind string) string {
	if why, ok := notRecords[kind]; ok {
		return why
	}
	return "not a kind of document this version reads"
}
