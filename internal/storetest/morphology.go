package storetest

import (
	"testing"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/russian"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Keys of the records of MorphologyRecords, each named by the word form
// its title has that Snowball alone kept from the other forms of its
// lemma, newest first.
const (
	mSecurity  = "0373100000125000001" // "охране": охрана, охраны
	mSection   = "0373100000125000002" // "участка": участок
	mBids      = "0373100000125000003" // "заявок": заявка
	mSupplies  = "0373100000125000004" // "поставок", "закупок": поставка, закупка
	mMaterials = "0373100000125000005" // "материалов": материал, материалы
	mWindows   = "0373100000125000006" // "замене": замена, замену
	mSteel     = "0373100000125000007" // "стали": сталь and стать, a homograph
	mLookalike = "0373100000125000008" // Latin look-alike letters in Cyrillic words
	mCoal      = "0373100000125000009" // "угля": уголь, a nominative the dictionary lists alone
	mOils      = "0373100000125000010" // "масел", "топлив": genitive plurals of масло, топливо
	mRoofs     = "0373100000125000011" // "кровель": кровля
	mCase      = "0373100000125000012" // "делу", "далее": not forms of деть (денут) or дать
	mPaperA4   = "0373100000125000013" // Cyrillic А4, "5 000" in groups, a customer in Latin capitals
	mLatinA4   = "0373100000125000014" // Latin A4, "5000" in one
	mSalt      = "0373100000125000015" // "10кг", a number against its unit
)

// MorphologyRecords returns tenders whose titles have the word forms that
// Snowball stems apart from the rest of their lemma: a user typing the
// lemma, or another form, missed them.
func MorphologyRecords() []tenderbase.Record {
	tender := func(number, title, customer string, d int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: "44", Version: 1, Title: title,
			Customer: tenderbase.Party{INN: "7701000002", Name: customer}, Region: 77, PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		tender(mSalt, "Соль пищевая в мешках по 10кг", "ГБУ Соцзащита", 15),
		tender(mLatinA4, "Бумага офисная A4, 5000 листов", "ГБОУ Школа № 1", 14),   // Latin A
		tender(mPaperA4, "Бумага для принтера А4, 5 000 листов", "OOO VECTOR", 13), // Cyrillic А, Latin OOO
		tender(mCase, "Юридические услуги по делу о банкротстве, далее по договору", "ГБУ Соцзащита", 12),
		tender(mRoofs, "Ремонт кровель жилых домов", "ГБУ Жилищник", 11),
		tender(mOils, "Приобретение моторных масел и топлив", "ГКУ Дороги", 10),
		tender(mCoal, "Приобретение каменного угля для котельной", "ГБОУ Школа № 1", 9),
		tender(mLookalike, "Пoставка канцелярских товаров", `OOO "Вектор"`, 8), // Latin o in both words
		tender(mSteel, "Поставка листовой стали", "ГБУ Жилищник", 7),
		tender(mWindows, "Работы по замене окон в здании школы", "ГБОУ Школа № 1", 6),
		tender(mMaterials, "Поставка строительных материалов", "ГБУ Жилищник", 5),
		tender(mSupplies, "График поставок и закупок продуктов питания", "ГБУ Соцзащита", 4),
		tender(mBids, "Приём заявок от поставщиков", "ГБУ Соцзащита", 3),
		tender(mSection, "Ремонт участка автомобильной дороги", "ГКУ Дороги", 2),
		tender(mSecurity, "Оказание услуг по охране здания суда", "Управление судебного департамента", 1),
	}
}

// morphologyCases are searches of MorphologyRecords as a user types them:
// the lemma, or another form of it.
func morphologyCases() []languageCase {
	tenders := tenderbase.KindTender
	return []languageCase{
		{tenders, "охрана", []string{mSecurity}},
		{tenders, "охраны", []string{mSecurity}},
		{tenders, "=охраны", nil},
		{tenders, "участок", []string{mSection}},
		{tenders, "заявка", []string{mBids}},
		{tenders, "поставка", []string{mLookalike, mSteel, mMaterials, mSupplies}},
		{tenders, "закупка", []string{mSupplies}},
		{tenders, `"поставка и закупка"`, []string{mSupplies}},
		{tenders, "материал", []string{mMaterials}},
		{tenders, "материалы", []string{mMaterials}},
		{tenders, "замена", []string{mWindows}},
		{tenders, "замену", []string{mWindows}},
		{tenders, "сталь", []string{mSteel}},
		{tenders, `"листовая сталь"`, []string{mSteel}},
		{tenders, `"листовой стали"`, []string{mSteel}},
		{tenders, "стать", []string{mSteel}}, // "стали" is a form of either
		{tenders, `"ООО Вектор"`, []string{mLookalike}},
		{tenders, "=поставка", []string{mLookalike, mSteel, mMaterials}},
		{tenders, `"поставка канцелярских"`, []string{mLookalike}},
		// Forms with a fleeting vowel and genitive plurals the dictionary
		// lacks meet their lemma.
		{tenders, "уголь", []string{mCoal}},
		{tenders, "окно", []string{mWindows}},
		{tenders, "масло", []string{mOils}},
		{tenders, "топливо", []string{mOils}},
		{tenders, "кровля", []string{mRoofs}},
		// A verb whose past forms are another word's does not find that
		// word's other forms, nor does its exclusion drop them.
		{tenders, "дать", nil},
		{tenders, "денут", nil},
		{tenders, "дело", []string{mCase}},
		{tenders, "услуга !денут", []string{mCase, mSecurity}},
		// Latin capitals alone are looked up in both scripts.
		{tenders, "OOO", []string{mPaperA4, mLookalike}},
		{tenders, "OOO Вектор", []string{mLookalike}},
		{tenders, "ООО", []string{mLookalike}},
		{tenders, `"OOO VECTOR"`, []string{mPaperA4}},
		// A code of letters and digits is one in either script.
		{tenders, "A4", []string{mLatinA4, mPaperA4}},
		{tenders, "А4", []string{mLatinA4, mPaperA4}},
		{tenders, "бумага & =A4", []string{mLatinA4, mPaperA4}},
		// Numbers meet written against their unit and in groups of digits.
		{tenders, "10 кг", []string{mSalt}},
		{tenders, "10кг", []string{mSalt}},
		{tenders, `"10 кг"`, []string{mSalt}},
		{tenders, "кг", []string{mSalt}},
		{tenders, "5000", []string{mLatinA4, mPaperA4}},
		{tenders, "5 000", []string{mLatinA4, mPaperA4}},
		{tenders, `"5 000 листов"`, []string{mLatinA4, mPaperA4}},
		{tenders, "000", nil},
	}
}

// CheckMorphology runs the searches of the Morphology part of the suite
// against st, which holds MorphologyRecords, however they came there: a
// store test also runs them on a database indexed by an older analysis.
func CheckMorphology(t *testing.T, st tenderbase.Store) {
	checkCases(t, st, MorphologyRecords(), morphologyCases())
}

// SnowballFields analyzes the search texts of r as every store did before
// the lemma table: each word keyed by its own Russian Snowball stem. A
// store test writes them to make a database indexed by that analysis.
func SnowballFields(r tenderbase.Record) [][]textproc.Token {
	var fields [][]textproc.Token
	for _, text := range tenderbase.MatchedText(r, false) {
		var toks []textproc.Token
		for w := range textproc.Words(text) {
			env := snowballstem.NewEnv(w)
			russian.Stem(env)
			toks = append(toks, textproc.Token{Form: w, Stem: env.Current()})
		}
		fields = append(fields, toks)
	}
	return fields
}
