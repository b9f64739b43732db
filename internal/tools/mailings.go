package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// maxMatchPages bounds the search that finds a subscription's matches
// among new records: pages of the largest size over the days the new
// records were published. Only a load of years of history at once comes
// near it; the mailer logs what it cut.
const maxMatchPages = 20

// subscriptionSearch returns the store search of a subscription's search
// arguments, as the resource's search tool makes it, judging "open" at
// now; with anyState, without its conditions on the state ("open",
// "state"). The arguments are the tool's query, filters and named
// filters; paging and sort are not a subscription's.
func (s *Set) subscriptionSearch(resource string, raw json.RawMessage, now time.Time, anyState bool) (tenderbase.Search, searchTool, error) {
	if !slices.Contains(tenderbase.SubscriptionResources, resource) {
		return tenderbase.Search{}, searchTool{}, tenderbase.Errorf(tenderbase.EINVALID, "a subscription watches one of %s, not %s",
			strings.Join(tenderbase.SubscriptionResources, ", "), tenderbase.Quote(resource))
	}
	kind, err := tenderbase.ResourceKind(resource)
	if err != nil {
		return tenderbase.Search{}, searchTool{}, err
	}
	t, ok := s.searches[kind]
	if !ok {
		return tenderbase.Search{}, searchTool{}, tenderbase.Errorf(tenderbase.EINVALID, "resource %s has no search to subscribe to", tenderbase.Quote(resource))
	}
	fields, err := onlyFields(argFieldsOf[searchArgs](), append([]string{"query", "filters"}, t.filters...))
	if err != nil {
		return tenderbase.Search{}, t, err
	}
	var args searchArgs
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	if err := fields.decode(raw, &args); err != nil {
		return tenderbase.Search{}, t, tenderbase.Errorf(tenderbase.EINVALID, "search of %s: %s", t.name, strings.TrimPrefix(err.Error(), "arguments: "))
	}
	if err := args.check(); err != nil {
		return tenderbase.Search{}, t, err
	}
	if anyState {
		args.Open, args.State = false, ""
		for _, name := range []string{"open", "actual", "state"} {
			delete(args.Filters, name)
		}
	}
	srch, _, err := t.storeSearch(args.Query, "", args, args.Filters, now)
	if argErr, ok := errors.AsType[*ArgumentError](err); ok {
		return tenderbase.Search{}, t, tenderbase.Errorf(tenderbase.EINVALID, "search of %s: %s", t.name, argErr)
	}
	return srch, t, err
}

// Candidates reads, of changes of a resource's feed, the records its
// subscriptions may mail: those stored new, and the tenders that got
// their winners, with the days they were published on. It is read once
// for every subscription that reads the same changes.
func (s *Set) Candidates(ctx context.Context, resource string, changes []tenderbase.FeedEntry) (tenderbase.Candidates, error) {
	kind, err := tenderbase.ResourceKind(resource)
	if err != nil {
		return tenderbase.Candidates{}, err
	}
	c := tenderbase.Candidates{Kind: kind, Winners: map[string]tenderbase.Won{}}
	var fresh, won, worldWon []string
	for _, e := range changes {
		switch {
		case e.Type == tenderbase.FeedNew && e.Kind == kind:
			fresh = append(fresh, e.Key)
		case e.Type == tenderbase.FeedState && e.Kind == tenderbase.KindTender && e.State == tenderbase.TenderCompleted:
			won = append(won, e.Key)
		case e.Type == tenderbase.FeedState && e.Kind == tenderbase.KindWorldTender && kind == tenderbase.KindWorldTender:
			// Stored with awards that name winners: an award notice (TED,
			// eForms) or a process anew with its awards (OCDS).
			worldWon = append(worldWon, e.Key)
		}
	}
	recs, err := s.candidates(ctx, kind, append(slices.Clone(fresh), worldWon...))
	if err != nil {
		return c, err
	}
	for _, key := range fresh {
		if rec, ok := recs[key]; ok {
			c.New.Add(key, rec.Date())
		}
	}
	for _, key := range worldWon {
		w, ok := recs[key].(*tenderbase.WorldTender)
		if _, done := c.Winners[key]; done || !ok {
			continue
		}
		if winners := tenderbase.WorldWinnersOf(w); len(winners) > 0 {
			c.Won.Add(key, w.Date())
			c.Winners[key] = tenderbase.Won{Record: w, Winners: winners}
		}
	}
	if kind == tenderbase.KindWorldTender {
		return c, nil
	}
	if recs, err = s.candidates(ctx, tenderbase.KindTender, won); err != nil {
		return c, err
	}
	for _, number := range won {
		rec, ok := recs[number]
		if _, done := c.Winners[number]; done || !ok {
			continue
		}
		o, err := s.outcomeOf(ctx, number)
		if err != nil {
			return c, err
		}
		t := rec.(*tenderbase.Tender)
		c.Won.Add(number, t.Date())
		c.Winners[number] = tenderbase.Won{Record: t, Winners: winners(t, o.protocols)}
	}
	return c, nil
}

// candidates reads the current records of kind k among keys, at once
// where the store can (tenderbase.ManyGetter): a record withdrawn since it
// was stored is missing.
func (s *Set) candidates(ctx context.Context, k tenderbase.Kind, keys []string) (map[string]tenderbase.Record, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	if mg, ok := tenderbase.StoreAs[tenderbase.ManyGetter](s.store); ok {
		recs, err := mg.GetMany(ctx, k, keys)
		if err != nil {
			return nil, fmt.Errorf("read %d records of %s: %w", len(keys), k, err)
		}
		return recs, nil
	}
	recs := make(map[string]tenderbase.Record, len(keys))
	for _, key := range keys {
		rec, err := s.store.Get(ctx, k, key)
		if tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s %s: %w", k, key, err)
		}
		recs[key] = rec
	}
	return recs, nil
}

// Matches returns what a subscription mails of candidates of its
// resource's feed: the records its search finds among those stored new
// (news), and, for its winners mailing, the tenders of its search, or won
// by a watched INN, that got their winners (winners). Records are shown as
// the plan of the caller of ctx shows them: the subscription's account's.
func (s *Set) Matches(ctx context.Context, sub tenderbase.Subscription, cands tenderbase.Candidates, now time.Time) (news, winners []tenderbase.MailItem, err error) {
	srch, t, err := s.subscriptionSearch(sub.Resource, sub.Search, now, false)
	if err != nil {
		return nil, nil, err
	}
	c := callerOf(ctx)
	if srch, err = c.plan.Restrict(srch, lookupParams); err != nil {
		return nil, nil, err
	}
	recs, err := s.found(ctx, srch, cands.New)
	if err != nil {
		return nil, nil, err
	}
	if news, err = s.mailItems(ctx, t, recs, c); err != nil {
		return nil, nil, err
	}
	if (sub.Winners || len(sub.WatchINNs) > 0) && len(cands.Won.Keys) > 0 {
		if winners, err = s.winnerItems(ctx, sub, cands, now, c); err != nil {
			return nil, nil, err
		}
	}
	// A world award notice stored new is mailed once, with its winners.
	reported := map[string]bool{}
	for _, w := range winners {
		reported[w.Key] = true
	}
	news = slices.DeleteFunc(news, func(m tenderbase.MailItem) bool { return reported[m.Key] })
	return news, winners, nil
}

// found returns the records of p that srch finds, in the order of p's
// keys. It asks the store, so that a subscription matches what its search
// would, derived states and plan included: the search is narrowed to the
// days the records were published on, and its results are taken where
// they are among the keys.
func (s *Set) found(ctx context.Context, srch tenderbase.Search, p tenderbase.Published) ([]tenderbase.Record, error) {
	if len(p.Keys) == 0 {
		return nil, nil
	}
	want := make(map[string]bool, len(p.Keys))
	for _, key := range p.Keys {
		want[key] = true
	}
	srch.Ranges = append(slices.Clone(srch.Ranges), tenderbase.Range{Measure: tenderbase.MeasurePublished,
		Min: float64(p.From.Unix()), Max: float64(p.To.Unix())})
	srch.Sort = tenderbase.SortNewest
	byKey := map[string]tenderbase.Record{}
	total, _, cut, err := s.scanUpTo(ctx, srch, maxMatchPages, func(r tenderbase.Record) {
		if want[r.Key()] {
			byKey[r.Key()] = r
		}
	})
	if err != nil {
		return nil, err
	}
	if cut {
		s.logger.WarnContext(ctx, "a subscription's matches were cut at the scan's bound", "kind", srch.Kind, "total", total, "new", len(want))
	}
	var out []tenderbase.Record
	for _, key := range p.Keys {
		if r, ok := byKey[key]; ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// mailItems returns recs as a mailing lists them: their summaries, as the
// caller's plan shows them, with their facts in Russian.
func (s *Set) mailItems(ctx context.Context, t searchTool, recs []tenderbase.Record, c caller) ([]tenderbase.MailItem, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	bodies, err := restricted{}.maskAll(recs, c.plan)
	if err != nil {
		return nil, err
	}
	shown, err := shownAs(t.kind, recs, bodies, c.plan)
	if err != nil {
		return nil, err
	}
	var standings []tenderbase.TenderStanding
	if t.kind == tenderbase.KindTender {
		if standings, err = s.tenderStandings(ctx, recs); err != nil {
			return nil, err
		}
	}
	hs, err := hits(shown, standings)
	if err != nil {
		return nil, err
	}
	items := make([]tenderbase.MailItem, len(hs))
	for i, h := range hs {
		e := h.entry()
		items[i] = tenderbase.MailItem{Kind: t.kind, Key: e.opens(), Title: cmp.Or(e.title, e.id), Facts: mailFacts(h), URL: hitURL(h)}
	}
	return items, nil
}

// winnerItems returns the tenders of cands that the winners mailing of
// sub reports: those its search finds, whatever their state, and those a
// watched INN won.
func (s *Set) winnerItems(ctx context.Context, sub tenderbase.Subscription, cands tenderbase.Candidates, now time.Time, c caller) ([]tenderbase.MailItem, error) {
	if cands.Kind != tenderbase.KindWorldTender && hidesParticipants(tenderbase.KindProtocol, c.plan) {
		return nil, nil
	}
	var ours map[string]bool
	if sub.Winners {
		// The tenders of the search, whatever their state now: a state or
		// "open" condition is about the tenders it finds while they take
		// applications, and a tender with winners takes none.
		anyState, _, err := s.subscriptionSearch(sub.Resource, sub.Search, now, true)
		if err == nil {
			anyState, err = c.plan.Restrict(anyState, lookupParams)
		}
		if err != nil {
			return nil, err
		}
		recs, err := s.found(ctx, anyState, cands.Won)
		if err != nil {
			return nil, err
		}
		ours = map[string]bool{}
		for _, r := range recs {
			ours[r.Key()] = true
		}
	}
	var reported []tenderbase.Record
	var won []tenderbase.Won
	var watched [][]string
	for _, number := range cands.Won.Keys {
		w := cands.Winners[number]
		var theirs []string
		for _, p := range w.Winners {
			if slices.Contains(sub.WatchINNs, p.INN) && !slices.Contains(theirs, p.INN) {
				theirs = append(theirs, p.INN)
			}
		}
		if ours[number] || len(theirs) > 0 {
			reported, won, watched = append(reported, w.Record), append(won, w), append(watched, theirs)
		}
	}
	kind := tenderbase.KindTender
	if cands.Kind == tenderbase.KindWorldTender {
		kind = tenderbase.KindWorldTender
	}
	items, err := s.mailItems(ctx, s.searches[kind], reported, c)
	if err != nil {
		return nil, err
	}
	for i := range items {
		items[i].Winners, items[i].Watched = won[i].Winners, watched[i]
		for _, p := range won[i].Winners {
			items[i].Facts = append(items[i].Facts, "Победитель: "+winnerText(p))
		}
	}
	return items, nil
}

// winnerText names a winner and their offer: by name and INN, or, where
// a protocol names the application alone (the final protocols of
// electronic procedures), by its number.
func winnerText(w tenderbase.Participant) string {
	s := partyOf(w.Party).String()
	if w.INN == "" && w.RegNum != "" {
		s += " (" + w.RegNum + ")"
	}
	if w.Name == "" && w.INN == "" && w.RegNum == "" {
		s = "заявка № " + cmp.Or(w.JournalNumber, "?")
	}
	if w.Price > 0 {
		s += ", предложение " + strconv.FormatFloat(w.Price, 'f', -1, 64)
	}
	return s
}

// mailFacts returns the facts of a summary, labelled in Russian, as a
// mailing lists them.
func mailFacts(h hit) []string {
	ru := func(label, value string) string {
		if strings.TrimSpace(value) == "" {
			return ""
		}
		return label + ": " + value
	}
	num := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	switch h := h.(type) {
	case tenderHit:
		return facts(ru("Номер", h.ID), ru("Заказчик", h.Customer.String()), ru("Регион", num(h.Region)),
			ru("НМЦК", money(h.Price, h.Currency, h.Prices)), ru("Состояние", h.State), ru("Опубликовано", h.Published),
			ru("Приём заявок до", momentText(h.Deadline)))
	case docHit:
		return facts(ru("Закупка", h.PurchaseNumber+" "+h.Title), ru("Файл", h.FileName), ru("Заказчик", h.Customer.String()),
			ru("Регион", num(h.Region)), ru("Опубликовано", h.Published), ru("Текст", quoted(h.Text)))
	case contractHit:
		return facts(ru("Реестровый номер", h.ID), ru("Закупка", h.PurchaseNumber), ru("Заказчик", h.Customer.String()),
			ru("Регион", num(h.Region)), ru("Цена", money(h.Price, h.Currency, nil)), ru("Состояние", h.State),
			ru("Заключён", h.Signed), ru("Окончание", h.Ends))
	case worldHit:
		return facts(ru("Заказчик", h.Buyer), ru("Страна", num(h.Country)), ru("Оценка", money(h.Price, h.Currency, nil)),
			ru("Опубликовано", h.Published), ru("Срок", momentText(h.Deadline)))
	case lotHit:
		return facts(ru("Организатор", h.Organizer.String()), ru("Должник", h.Debtor.String()), ru("Регион", num(h.Region)),
			ru("Начальная цена", money(h.Price, h.Currency, nil)), ru("Состояние", h.State), ru("Опубликовано", h.Published),
			ru("Приём заявок до", momentText(h.Deadline)))
	case rnpHit:
		return facts(ru("Поставщик", h.Supplier.String()), ru("Основание", h.Reason), ru("Заказчик", h.Customer.String()),
			ru("Цена контракта", money(h.Price, h.Currency, nil)), ru("Включён", h.Included), ru("Исключается", h.ExcludeOn))
	case planHit:
		return facts(ru("Позиция", h.ID), ru("Заказчик", h.Customer.String()), ru("Регион", num(h.Region)),
			ru("Планируемая сумма", money(h.Price, h.Currency, nil)), ru("Извещение планируется", h.PublishIn),
			ru("ИКЗ", h.IKZ), ru("План", h.Plan), ru("Опубликовано", h.Published))
	}
	return nil
}

// hitURL returns the link of a summary.
func hitURL(h hit) string {
	switch h := h.(type) {
	case tenderHit:
		return h.URL
	case docHit:
		return h.URL
	case contractHit:
		return h.URL
	case worldHit:
		return h.URL
	case lotHit:
		return h.URL
	case rnpHit:
		return h.URL
	case planHit:
		return h.URL
	}
	return ""
}
