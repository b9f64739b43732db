package storetest

import (
	"fmt"
	"math"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The supplier's question, "contracts of customer 7701000888 in OKPD2
// class 43 ending in the next 3 months, soonest first" (what it will buy
// again), asked of RenewalRecords: RenewalWant answers it.
var RenewalWant = []string{rnToday, rnSoon, rnLater}

// Registry numbers of RenewalRecords.
const (
	rnLater   = "2770100088826000001" // matches: ends in 61 days
	rnSoon    = "2770100088826000002" // matches: ends in 10 days
	rnToday   = "2770100088826000003" // matches: ends today
	rnFar     = "2770100088826000004" // ends in 5 months
	rnPast    = "2770100088826000005" // ended a month ago
	rnOther   = "2770100088826000006" // another customer's
	rnPaper   = "2770100088826000007" // OKPD2 class 17
	rnNoEnd   = "2770100088826000008" // its entry gives no end
	rnInCode  = "2770100088826000009" // class 43 in the text alone: no object coded 43
	renewalCo = "7701000888"
)

// RenewalArgs returns the arguments of contracts.search that ask the
// question as of now: from today to the same day 3 months on, in Moscow.
func RenewalArgs(now time.Time) string {
	today := now.In(msk)
	return fmt.Sprintf(`{"customer_inn": %q, "okpd2": "43", "ends_from": %q, "ends_to": %q, "sort": "ends"}`,
		renewalCo, today.Format(time.DateOnly), today.AddDate(0, 3, 0).Format(time.DateOnly))
}

// RenewalRecords returns contracts around the question as of now: three
// that answer it and one that misses each of its conditions.
func RenewalRecords(now time.Time) []tenderbase.Record {
	today := time.Date(now.In(msk).Year(), now.In(msk).Month(), now.In(msk).Day(), 0, 0, 0, 0, msk)
	const noEnd = math.MinInt
	contract := func(number, inn, okpd2, subject string, signed, endsInDays int) *tenderbase.Contract {
		c := &tenderbase.Contract{RegNumber: number, Law: "44", Version: 1, Subject: subject, Region: 77,
			Customer: tenderbase.Party{INN: inn, Name: "ГБУ «Жилищник района Хамовники»"},
			Price:    1_500_000, Currency: "RUB", SignedAt: today.AddDate(0, 0, signed),
			Objects: []tenderbase.PurchaseObject{{OKPD2Code: okpd2, Name: subject}}}
		if endsInDays != noEnd {
			c.EndsAt = today.AddDate(0, 0, endsInDays)
		}
		return c
	}
	return []tenderbase.Record{
		contract(rnLater, renewalCo, "43.91.19.110", "Ремонт кровли", -300, 61),
		contract(rnSoon, renewalCo, "43.29.19.000", "Ремонт ограждения", -200, 10),
		contract(rnToday, renewalCo, "43.99.90.190", "Ремонт фасада", -100, 0),
		contract(rnFar, renewalCo, "43.91.19.110", "Ремонт кровли гаража", -90, 150),
		contract(rnPast, renewalCo, "43.91.19.110", "Ремонт кровли склада", -400, -30),
		contract(rnOther, "7701000999", "43.91.19.110", "Ремонт кровли школы", -80, 20),
		contract(rnPaper, renewalCo, "17.12.14.110", "Поставка бумаги", -70, 20),
		contract(rnNoEnd, renewalCo, "43.91.19.110", "Ремонт кровли котельной", -60, noEnd),
		contract(rnInCode, renewalCo, "81.29.12.000", "Уборка территории, код 43", -50, 20),
	}
}
