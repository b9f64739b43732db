package ocds

import (
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// awardsOf returns the awards of a compiled release, each with its
// contracts (those whose awardID is the award's id), and, apart, one award
// for each contract that names no award of the release (a contract's
// awardID that matches no award's id, as some publishers write it, is not
// guessed at).
func awardsOf(c map[string]any, ps parties) (awards, others []tenderbase.WorldAward) {
	contracts := objects(c["contracts"])
	matched := make([]bool, len(contracts))
	res := resultsOf(c)
	for _, a := range objects(c["awards"]) {
		w := tenderbase.WorldAward{
			Title: cleanText(str(a, "title")), Status: str(a, "status"),
			Winners: ps.winners(a["suppliers"]), AwardDate: date(str(a, "date")),
		}
		w.Value, w.Currency, _ = money(obj(a, "value"))
		signed, contracted := false, false
		for i, k := range contracts {
			if id := str(k, "awardID"); id != "" && id == idOf(a) {
				matched[i] = true
				contracted = contracted || str(k, "status") != "cancelled"
				signed = withContract(&w, k, ps, signed)
			}
		}
		if w.ContractEnd.IsZero() {
			w.ContractEnd = date(str(obj(a, "contractPeriod"), "endDate"))
		}
		// An award is made when active, or, with no status of its own, when
		// it names suppliers or has a contract not cancelled.
		w.Awarded = str(a, "status") == "active" || (str(a, "status") == "" && (len(w.Winners) > 0 || contracted))
		awards = append(awards, res.perLot(w, lotsOf(a))...)
	}
	if a, ok := c["awards"].(map[string]any); ok {
		if w, ok := awardNotice(a); ok {
			awards = append(awards, res.perLot(w, nil)...)
		}
	}
	for i, k := range contracts {
		if !matched[i] {
			w := tenderbase.WorldAward{Awarded: str(k, "status") != "cancelled"}
			withContract(&w, k, ps, false)
			others = append(others, res.perLot(w, lotsOf(k))...)
		}
	}
	return awards, others
}

// awardNotice reads the awards Taiwan's publisher writes as one object
// of its own shape rather than an array of OCDS awards: the award's date,
// its total value, and its winners in place under each item they won
// (items[].suppliers[]: identifier.legalName and id, address, the value
// each was awarded, the end of its contract's term: the latest is the
// award's). It is one award of the whole procedure, its value the
// total, or the sum of the winners' values where no total is given.
// Reports false for an object of no such shape.
func awardNotice(a map[string]any) (tenderbase.WorldAward, bool) {
	items := objects(a["items"])
	if len(items) == 0 {
		return tenderbase.WorldAward{}, false
	}
	w := tenderbase.WorldAward{AwardDate: date(str(a, "awardDate"))}
	seen := map[string]bool{}
	sum, sumCur, summed := 0.0, "", true
	for _, it := range items {
		for _, s := range objects(it["suppliers"]) {
			id := obj(s, "identifier")
			winner := tenderbase.WorldWinner{
				Name: cleanText(firstNonEmpty(str(id, "legalName"), str(s, "name"))), ID: str(id, "id"),
				Town: str(obj(s, "address"), "locality"),
			}
			if d := date(str(obj(s, "contractPeriod"), "endDate")); d.After(w.ContractEnd) {
				w.ContractEnd = d
			}
			if key := winner.ID + "\x00" + winner.Name; !seen[key] && (winner.Name != "" || winner.ID != "") {
				seen[key] = true
				w.Winners = append(w.Winners, winner)
			}
			// The suppliers' values make the award's only when each
			// has one, in one currency.
			v, cur, ok := money(obj(s, "awardValue"))
			if ok && (sumCur == "" || cur == sumCur) {
				sum, sumCur = sum+v, cur
			} else {
				summed = false
			}
		}
	}
	if v, cur, ok := money(obj(a, "totalAwardValue")); ok {
		w.Value, w.Currency = v, cur
	} else if summed {
		w.Value, w.Currency = sum, sumCur
	}
	w.Awarded = len(w.Winners) > 0
	return w, true
}

// withContract adds what a contract says to its award: its number (else its
// id), date of signature and end of term (the latest of its contracts'),
// and its value where given, which is then the award's (the
// contract's value is the one signed; the award's may be an estimate of a
// framework's). A second contract of one award adds its id and, in the
// same currency, its value. The award takes the contract's title, status
// and suppliers (an extension's) where it has none. It reports whether a
// contract's value was taken.
func withContract(w *tenderbase.WorldAward, k map[string]any, ps parties, signed bool) bool {
	// ProZorro writes the number the parties signed as contractNumber and
	// its portal's number as contractID beside the contract's hash id.
	if number := firstNonEmpty(str(k, "contractNumber"), str(k, "contractID"), str(k, "id")); !slices.Contains(strings.Split(w.ContractID, ", "), number) {
		w.ContractID = joinNonEmpty(", ", w.ContractID, number)
	}
	if d := date(str(k, "dateSigned")); !d.IsZero() && (w.ContractDate.IsZero() || d.Before(w.ContractDate)) {
		w.ContractDate = d
	}
	if d := date(str(obj(k, "period"), "endDate")); d.After(w.ContractEnd) {
		w.ContractEnd = d
	}
	w.Title = firstNonEmpty(w.Title, cleanText(str(k, "title")))
	w.Status = firstNonEmpty(w.Status, str(k, "status"))
	if len(w.Winners) == 0 {
		w.Winners = ps.winners(k["suppliers"])
	}
	v, cur, ok := money(obj(k, "value"))
	switch {
	case !ok:
		return signed
	case !signed:
		w.Value, w.Currency = v, cur
	case cur == w.Currency:
		w.Value += v
	}
	return true
}

// lotsOf returns the lots an award or contract is of: relatedLots, or the
// lotID some publishers (ProZorro) write.
func lotsOf(a map[string]any) []string {
	if lots := strs(a["relatedLots"]); len(lots) > 0 {
		return lots
	}
	if id := str(a, "lotID"); id != "" {
		return []string{id}
	}
	return nil
}

// results holds what a release says of the tenders received: the bid
// statistics (bids extension) by lot and measure, the number of tenderers,
// and how many lots the tender has.
type results struct {
	stats      map[[2]string]float64 // {relatedLot, measure}
	tenderers  int
	tenderLots int
}

func resultsOf(c map[string]any) results {
	tender := obj(c, "tender")
	r := results{stats: map[[2]string]float64{}, tenderLots: len(objects(tender["lots"]))}
	for _, s := range objects(obj(c, "bids")["statistics"]) {
		r.stats[[2]string{str(s, "relatedLot"), str(s, "measure")}] = number(s["value"])
	}
	r.tenderers = int(number(tender["numberOfTenderers"]))
	if r.tenderers == 0 {
		r.tenderers = len(objects(tender["tenderers"]))
	}
	return r
}

// stat returns a statistic of a lot, or the procedure's where the award is
// of the whole procedure or the procedure has one lot.
func (r results) stat(lot, measure string) float64 {
	if v, ok := r.stats[[2]string{lot, measure}]; ok || lot == "" {
		return v
	}
	if r.tenderLots <= 1 {
		return r.stats[[2]string{"", measure}]
	}
	return 0
}

// perLot returns the award for each of its lots, or for the whole
// procedure where it names none, with the tenders received for it. Where
// an award names several lots, its value, stated for them together, is on
// the first of them, so that the awards add up to what was awarded.
func (r results) perLot(w tenderbase.WorldAward, lots []string) []tenderbase.WorldAward {
	if len(lots) == 0 {
		lots = []string{""}
	}
	out := make([]tenderbase.WorldAward, 0, len(lots))
	for i, lot := range lots {
		a := w
		a.LotID = lot
		if i > 0 {
			a.Value, a.Currency = 0, ""
		}
		a.TendersReceived = int(r.stat(lot, "bids"))
		if a.TendersReceived == 0 && (lot == "" || r.tenderLots <= 1) {
			a.TendersReceived = r.tenderers
		}
		a.TendersSME = int(r.stat(lot, "smeBids"))
		a.LowestTender, a.HighestTender = r.stat(lot, "lowestValidBidValue"), r.stat(lot, "highestValidBidValue")
		out = append(out, a)
	}
	return out
}

// awardedValue returns the sum of the values of the awards made, where they
// share one currency; 0 and "" where they do not, or none has a value.
func awardedValue(awards []tenderbase.WorldAward) (float64, string) {
	sum, cur, seen := 0.0, "", false
	for _, a := range awards {
		if !a.Awarded || (a.Value == 0 && a.Currency == "") {
			continue
		}
		if seen && a.Currency != cur {
			return 0, ""
		}
		sum, cur, seen = sum+a.Value, a.Currency, true
	}
	return sum, cur
}
