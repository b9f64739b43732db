package tools

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) plansSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "plans.search",
		title: "Search purchase plans",
		description: "Positions of purchase plans (44-FZ plan-schedules, 223-FZ plans), purchases announced before their notice, " +
			"by words in object, OKPD2, customer and numbers. Next: plans.detail by id." +
			" " + `Example: {"query": "бумага", "publish_in": "2026"}.`,
		kind:  tenderbase.KindPlannedPurchase,
		flags: flagKinds{regions: true, laws: true},
		filters: []string{"regions", "laws", "price_min", "price_max", "published_from", "published_to", "state", "okpd2",
			"customer_inn", "ikz", "plan_number", "publish_in"},
		sorts:  []tenderbase.Sort{tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortRelevance},
		params: map[string]string{"state": "As the plan says.", "price_min": "Roubles planned."},
		rules:  map[string]func(*jsonschema.Schema){"state": func(p *jsonschema.Schema) { p.Enum = anyOf(tenderbase.PlannedStates) }},
	})
}

func (s *Set) plansDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "plans.detail",
		title: "Purchase plan position",
		description: "One position of a purchase plan, current version: object, objects, amounts by year, customer, " +
			"owner, publish_year and publish_month of the notice; notices: the tenders published from it (ru.detail by id).",
		idMeans: "Position number (202501622000091001000008, 223-FZ: 2180316803-12) or IKZ.",
		kind:    tenderbase.KindPlannedPurchase,
		find:    s.planByIKZ,
		missing: func(_ context.Context, id string) error {
			return notFound("no position of a purchase plan numbered %s; find positions with plans.search", tenderbase.Quote(id))
		},
		extra:  s.planDetailOf,
		output: recordWith[planDetail](tenderbase.KindPlannedPurchase, tenderbase.KindTender),
	})
}

// planByIKZ returns the newest position whose IKZ is id, or nil when id
// is no IKZ or none has it.
func (s *Set) planByIKZ(ctx context.Context, id string) (tenderbase.Record, error) {
	if !ikzValue.MatchString(id) {
		return nil, nil
	}
	page, err := s.store.Search(ctx, lookup(tenderbase.KindPlannedPurchase, tenderbase.LookupIKZ, id, 1))
	if err != nil || len(page.Items) == 0 {
		return nil, err
	}
	return page.Items[0], nil
}

// maxPlanNotices bounds the notices plans.detail lists: a position is
// published as one notice, or a few where one failed and was placed again.
const maxPlanNotices = 20

// planDetail is what plans.detail adds to a position.
type planDetail struct {
	Notices      []planNotice `json:"notices" jsonschema:"The tenders published from the position, by its number or its IKZ, newest first."`
	NoticesTotal int          `json:"notices_total" jsonschema:"How many there are; notices lists the newest 20. Past 20, a least figure: the notices that name the position and those that name its IKZ, each counted exactly, may overlap."`
}

// planNotice is a tender published from a position of a plan.
type planNotice struct {
	PurchaseNumber string `json:"purchase_number" jsonschema:"The id for ru.detail."`
	Title          string `json:"title,omitempty" jsonschema:"The title, cut at a word with … when long."`
	State          string `json:"state" jsonschema:"Where the tender stands, as ru.detail derives it."`
	Published      string `json:"published,omitempty" jsonschema:"The day the notice was published: YYYY-MM-DD."`
	Lot            int    `json:"lot,omitempty" jsonschema:"The lot published from the position, where the notice has several."`
	URL            string `json:"url,omitempty" jsonschema:"The notice on zakupki.gov.ru."`
}

// planDetailOf returns the notices published from the position rec: the
// tenders that name its number, and those that name its IKZ.
func (s *Set) planDetailOf(ctx context.Context, rec tenderbase.Record, _ restricted) (any, error) {
	p, ok := rec.(*tenderbase.PlannedPurchase)
	if !ok {
		return nil, fmt.Errorf("planned purchase %s is a %T", rec.Key(), rec)
	}
	tenders := map[string]*tenderbase.Tender{}
	most := 0 // the largest total of one lookup: the union holds at least as many
	for _, by := range []tenderbase.Lookup{{Field: tenderbase.LookupPlanPosition, Value: p.PositionNumber}, {Field: tenderbase.LookupIKZ, Value: p.IKZ}} {
		if by.Value == "" {
			continue
		}
		page, err := s.store.Search(ctx, lookup(tenderbase.KindTender, by.Field, by.Value, maxPlanNotices))
		if err != nil {
			return nil, fmt.Errorf("notices of plan position %s: %w", p.PositionNumber, err)
		}
		most = max(most, page.Total)
		for _, r := range page.Items {
			if t, ok := r.(*tenderbase.Tender); ok {
				tenders[t.PurchaseNumber] = t
			}
		}
	}
	recs := make([]tenderbase.Record, 0, len(tenders))
	for _, t := range tenders {
		recs = append(recs, t)
	}
	slices.SortFunc(recs, func(a, b tenderbase.Record) int {
		return cmp.Or(b.Date().Compare(a.Date()), cmp.Compare(b.Key(), a.Key()))
	})
	d := planDetail{Notices: []planNotice{}, NoticesTotal: max(len(recs), most)}
	recs = recs[:min(len(recs), maxPlanNotices)]
	standings, err := s.tenderStandings(ctx, recs)
	if err != nil {
		return nil, err
	}
	for i, r := range recs {
		t := r.(*tenderbase.Tender)
		d.Notices = append(d.Notices, planNotice{
			PurchaseNumber: t.PurchaseNumber, Title: cut(t.Title, titleRunes), State: standings[i].State,
			Published: dateText(t.PublishedAt), Lot: lotOfPosition(t, p), URL: t.URL,
		})
	}
	return d, nil
}

// lotOfPosition returns the lot of t published from the position p, 0 when
// the notice does not say.
func lotOfPosition(t *tenderbase.Tender, p *tenderbase.PlannedPurchase) int {
	for _, l := range t.Plans {
		if l.PositionNumber == p.PositionNumber || l.IKZ != "" && l.IKZ == p.IKZ {
			return l.Lot
		}
	}
	return 0
}

// planHit is the summary of a position of a purchase plan.
type planHit struct {
	ID       string  `json:"id" jsonschema:"The position number: the id for plans.detail."`
	Title    string  `json:"title" jsonschema:"The object of the purchase, cut at a word with … when long; plans.detail gives it whole."`
	Customer party   `json:"customer,omitzero" jsonschema:"The customer."`
	Region   int     `json:"region,omitempty" jsonschema:"The region code (1-99)."`
	Price    float64 `json:"price,omitempty" jsonschema:"The money planned in all."`
	Currency string  `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price."`
	State    string  `json:"state,omitempty" jsonschema:"planned, changed (by a later version of the plan) or cancelled (taken out of it)."`
	// PublishIn is when the notice is planned: a year, or a month of it.
	PublishIn string `json:"publish_in,omitempty" jsonschema:"When the notice is planned to be published: YYYY or YYYY-MM."`
	Noticed   bool   `json:"notice_published,omitempty" jsonschema:"The plan marks the notice as published: plans.detail names it."`
	IKZ       string `json:"ikz,omitempty" jsonschema:"The purchase's identification code (44-FZ)."`
	Plan      string `json:"plan" jsonschema:"The plan's registry number and version: 202501622000091001 v5."`
	Published string `json:"published,omitempty" jsonschema:"The day this version of the plan was published: YYYY-MM-DD."`
	URL       string `json:"url,omitempty" jsonschema:"The plan on zakupki.gov.ru."`
}

func (h planHit) entry() entry {
	noticed := ""
	if h.Noticed {
		noticed = "notice published"
	}
	return entry{id: h.ID, title: h.Title, facts: facts(
		labelled("customer", h.Customer.String()), region(h.Region), money(h.Price, h.Currency, nil), h.State,
		labelled("notice planned", h.PublishIn), noticed, labelled("ikz", h.IKZ), labelled("plan", h.Plan),
		labelled("published", h.Published), h.URL,
	)}
}

func planHitOf(p *tenderbase.PlannedPurchase) planHit {
	h := planHit{
		ID: p.PositionNumber, Title: cut(p.Object, titleRunes), Customer: partyOf(p.Customer), Region: p.Region,
		State: p.Status, PublishIn: p.PublishPlanned(), Noticed: p.NoticePublished, IKZ: p.IKZ,
		Plan: strings.TrimSpace(p.PlanNumber + " v" + strconv.Itoa(p.PlanVersion)), Published: dateText(p.PublishedAt), URL: p.URL,
	}
	if p.MaxPrice > 0 {
		h.Price, h.Currency = p.MaxPrice, cmp.Or(p.Currency, "RUB")
	}
	return h
}
