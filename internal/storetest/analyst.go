package storetest

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The analyst's question, "open tenders for roof repair in Moscow over 5
// mln, deadline next week, 44-FZ only, biggest first", asked of
// AnalystRecords: AnalystWant answers it.
var AnalystWant = []string{anBig, anSchool, anMoved}

// Purchase numbers of AnalystRecords.
const (
	anBig       = "0373200000126100001" // matches: 12 mln
	anSchool    = "0373200000126100002" // matches: 7.5 mln
	anCheap     = "0373200000126100003" // 4 mln
	anOblast    = "0148300000126100004" // region 50
	anLaw223    = "32600100005"         // 223-FZ
	anLate      = "0373200000126100006" // deadline in three weeks
	anCancelled = "0373200000126100007" // cancelled
	anMoved     = "0373200000126100008" // matches: 6 mln, its deadline moved into next week
	anPaper     = "0373200000126100009" // not a roof
)

// msk is Moscow time, which the question's days are days of.
var msk = time.FixedZone("MSK", 3*60*60)

// AnalystDays returns the first and the last day of "next week" as of now,
// in the form the date filters take: the days 7 to 13 from today.
func AnalystDays(now time.Time) (from, to string) {
	today := now.In(msk)
	return today.AddDate(0, 0, 7).Format("2006-01-02"), today.AddDate(0, 0, 13).Format("2006-01-02")
}

// AnalystArgs returns the arguments of ru.search that ask the question as
// of now.
func AnalystArgs(now time.Time) string {
	from, to := AnalystDays(now)
	return fmt.Sprintf(`{"query": "ремонт кровли", "regions": [77], "laws": [44], "price_min": 5000000, `+
		`"deadline_from": %q, "deadline_to": %q, "open": true, "sort": "price_desc"}`, from, to)
}

// AnalystRecords returns tenders around the question as of now: three
// that answer it and one that misses each of its conditions.
func AnalystRecords(now time.Time) []tenderbase.Record {
	today := time.Date(now.In(msk).Year(), now.In(msk).Month(), now.In(msk).Day(), 10, 0, 0, 0, msk)
	tender := func(number, law string, region int, title string, price float64, deadlineDays int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: law, Version: 1, Title: title, Status: tenderbase.TenderActive,
			Customer: tenderbase.Party{INN: "7701000777", Name: "ГБУ «Жилищник района Арбат»"}, Region: region,
			MaxPrice: price, Currency: "RUB", PublishedAt: today.AddDate(0, 0, -3),
			ApplicationsDeadline: today.AddDate(0, 0, deadlineDays)}
	}
	moved := tender(anMoved, "44", 77, "Ремонт кровли жилого дома", 6_000_000, 30)
	moved.PublishedAt = today.AddDate(0, 0, -5)
	return []tenderbase.Record{
		tender(anBig, "44", 77, "Ремонт кровли здания поликлиники", 12_000_000, 9),
		tender(anSchool, "44", 77, "Капитальный ремонт кровли школы № 5", 7_500_000, 10),
		tender(anCheap, "44", 77, "Ремонт кровли гаража", 4_000_000, 9),
		tender(anOblast, "44", 50, "Ремонт кровли больницы", 9_000_000, 9),
		tender(anLaw223, "223", 77, "Ремонт кровли склада", 20_000_000, 9),
		tender(anLate, "44", 77, "Ремонт кровли котельной", 8_000_000, 21),
		tender(anCancelled, "44", 77, "Ремонт кровли библиотеки", 15_000_000, 9),
		moved,
		tender(anPaper, "44", 77, "Поставка бумаги", 10_000_000, 9),
		&tenderbase.TenderEvent{ID: "analyst-e1", PurchaseNumber: anCancelled, Law: "44", Type: tenderbase.EventCancellation,
			Document: "epNotificationCancel", PublishedAt: today.AddDate(0, 0, -1)},
		&tenderbase.TenderEvent{ID: "analyst-e2", PurchaseNumber: anMoved, Law: "44", Type: tenderbase.EventDateChange,
			Document: "epProlongationEF", PublishedAt: today.AddDate(0, 0, -1), ApplicationsDeadline: today.AddDate(0, 0, 11)},
	}
}
