package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// country is an EU country that publishes on TED, with its buyers.
type country struct {
	Code     int    // ISO 3166 numeric
	Alpha2   string // as TED XML writes it
	Alpha3   string // as eForms writes it
	Name     string // in English, as OCDS addresses give it
	Local    string // in the language of its notices, as TED's titles give it
	Language string
	Currency string
	// Platform is the address of the e-tendering platform its buyers
	// publish their procurement documents on; Documents is that of one
	// procedure's documents, %d its number.
	Platform, Documents string
	Buyers              []worldBuyer
}

// worldBuyer is a contracting authority and its postal address.
type worldBuyer struct {
	Name, Street, PostCode, Town string
}

var countries = []country{
	{276, "DE", "DEU", "Germany", "Deutschland", "de", "EUR", "https://www.evergabe-online.de", "https://www.evergabe-online.de/tenderdetails.html?id=%d", []worldBuyer{
		{"Stadt Leipzig, Amt für Schule", "Martin-Luther-Ring 4-6", "04109", "Leipzig"},
		{"Universitätsklinikum Freiburg", "Hugstetter Straße 49", "79106", "Freiburg im Breisgau"},
		{"Landeshauptstadt München, Baureferat", "Blumenstraße 28b", "80331", "München"},
		{"Stadtwerke Bielefeld GmbH", "Schildescher Straße 16", "33611", "Bielefeld"}}},
	{40, "AT", "AUT", "Austria", "Österreich", "de", "EUR", "https://www.auftrag.at", "https://www.auftrag.at/tender/%d", []worldBuyer{
		{"Stadt Wien, Magistratsabteilung 34", "Muthgasse 62", "1190", "Wien"},
		{"Tirol Kliniken GmbH", "Anichstraße 35", "6020", "Innsbruck"},
		{"Land Steiermark, Abteilung 16", "Stempfergasse 7", "8010", "Graz"}}},
	{250, "FR", "FRA", "France", "France", "fr", "EUR", "https://www.marches-publics.gouv.fr", "https://www.marches-publics.gouv.fr/entreprise/consultation/%d", []worldBuyer{
		{"Ville de Lyon, Direction de la commande publique", "1 place de la Comédie", "69001", "Lyon"},
		{"Centre hospitalier universitaire de Bordeaux", "Place Amélie Raba-Léon", "33000", "Bordeaux"},
		{"Région Hauts-de-France", "151 avenue du Président Hoover", "59000", "Lille"},
		{"Métropole Nice Côte d'Azur", "5 rue de l'Hôtel de Ville", "06000", "Nice"}}},
	{56, "BE", "BEL", "Belgium", "Belgique", "fr", "EUR", "https://www.publicprocurement.be", "https://www.publicprocurement.be/publication-workspaces/%d", []worldBuyer{
		{"Ville de Liège", "Place du Marché 2", "4000", "Liège"},
		{"Société régionale wallonne du transport", "Avenue Gouverneur Bovesse 96", "5100", "Namur"}}},
	{442, "LU", "LUX", "Luxembourg", "Luxembourg", "fr", "EUR", "https://pmp.b2g.etat.lu", "https://pmp.b2g.etat.lu/entreprise/consultation/%d", []worldBuyer{
		{"Administration des bâtiments publics, Luxembourg", "10, rue du Saint-Esprit", "1475", "Luxembourg"}}},
	{372, "IE", "IRL", "Ireland", "Ireland", "en", "EUR", "https://www.etenders.gov.ie", "https://www.etenders.gov.ie/epps/cft/prepareViewCfTWS.do?resourceId=%d", []worldBuyer{
		{"Health Service Executive", "Dr Steevens' Hospital, Steevens' Lane", "D08 W2A8", "Dublin 8"},
		{"Dublin City Council", "Civic Offices, Wood Quay", "D08 RF3F", "Dublin 8"},
		{"Office of Public Works", "Jonathan Swift Street", "C15 NX36", "Trim, Co. Meath"}}},
	{528, "NL", "NLD", "Netherlands", "Netherlands", "en", "EUR", "https://www.tenderned.nl", "https://www.tenderned.nl/aankondigingen/overzicht/%d", []worldBuyer{
		{"Gemeente Rotterdam", "Coolsingel 40", "3011 AD", "Rotterdam"},
		{"Rijkswaterstaat", "Griffioenlaan 2", "3526 LA", "Utrecht"}}},
	{752, "SE", "SWE", "Sweden", "Sweden", "en", "SEK", "https://www.e-avrop.com", "https://www.e-avrop.com/e-Upphandling/Default.aspx?id=%d", []worldBuyer{
		{"Region Stockholm", "Hantverkargatan 45", "104 22", "Stockholm"},
		{"Göteborgs Stad", "Gustaf Adolfs torg 4A", "404 82", "Göteborg"}}},
	{616, "PL", "POL", "Poland", "Poland", "en", "PLN", "https://ezamowienia.gov.pl", "https://ezamowienia.gov.pl/mp-client/search/list/%d", []worldBuyer{
		{"Gmina Miasta Gdańsk", "ul. Nowe Ogrody 8/12", "80-803", "Gdańsk"},
		{"Szpital Uniwersytecki w Krakowie", "ul. Jakubowskiego 2", "30-688", "Kraków"}}},
}

// countryOf returns the country of ISO 3166 numeric code code.
func countryOf(code int) (country, bool) {
	for _, c := range countries {
		if c.Code == code {
			return c, true
		}
	}
	return country{}, false
}

// buyerOf returns the buyer of country c named name.
func (c country) buyerOf(name string) (worldBuyer, bool) {
	for _, b := range c.Buyers {
		if b.Name == name {
			return b, true
		}
	}
	return worldBuyer{}, false
}

// worldSubject is a thing European buyers tender, in three languages.
type worldSubject struct {
	CPV    []string
	Nature string               // supplies, works or services, as TED and eForms name them
	Text   map[string][2]string // language: title, description
}

var worldSubjects = []worldSubject{
	{[]string{"33600000", "33690000"}, "supplies", map[string][2]string{
		"en": {"Supply of pharmaceutical products for hospital pharmacies", "Framework agreement for the supply of medicinal products, including antibiotics and anticoagulants, to hospital pharmacies over 48 months."},
		"de": {"Lieferung von Arzneimitteln für die Krankenhausapotheke", "Rahmenvereinbarung über die Lieferung von Arzneimitteln einschließlich Antibiotika für die Krankenhausapotheke, Laufzeit 48 Monate."},
		"fr": {"Fourniture de médicaments pour la pharmacie hospitalière", "Accord-cadre pour la fourniture de médicaments, dont antibiotiques et anticoagulants, destinés à la pharmacie à usage intérieur."}}},
	{[]string{"45261210", "45261420"}, "works", map[string][2]string{
		"en": {"Roof repair works at primary schools", "Repair and waterproofing of flat roofs at four primary schools, including insulation and rainwater drainage."},
		"de": {"Dachsanierung an Grundschulen", "Sanierung und Abdichtung der Flachdächer von vier Grundschulen einschließlich Wärmedämmung und Dachentwässerung."},
		"fr": {"Travaux de réfection de toitures des écoles élémentaires", "Réfection et étanchéité des toitures-terrasses de quatre écoles élémentaires, y compris isolation thermique."}}},
	{[]string{"50750000"}, "services", map[string][2]string{
		"en": {"Lift maintenance services for public buildings", "Preventive and corrective maintenance of 120 passenger lifts in municipal buildings, with 24/7 emergency call-out."},
		"de": {"Wartung und Instandhaltung von Aufzugsanlagen", "Wartung, Störungsbeseitigung und Notdienst rund um die Uhr für 120 Aufzugsanlagen in städtischen Gebäuden."},
		"fr": {"Maintenance des ascenseurs des bâtiments publics", "Maintenance préventive et corrective de 120 ascenseurs des bâtiments municipaux, avec astreinte 24h/24."}}},
	{[]string{"72260000", "72267000"}, "services", map[string][2]string{
		"en": {"Software maintenance and support for the document management system", "Maintenance, updates and second-level support of the electronic document and records management system."},
		"de": {"Softwarepflege und Support für das Dokumentenmanagementsystem", "Pflege, Aktualisierung und Second-Level-Support des elektronischen Dokumentenmanagementsystems."},
		"fr": {"Maintenance et support du logiciel de gestion électronique des documents", "Maintenance, mises à jour et support de niveau 2 du système de gestion électronique des documents."}}},
	{[]string{"34144900"}, "supplies", map[string][2]string{
		"en": {"Purchase of electric vehicles for the municipal fleet", "Supply of 25 battery electric passenger cars and charging equipment for the municipal fleet."},
		"de": {"Beschaffung von Elektrofahrzeugen für den städtischen Fuhrpark", "Lieferung von 25 batterieelektrischen Pkw und Ladeinfrastruktur für den städtischen Fuhrpark."},
		"fr": {"Acquisition de véhicules électriques pour la flotte municipale", "Fourniture de 25 véhicules particuliers électriques et de bornes de recharge pour la flotte municipale."}}},
	{[]string{"90910000", "90911200"}, "services", map[string][2]string{
		"en": {"Cleaning services for administrative buildings", "Daily cleaning of offices, sanitary facilities and common areas, and periodic window cleaning."},
		"de": {"Unterhaltsreinigung von Verwaltungsgebäuden", "Tägliche Unterhaltsreinigung der Büros, Sanitärbereiche und Verkehrsflächen sowie Glasreinigung."},
		"fr": {"Nettoyage des bâtiments administratifs", "Nettoyage quotidien des bureaux, sanitaires et parties communes, et nettoyage périodique de la vitrerie."}}},
	{[]string{"55523100"}, "services", map[string][2]string{
		"en": {"School catering services", "Preparation and delivery of school meals for about 6,000 pupils, with a minimum share of organic produce."},
		"de": {"Schulverpflegung", "Zubereitung und Lieferung der Mittagsverpflegung für rund 6 000 Schülerinnen und Schüler mit Bio-Anteil."},
		"fr": {"Restauration scolaire", "Préparation et livraison des repas scolaires pour environ 6 000 élèves, avec une part minimale de produits biologiques."}}},
	{[]string{"33111000", "33115000"}, "supplies", map[string][2]string{
		"en": {"Digital X-ray and CT equipment", "Supply, installation and maintenance of a digital radiography system and a 128-slice CT scanner."},
		"de": {"Digitale Röntgen- und CT-Anlagen", "Lieferung, Installation und Wartung einer digitalen Röntgenanlage und eines 128-Zeilen-Computertomographen."},
		"fr": {"Équipements de radiologie numérique et scanner", "Fourniture, installation et maintenance d'une salle de radiologie numérique et d'un scanner 128 coupes."}}},
	{[]string{"71320000", "71311300"}, "services", map[string][2]string{
		"en": {"Engineering design services for a wastewater treatment plant upgrade", "Design services, site surveys and supervision for the upgrade of the municipal wastewater treatment plant."},
		"de": {"Planungsleistungen für die Ertüchtigung der Kläranlage", "Objekt- und Fachplanung, Baugrunderkundung und Bauüberwachung für die Ertüchtigung der kommunalen Kläranlage."},
		"fr": {"Maîtrise d'œuvre pour la modernisation de la station d'épuration", "Mission de maîtrise d'œuvre, études géotechniques et suivi des travaux de modernisation de la station d'épuration."}}},
	{[]string{"09310000"}, "supplies", map[string][2]string{
		"en": {"Supply of electricity from renewable sources", "Supply of electricity from certified renewable sources to 340 delivery points for 2025-2027."},
		"de": {"Lieferung von Ökostrom", "Lieferung von Strom aus zertifizierten erneuerbaren Quellen an 340 Abnahmestellen für 2025-2027."},
		"fr": {"Fourniture d'électricité d'origine renouvelable", "Fourniture d'électricité d'origine renouvelable certifiée pour 340 points de livraison, 2025-2027."}}},
}

// buildWorld makes n notices from EU buyers. The oldest third come as TED
// XML, the forms TED published before eForms; the next third as eForms
// notices; the newest as OCDS releases.
func (b *builder) buildWorld(n int) {
	for i := range n {
		b.world = append(b.world, b.worldTender(i, n))
	}
}

// worldNotice is what a world tender is made of before it is written in
// its format: the country and buyer, and its number at the publisher.
type worldNotice struct {
	country country
	buyer   worldBuyer
	subject worldSubject
	number  int
}

func (b *builder) worldTender(i, n int) *tenderbase.WorldTender {
	s := b.s
	c := countries[i%len(countries)]
	subj := worldSubjects[s.intn(len(worldSubjects))]
	text := subj.Text[c.Language]
	at := s.dayAt(i, n).In(time.UTC).Truncate(24 * time.Hour)
	buyer := c.Buyers[s.intn(len(c.Buyers))]
	w := &tenderbase.WorldTender{
		Country:     c.Code,
		Title:       text[0],
		Description: text[1],
		Buyer:       tenderbase.Party{Name: buyer.Name},
		Value:       float64(s.between(8, 900) * 10_000),
		Currency:    c.Currency,
		CPVCodes:    subj.CPV,
		PublishedAt: at,
		Deadline:    at.AddDate(0, 0, s.between(30, 45)).Add(12 * time.Hour),
		Language:    c.Language,
	}
	notice := worldNotice{country: c, buyer: buyer, subject: subj, number: s.between(100000, 999999)}
	switch {
	case i < n/3:
		tedNotice(w, notice)
	case i < 2*n/3:
		eformsNotice(w, notice)
	default:
		ocdsRelease(w, notice)
	}
	return w
}

// documentsURL returns the address of the procurement documents of a
// notice on its country's platform.
func (n worldNotice) documentsURL() string {
	return fmt.Sprintf(n.country.Documents, n.number)
}

// worldBorn returns a predicate telling the world tenders whose ids start
// with prefix: those that come in through the format of that prefix.
func worldBorn(prefix string) func(tenderbase.Record) bool {
	return func(r tenderbase.Record) bool {
		return r.Kind() == tenderbase.KindWorldTender && strings.HasPrefix(r.Key(), prefix)
	}
}

// localTime returns t in the buyer's local time: Central European Time, or
// Western European Time in Ireland, with summer time from the last Sunday of
// March to the last Sunday of October, as the EU sets it.
func localTime(t time.Time, countryCode int) time.Time {
	offset := 1
	if countryCode == 372 {
		offset = 0
	}
	y := t.Year()
	if !t.Before(lastSunday(y, time.March)) && t.Before(lastSunday(y, time.October)) {
		offset++
	}
	return t.In(time.FixedZone("", offset*3600))
}

// lastSunday returns 01:00 UTC of the last Sunday of month m, when EU
// clocks change.
func lastSunday(year int, m time.Month) time.Time {
	d := time.Date(year, m+1, 1, 1, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	for d.Weekday() != time.Sunday {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// writeWorld returns a file, named by its key after prefix and ending in
// ext, for each world tender of recs that born admits, encoded by encode.
func writeWorld(recs []tenderbase.Record, born func(tenderbase.Record) bool, prefix, ext string, encode func(*tenderbase.WorldTender) ([]byte, error)) ([]File, error) {
	var files []File
	for _, r := range recs {
		if !born(r) {
			continue
		}
		w := r.(*tenderbase.WorldTender)
		data, err := encode(w)
		if err != nil {
			return nil, fmt.Errorf("world tender %s: %w", w.ID, err)
		}
		files = append(files, File{Name: strings.TrimPrefix(w.ID, prefix) + ext, Data: data})
	}
	return files, nil
}

// placeOf returns the country and the buyer of w.
func placeOf(w *tenderbase.WorldTender) (country, worldBuyer, error) {
	c, ok := countryOf(w.Country)
	if !ok {
		return country{}, worldBuyer{}, fmt.Errorf("no country %d", w.Country)
	}
	b, ok := c.buyerOf(w.Buyer.Name)
	if !ok {
		return country{}, worldBuyer{}, fmt.Errorf("no buyer %q in country %d", w.Buyer.Name, w.Country)
	}
	return c, b, nil
}
