package tools

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// hit is the summary of one record of a search page: what a model needs to
// choose which records to open, never the record whole. Each kind of record
// has its own (tenderHit, docHit...), made by Set.hits.
type hit interface {
	// entry returns the summary as the text of the page shows it.
	entry() entry
}

// entry is a summary as a model reads it: the id and the title on one line,
// the other fields, in the order of the summary, on the next.
type entry struct {
	id, title string
	// about are the fields of what the record belongs to (a document's
	// tender), which come before its own facts: the files of one tender
	// come one after another, and the text says them once.
	about []string
	facts []string
	// key is what a detail tool takes to show the record, when not its id:
	// a document's tender.
	key string
}

// opens returns the key that a detail tool shows the record by.
func (e entry) opens() string { return cmp.Or(e.key, e.id) }

// Lengths of the texts of a summary, in characters. They keep a page of 20
// summaries within about 8,000 characters with the longest titles of the
// demo data and Russian zakupki links (about 100 characters each); the
// detail tools give every text whole. A document's texts are shorter: it
// has a link of its own beside its tender's, and the start of its text.
const (
	titleRunes    = 90
	nameRunes     = 50 // of an organization without a short name
	docTitleRunes = 60 // of a document's tender
	docAboutRunes = 60 // a document's description
	docTextRunes  = 100
)

// party is an organization or a person as a summary names it.
type party struct {
	Name string `json:"name,omitempty" jsonschema:"The short name where the record gives one, else the name, cut with … when long."`
	INN  string `json:"inn,omitempty" jsonschema:"The INN: 10 digits for an organization, 12 for a person."`
}

// partyOf returns p as a summary names it: its short name, or its name
// with its legal form or other common beginning abbreviated, cut.
func partyOf(p tenderbase.Party) party {
	return party{Name: cmp.Or(oneLine(p.ShortName), cut(abbreviated(p.Name), nameRunes)), INN: p.INN}
}

// abbreviations are the beginnings of names of organizations that are
// long and common, with their abbreviations: legal forms, and the bodies
// of Rosimushchestvo that organize most auctions of state property. A name
// cut to its first words would often be one of them alone and name no one.
var abbreviations = []struct{ long, short string }{
	{"Общество с ограниченной ответственностью", "ООО"},
	{"Публичное акционерное общество", "ПАО"},
	{"Непубличное акционерное общество", "НАО"},
	{"Закрытое акционерное общество", "ЗАО"},
	{"Открытое акционерное общество", "ОАО"},
	{"Акционерное общество", "АО"},
	{"Индивидуальный предприниматель", "ИП"},
	{"Федеральное государственное унитарное предприятие", "ФГУП"},
	{"Государственное унитарное предприятие", "ГУП"},
	{"Муниципальное унитарное предприятие", "МУП"},
	{"Межрегиональное территориальное управление Федерального агентства по управлению государственным имуществом", "МТУ Росимущества"},
	{"Территориальное управление Федерального агентства по управлению государственным имуществом", "ТУ Росимущества"},
}

// abbreviated returns name with its beginning abbreviated when it is one
// of abbreviations, in whatever case it is written.
func abbreviated(name string) string {
	name = oneLine(name)
	for _, a := range abbreviations {
		if len(name) > len(a.long) && strings.EqualFold(name[:len(a.long)], a.long) && name[len(a.long)] == ' ' {
			return a.short + name[len(a.long):]
		}
	}
	return name
}

// String writes p for the text: name (INN 1234567890).
func (p party) String() string {
	switch {
	case p.INN == "":
		return p.Name
	case p.Name == "":
		return "INN " + p.INN
	}
	return p.Name + " (INN " + p.INN + ")"
}

// tenderHit is the summary of a tender.
type tenderHit struct {
	ID       string  `json:"id" jsonschema:"The purchase number: the id for ru.detail, the tend_num for ru.izm and ru.contractByNum."`
	Title    string  `json:"title" jsonschema:"The title, cut at a word with … when long; ru.detail gives it whole."`
	Customer party   `json:"customer,omitzero" jsonschema:"The customer; the first of a joint purchase."`
	Region   int     `json:"region,omitempty" jsonschema:"The region code (1-99)."`
	Price    float64 `json:"price,omitempty" jsonschema:"The maximum price."`
	Currency string  `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price: RUB unless the notice says another."`
	// Prices stand for Price of a tender whose lots are in more than one
	// currency, which no one sum tells.
	Prices    []tenderbase.Money `json:"prices,omitempty" jsonschema:"The maximum price in each currency, of a tender whose lots are in more than one; price is then absent."`
	State     string             `json:"state"`
	Published string             `json:"published,omitempty" jsonschema:"The day the current version of the notice was published: YYYY-MM-DD."`
	Deadline  time.Time          `json:"deadline,omitzero" jsonschema:"The deadline for applications now, once date changes and prolongations are applied, as ru.detail's dates say."`
	// Plans are the positions of purchase plans the notice was published
	// from, each as plans.detail takes it.
	Plans []string `json:"plans,omitempty" jsonschema:"The plan positions it was published from: ids for plans.detail."`
	URL   string   `json:"url,omitempty" jsonschema:"The notice on zakupki.gov.ru."`
}

func (h tenderHit) entry() entry {
	return entry{id: h.ID, title: h.Title, facts: facts(
		labelled("customer", h.Customer.String()), region(h.Region), money(h.Price, h.Currency, h.Prices), h.State,
		labelled("published", h.Published), labelled("deadline", momentText(h.Deadline)),
		labelled("plan position", strings.Join(h.Plans, ", ")), h.URL,
	)}
}

// planPositions returns the positions of plans t was published from, each
// by its number, or by its IKZ where the notice names no number.
func planPositions(t *tenderbase.Tender) []string {
	var out []string
	for _, p := range t.Plans {
		if id := cmp.Or(p.PositionNumber, p.IKZ); id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// tenderHitOf returns the summary of t in state, its applications deadline
// being deadline.
func tenderHitOf(t *tenderbase.Tender, state string, deadline time.Time) tenderHit {
	h := tenderHit{
		ID: t.PurchaseNumber, Title: cut(t.Title, titleRunes), Customer: partyOf(t.Customer), Region: t.Region,
		State: state, Published: dateText(t.PublishedAt), Deadline: deadline, Plans: planPositions(t), URL: t.URL,
	}
	switch {
	case len(t.MaxPrices) > 0:
		h.Prices = t.MaxPrices
	case t.MaxPrice > 0:
		h.Price, h.Currency = t.MaxPrice, cmp.Or(t.Currency, "RUB")
	}
	return h
}

// docHit is the summary of a document.
type docHit struct {
	ID             string `json:"id" jsonschema:"The document's id. No tool shows one document: ru.detail of purchase_number shows its tender and every file of it."`
	PurchaseNumber string `json:"purchase_number" jsonschema:"The purchase number of its tender: the id for ru.detail."`
	Title          string `json:"title,omitempty" jsonschema:"The title of its tender, cut at a word with … when long."`
	FileName       string `json:"file_name" jsonschema:"The file's name."`
	Description    string `json:"description,omitempty" jsonschema:"What the file is, as the notice says, cut with … when long."`
	Customer       party  `json:"customer,omitzero" jsonschema:"The customer of its tender."`
	Region         int    `json:"region,omitempty" jsonschema:"The region code (1-99)."`
	Published      string `json:"published,omitempty" jsonschema:"The day the notice naming the file was published: YYYY-MM-DD."`
	URL            string `json:"url,omitempty" jsonschema:"Where to download the file. Paid plans only: left out for free."`
	Text           string `json:"text,omitempty" jsonschema:"The start of the text read from the file, where the query's words were found or near them, cut with …. Paid plans only: left out for free."`
}

// entry leads with the file, which tells documents apart; no tool takes
// a document's id, which the summary keeps.
func (h docHit) entry() entry {
	return entry{id: h.FileName, title: h.Description, key: h.PurchaseNumber,
		about: facts(labelled("tender", h.PurchaseNumber+" "+h.Title), labelled("customer", h.Customer.String()),
			region(h.Region), labelled("published", h.Published)),
		facts: facts(h.URL, labelled("text", quoted(h.Text))),
	}
}

func docHitOf(d *tenderbase.Doc) docHit {
	return docHit{
		ID: d.ID, PurchaseNumber: d.PurchaseNumber, Title: cut(d.TenderTitle, docTitleRunes),
		FileName: oneLine(d.FileName), Description: cut(d.Description, docAboutRunes),
		Customer: partyOf(d.Customer), Region: d.Region, Published: dateText(d.PublishedAt),
		URL: d.URL, Text: cut(d.Text, docTextRunes),
	}
}

// contractHit is the summary of a contract.
type contractHit struct {
	ID             string  `json:"id" jsonschema:"The registry number: the id for contracts.detail."`
	PurchaseNumber string  `json:"purchase_number,omitempty" jsonschema:"The tender it came from: the id for ru.detail."`
	Title          string  `json:"title" jsonschema:"The subject, cut at a word with … when long; contracts.detail gives it whole."`
	Customer       party   `json:"customer,omitzero" jsonschema:"The customer."`
	Region         int     `json:"region,omitempty" jsonschema:"The region code (1-99)."`
	Price          float64 `json:"price,omitempty" jsonschema:"The contract's price."`
	Currency       string  `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price."`
	State          string  `json:"state,omitempty" jsonschema:"Where the contract stands, as the registry says: execution, completed, terminated or annulled. contracts.detail applies the reports of its performance too."`
	Signed         string  `json:"signed,omitempty" jsonschema:"The day it was signed: YYYY-MM-DD."`
	Ends           string  `json:"ends,omitempty" jsonschema:"The day its performance ends: YYYY-MM-DD."`
	URL            string  `json:"url,omitempty" jsonschema:"The contract on zakupki.gov.ru."`
}

func (h contractHit) entry() entry {
	return entry{id: h.ID, title: h.Title, facts: facts(
		labelled("customer", h.Customer.String()), region(h.Region), money(h.Price, h.Currency, nil), h.State,
		labelled("signed", h.Signed), labelled("ends", h.Ends), labelled("tender", h.PurchaseNumber), h.URL,
	)}
}

func contractHitOf(c *tenderbase.Contract) contractHit {
	return contractHit{
		ID: c.RegNumber, PurchaseNumber: c.PurchaseNumber, Title: cut(c.Subject, titleRunes),
		Customer: partyOf(c.Customer), Region: c.Region, Price: c.Price, Currency: c.Currency,
		State: c.Status, Signed: dateText(c.SignedAt), Ends: dateText(c.EndsAt), URL: c.URL,
	}
}

// worldHit is the summary of a world tender.
type worldHit struct {
	ID        string    `json:"id" jsonschema:"The notice's id, qualified by its source: the id for world.detail."`
	Title     string    `json:"title" jsonschema:"The title in the notice's language, cut at a word with … when long; world.detail gives it whole."`
	Buyer     string    `json:"buyer,omitempty" jsonschema:"The buyer's name."`
	Country   int       `json:"country,omitempty" jsonschema:"The ISO 3166 numeric country code."`
	Price     float64   `json:"price,omitempty" jsonschema:"The estimated value."`
	Currency  string    `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price."`
	Published string    `json:"published,omitempty" jsonschema:"The day the notice was published: YYYY-MM-DD."`
	Deadline  time.Time `json:"deadline,omitzero" jsonschema:"The deadline for tenders or requests to participate."`
	// The award, where the notice publishes one.
	Winners         []string `json:"winners,omitempty" jsonschema:"Up to 3, with ids."`
	WinnersMore     int      `json:"winners_more,omitempty"`
	Awarded         float64  `json:"awarded,omitempty" jsonschema:"Total awarded."`
	AwardedCurrency string   `json:"awarded_currency,omitempty"`
	FewestTenders   int      `json:"fewest_tenders,omitempty" jsonschema:"1: a single bid."`
	URL             string   `json:"url,omitempty" jsonschema:"The notice at its publisher."`
}

func (h worldHit) entry() entry {
	winners := strings.Join(h.Winners, ", ")
	if h.WinnersMore > 0 {
		winners += fmt.Sprintf(" and %d more", h.WinnersMore)
	}
	tenders := ""
	if h.FewestTenders > 0 {
		tenders = fmt.Sprintf("fewest tenders %d", h.FewestTenders)
	}
	return entry{id: h.ID, title: h.Title, facts: facts(
		labelled("buyer", h.Buyer), country(h.Country), labelled("estimated", money(h.Price, h.Currency, nil)),
		labelled("published", h.Published), labelled("deadline", momentText(h.Deadline)),
		labelled("won by", winners), labelled("awarded", money(h.Awarded, h.AwardedCurrency, nil)), tenders, h.URL,
	)}
}

// maxHitWinners bounds the winners a summary names.
const maxHitWinners = 3

func worldHitOf(w *tenderbase.WorldTender) worldHit {
	h := worldHit{
		ID: w.ID, Title: cut(w.Title, titleRunes), Buyer: cut(w.Buyer.Name, nameRunes), Country: w.Country,
		Price: w.Value, Currency: w.Currency, Published: dateText(w.PublishedAt), Deadline: w.Deadline, URL: w.URL,
		Awarded: w.AwardedValue, AwardedCurrency: w.AwardedCurrency,
	}
	seen := map[string]bool{}
	for _, a := range w.Awards {
		if a.Awarded && a.TendersReceived > 0 && (h.FewestTenders == 0 || a.TendersReceived < h.FewestTenders) {
			h.FewestTenders = a.TendersReceived
		}
		for _, win := range a.Winners {
			name := cut(win.Name, nameRunes)
			if win.ID != "" {
				name += " (" + win.ID + ")"
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			if len(h.Winners) < maxHitWinners {
				h.Winners = append(h.Winners, name)
			} else {
				h.WinnersMore++
			}
		}
	}
	return h
}

// lotHit is the summary of an auction lot.
type lotHit struct {
	ID        string    `json:"id" jsonschema:"The lot's id: the id for torgi.detail."`
	Title     string    `json:"title" jsonschema:"What is sold, cut at a word with … when long; torgi.detail gives it whole."`
	Organizer party     `json:"organizer,omitzero" jsonschema:"Who runs the auction: the organizer, else the right holder of the property, else the arbitration manager who announced it."`
	Debtor    party     `json:"debtor,omitzero" jsonschema:"The bankrupt whose property it is, in a bankruptcy trade."`
	Region    int       `json:"region,omitempty" jsonschema:"The region code (1-99)."`
	Price     float64   `json:"price,omitempty" jsonschema:"The start price."`
	Currency  string    `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price."`
	State     string    `json:"state,omitempty" jsonschema:"Where the lot stands: active, suspended (active, its procedure stopped), completed, failed or cancelled."`
	Published string    `json:"published,omitempty" jsonschema:"The day the lot was published: YYYY-MM-DD."`
	Deadline  time.Time `json:"deadline,omitzero" jsonschema:"When applications close."`
	URL       string    `json:"url,omitempty" jsonschema:"The lot at its publisher."`
}

func (h lotHit) entry() entry {
	return entry{id: h.ID, title: h.Title, facts: facts(
		labelled("organizer", h.Organizer.String()), labelled("debtor", h.Debtor.String()), region(h.Region),
		labelled("start price", money(h.Price, h.Currency, nil)), h.State,
		labelled("published", h.Published), labelled("deadline", momentText(h.Deadline)), h.URL,
	)}
}

func lotHitOf(l *tenderbase.Lot) lotHit {
	return lotHit{
		ID: l.ID, Title: cut(l.Title, titleRunes), Organizer: partyOf(cmp.Or(l.Organizer, l.Holder, l.Manager)), Debtor: partyOf(l.Debtor),
		Region: l.Region, Price: l.StartPrice, Currency: l.Currency, State: lotState(l),
		Published: dateText(l.PublishedAt), Deadline: l.BiddingEnd, URL: l.URL,
	}
}

// lotState is where a lot stands: its status, or suspended while an active
// lot's procedure is stopped.
func lotState(l *tenderbase.Lot) string {
	if l.Suspended && l.Status == tenderbase.TenderActive {
		return "suspended"
	}
	return l.Status
}

// rnpHit is the summary of an entry of the register of unfair suppliers.
type rnpHit struct {
	ID        string  `json:"id" jsonschema:"The entry's registry number: the id for rnp.detail."`
	Supplier  party   `json:"supplier,omitzero" jsonschema:"The supplier the entry bars."`
	Title     string  `json:"title,omitempty" jsonschema:"What the supplier was to supply: the purchase's object or the contract's subject, cut at a word with … when long."`
	Reason    string  `json:"reason,omitempty" jsonschema:"Why it was included, the publisher's code: WINNER_DEVIATION, ONE_WINNER_DEVIATION, PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION, CANCEL_CONTRACT."`
	Customer  party   `json:"customer,omitzero" jsonschema:"The customer who asked to include it."`
	Price     float64 `json:"price,omitempty" jsonschema:"The contract's price."`
	Currency  string  `json:"currency,omitempty" jsonschema:"The ISO 4217 code of price."`
	State     string  `json:"state,omitempty" jsonschema:"included (in the register), excluded (taken out) or refused (the control body refused to include it)."`
	Included  string  `json:"included,omitempty" jsonschema:"The day of inclusion: YYYY-MM-DD."`
	ExcludeOn string  `json:"exclude_on,omitempty" jsonschema:"The day the entry leaves the register by itself: YYYY-MM-DD."`
	URL       string  `json:"url,omitempty" jsonschema:"The entry on zakupki.gov.ru."`
}

func (h rnpHit) entry() entry {
	return entry{id: h.ID, title: h.Supplier.String(), facts: facts(
		labelled("for", h.Title), labelled("reason", h.Reason), labelled("customer", h.Customer.String()), money(h.Price, h.Currency, nil),
		h.state(), labelled("leaves the register", h.ExcludeOn), h.URL,
	)}
}

// state writes the entry's state with the day of inclusion: included
// 2023-10-13, or excluded; included 2023-10-13.
func (h rnpHit) state() string {
	included := labelled("included", h.Included)
	switch {
	case h.State == tenderbase.UnfairIncluded && included != "":
		return included
	case h.State == "":
		return included
	}
	return strings.Join(facts(h.State, included), "; ")
}

func rnpHitOf(u *tenderbase.UnfairSupplier) rnpHit {
	h := rnpHit{
		ID: u.RegistryNumber, Supplier: partyOf(tenderbase.Party{Name: u.Supplier.Name, ShortName: u.Supplier.ShortName, INN: u.Supplier.INN}),
		Reason: u.Reason, Customer: partyOf(u.Customer), State: u.State, Included: dateText(u.IncludedAt), ExcludeOn: u.ExcludeOn, URL: u.URL,
	}
	if p := u.Purchase; p != nil {
		h.Title = cut(p.Object, titleRunes)
	}
	if c := u.Contract; c != nil {
		h.Title = cmp.Or(h.Title, cut(c.Subject, titleRunes))
		h.Price, h.Currency = c.Price, c.Currency
	}
	return h
}

// hits returns the summaries of recs, records as the caller's plan shows
// them. standings are the derived states and deadlines of tenders, one a
// record, as ru.detail gives them.
func hits(recs []tenderbase.Record, standings []tenderbase.TenderStanding) ([]hit, error) {
	out := make([]hit, len(recs))
	for i, rec := range recs {
		switch r := rec.(type) {
		case *tenderbase.Tender:
			// A store keeps the deadline as an instant; it is shown in the
			// zone the notice dates its own in.
			deadline := standings[i].Deadline
			if !deadline.IsZero() && !r.ApplicationsDeadline.IsZero() {
				deadline = deadline.In(r.ApplicationsDeadline.Location())
			}
			out[i] = tenderHitOf(r, standings[i].State, deadline)
		case *tenderbase.Doc:
			out[i] = docHitOf(r)
		case *tenderbase.Contract:
			out[i] = contractHitOf(r)
		case *tenderbase.WorldTender:
			out[i] = worldHitOf(r)
		case *tenderbase.Lot:
			out[i] = lotHitOf(r)
		case *tenderbase.UnfairSupplier:
			out[i] = rnpHitOf(r)
		case *tenderbase.PlannedPurchase:
			out[i] = planHitOf(r)
		default:
			return nil, fmt.Errorf("no summary of %s records", rec.Kind())
		}
	}
	return out, nil
}

// cut returns s on one line, cut when it is longer than limit characters:
// after the last whole word that leaves at least half of them, with "…" in
// place of what follows, so that no word is cut in two unless it is very
// long.
func cut(s string, limit int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	runes := []rune(s)
	head := string(runes[:limit-1])
	if i := strings.LastIndexByte(head, ' '); runes[limit-1] != ' ' && i >= len(head)/2 {
		head = head[:i]
	}
	return strings.TrimRightFunc(head, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' && r != '»' && r != '"'
	}) + "…"
}

// oneLine returns s with every run of white space, line breaks included,
// made one space: an entry's fields stay on its lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// dateText returns the date of t as YYYY-MM-DD in its own zone, "" for none.
func dateText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// momentText returns t to the minute with its offset for the text, "" for none.
func momentText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02 15:04 -07:00")
}

// money writes a price for the text: 15246330.54 RUB, or the prices in
// each currency joined by +.
func money(amount float64, currency string, each []tenderbase.Money) string {
	if len(each) > 0 {
		parts := make([]string, len(each))
		for i, m := range each {
			parts[i] = money(m.Amount, m.Currency, nil)
		}
		return strings.Join(parts, " + ")
	}
	if amount == 0 {
		return ""
	}
	return strings.TrimSpace(strconv.FormatFloat(amount, 'f', -1, 64) + " " + currency)
}

func region(code int) string {
	if code == 0 {
		return ""
	}
	return "region " + strconv.Itoa(code)
}

func country(code int) string {
	if code == 0 {
		return ""
	}
	return "country " + strconv.Itoa(code)
}

// labelled returns "label value", or "" when there is no value.
func labelled(label, value string) string {
	if strings.TrimSpace(value) == "" {
		return ""
	}
	return label + " " + value
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return "«" + s + "»"
}

// facts returns the fields that have a value.
func facts(fields ...string) []string {
	out := fields[:0]
	for _, f := range fields {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}
