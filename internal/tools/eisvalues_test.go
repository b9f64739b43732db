package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// TestPublishedValuesThroughTheStores imports the notices of
// internal/source/eis/testdata/notice-values into each store and reads back, as
// ru.detail and docs.search show them, the values as published: the exact
// sum of lots in kopecks, one price per currency, objects classified by
// OKPD and a drug by its MNN, runs of spaces in a title, an object and a
// file name, and the region of Baikonur.
func TestPublishedValuesThroughTheStores(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) { checkPublishedValues(t, store) })
	}
}

// publishedValues is what the test reads of a tender from ru.detail.
type publishedValues struct {
	Title     string             `json:"title"`
	Region    int                `json:"region"`
	MaxPrice  float64            `json:"max_price"`
	Currency  string             `json:"currency"`
	MaxPrices []tenderbase.Money `json:"max_prices"`
	Lots      []struct {
		Objects []tenderbase.PurchaseObject `json:"objects"`
	} `json:"lots"`
	Attachments []tenderbase.Attachment `json:"attachments"`
}

func checkPublishedValues(t *testing.T, store tenderbase.Store) {
	dir := filepath.Join("..", "source", "eis", "testdata", "notice-values")
	sum, err := importer.Import(context.Background(), store, []string{dir}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 || sum.Records == 0 {
		t.Fatalf("import of %s: %+v, %v", dir, sum, err)
	}
	set := New(store, nil)
	detail := func(number string) publishedValues {
		t.Helper()
		v, _ := decodeCall[publishedValues](t, set, tenderbase.PlanStandard, "ru.detail", `{"id": "`+number+`"}`)
		return v
	}

	baikonur := detail("0198100000115000007")
	if baikonur.MaxPrice != 23420367.73 || baikonur.Currency != "RUB" || baikonur.MaxPrices != nil {
		t.Errorf("max price of two lots in roubles: %v %s %v; want 23420367.73 RUB", baikonur.MaxPrice, baikonur.Currency, baikonur.MaxPrices)
	}
	if baikonur.Region != 99 || baikonur.Title != "Обслуживание  зданий и  территорий города Байконур" {
		t.Errorf("region %d, title %q; want 99 and the title as published", baikonur.Region, baikonur.Title)
	}
	wantObjects := []tenderbase.PurchaseObject{
		{OKPDCode: "74.70.13.000", OKPDName: "Услуги по уборке зданий", Name: "Влажная  уборка   помещений", Quantity: 120006, Unit: "м2", Price: 97.58, Sum: 11710183.86},
		{OKPDCode: "90.02.13.000", OKPDName: "Услуги по уборке улиц и дорог", Name: "Услуги по уборке улиц и дорог", Quantity: 1, Unit: "м2", Price: 11710183.87, Sum: 11710183.87},
	}
	var gotObjects []tenderbase.PurchaseObject
	for _, l := range baikonur.Lots {
		gotObjects = append(gotObjects, l.Objects...)
	}
	if diff := cmp.Diff(wantObjects, gotObjects); diff != "" {
		t.Errorf("objects classified by OKPD (-want +got):\n%s", diff)
	}
	const fileName = "Конкурсная  документация   (лоты 1 и 2).docx"
	if len(baikonur.Attachments) != 1 || baikonur.Attachments[0].FileName != fileName {
		t.Errorf("attachments %+v; want %q", baikonur.Attachments, fileName)
	}

	currencies := detail("0373100064615000125")
	wantPrices := []tenderbase.Money{{Amount: 1520000.5, Currency: "RUB"}, {Amount: 20450.75, Currency: "EUR"}}
	if diff := cmp.Diff(wantPrices, currencies.MaxPrices); diff != "" || currencies.MaxPrice != 0 || currencies.Currency != "" {
		t.Errorf("lots in two currencies: max_price %v %q, max_prices (-want +got):\n%s", currencies.MaxPrice, currencies.Currency, diff)
	}

	drugs := detail("0372200067924000512")
	const mnn = "Амоксициллин  +  Клавулановая кислота"
	if drugs.Title != mnn || len(drugs.Lots) != 1 || len(drugs.Lots[0].Objects) != 1 ||
		drugs.Lots[0].Objects[0].MNN != mnn || drugs.Lots[0].Objects[0].OKPD2Code != "21.20.10.131" {
		t.Errorf("EZT2020 drug purchase: %+v; want its title and object from the drug %q", drugs, mnn)
	}

	// Search normalizes white space; the file name it returns does not.
	docs, _ := decodeCall[struct {
		Items []struct {
			FileName string `json:"file_name"`
		} `json:"items"`
	}](t, set, tenderbase.PlanStandard, "docs.search", `{"query": "конкурсная документация лоты", "regions": [99]}`)
	if len(docs.Items) != 1 || docs.Items[0].FileName != fileName {
		t.Errorf("docs.search in region 99: %+v; want the file %q", docs.Items, fileName)
	}
}
