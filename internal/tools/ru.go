package tools

import (
	"context"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// tendNumArgs are the arguments of ru.izm and ru.contractByNum.
type tendNumArgs struct {
	TendNum string `json:"tend_num" jsonschema:"Purchase number: 19 digits (44-FZ) or 11 (223-FZ)."`
}

func (a *tendNumArgs) check() error { return requireText("tend_num", &a.TendNum) }

// requireText trims a required string argument and rejects it when nothing
// is left.
func requireText(name string, v *string) error {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		return argErrorf("argument %q is empty", name)
	}
	return nil
}

func (s *Set) ruSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "ru.search",
		title: "Search Russian tenders",
		description: "Search Russian tenders (44-FZ, 223-FZ) by words in number, title, customers, organizer, lots and objects, and " +
			"filters. Items' state: see ru.detail. Next: ru.detail, ru.izm (amendments), ru.contractByNum (winner, " +
			"contracts)." + " " + `Example: {"query": "ремонт кровли", "regions": [77], "price_min": 5000000, "open": true}.`,
		kind:  tenderbase.KindTender,
		flags: flagKinds{regions: true, laws: true},
		filters: []string{"regions", "laws", "price_min", "price_max", "published_from", "published_to", "deadline_from", "deadline_to",
			"open", "state", "okpd2", "customer_inn", "organizer_inn", "participant_inn", "placing_method", "platform"},
		sorts: []tenderbase.Sort{tenderbase.SortDeadline, tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortRelevance},
	})
}

func (s *Set) ruDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "ru.detail",
		title: "Russian tender details",
		description: "One Russian tender, whole: customers, organizer, prices, dates, lots, objects, files, contact, participants, " +
			"winners, plans (for plans.detail)." + " " + stateHelp + " " + "dates are the deadlines after date changes; events newest first.",
		idMeans: "Purchase number: 19 digits (44-FZ) or 11 (223-FZ).",
		kind:    tenderbase.KindTender,
		missing: s.tenderMissing,
		extra:   s.tenderDetailOf,
		output:  recordWith[tenderDetail](tenderbase.KindTender, tenderbase.KindTenderEvent),
	})
}

func (s *Set) ruIzm() (*Tool, error) {
	return build(definition[tendNumArgs]{
		name:  "ru.izm",
		title: "Tender amendments",
		description: "Every version of a Russian tender's notice, oldest first, with its reason, changed fields and whole record; " +
			"timeline lists versions, events (date changes, cancellations, lot and organizer changes) and protocols by " +
			"date.",
		output: outputOf[izmResult](tenderbase.KindTender),
		run: func(ctx context.Context, args tendNumArgs) (Output, error) {
			return s.izm(ctx, args.TendNum)
		},
	})
}

func (s *Set) ruContractByNum() (*Tool, error) {
	return build(definition[tendNumArgs]{
		name:  "ru.contractByNum",
		title: "Tender winner and contracts",
		description: "Who won a Russian tender: tender (a summary, or null), winners with offers (the newest protocol of each lot), " +
			"protocols and contracts, newest first; winners, participants and suppliers are null on free. Next: " +
			"contracts.detail by reg_number.",
		output: outputWith[winnerResult](tenderbase.KindContract, map[string]tenderbase.Kind{"protocols": tenderbase.KindProtocol}),
		run: func(ctx context.Context, args tendNumArgs) (Output, error) {
			return s.contractByNum(ctx, args.TendNum)
		},
	})
}
