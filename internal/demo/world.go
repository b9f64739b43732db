package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// country is an EU country that publishes on TED, with its buyers.
type country struct {
	Code     int // ISO 3166 numeric
	Language string
	Currency string
	Buyers   []string
	Cities   []string
}

var countries = []country{
	{276, "de", "EUR", []string{"Stadt Leipzig, Amt für Schule", "Universitätsklinikum Freiburg", "Landeshauptstadt München, Baureferat", "Stadtwerke Bielefeld GmbH"}, []string{"04109 Leipzig", "79106 Freiburg im Breisgau", "80331 München", "33602 Bielefeld"}},
	{40, "de", "EUR", []string{"Stadt Wien, Magistratsabteilung 34", "Tirol Kliniken GmbH", "Land Steiermark, Abteilung 16"}, []string{"1010 Wien", "6020 Innsbruck", "8010 Graz"}},
	{250, "fr", "EUR", []string{"Ville de Lyon, Direction de la commande publique", "Centre hospitalier universitaire de Bordeaux", "Région Hauts-de-France", "Métropole Nice Côte d'Azur"}, []string{"69001 Lyon", "33000 Bordeaux", "59000 Lille", "06000 Nice"}},
	{56, "fr", "EUR", []string{"Ville de Liège", "Société régionale wallonne du transport"}, []string{"4000 Liège", "5100 Namur"}},
	{442, "fr", "EUR", []string{"Administration des bâtiments publics, Luxembourg"}, []string{"1341 Luxembourg"}},
	{372, "en", "EUR", []string{"Health Service Executive", "Dublin City Council", "Office of Public Works"}, []string{"Dublin 8", "Dublin 2", "Trim, Co. Meath"}},
	{528, "en", "EUR", []string{"Gemeente Rotterdam", "Rijkswaterstaat"}, []string{"3011 Rotterdam", "3526 Utrecht"}},
	{752, "en", "SEK", []string{"Region Stockholm", "Göteborgs Stad"}, []string{"104 22 Stockholm", "404 82 Göteborg"}},
	{616, "en", "PLN", []string{"Gmina Miasta Gdańsk", "Szpital Uniwersytecki w Krakowie"}, []string{"80-803 Gdańsk", "30-688 Kraków"}},
}

// worldSubject is a thing European buyers tender, in three languages.
type worldSubject struct {
	CPV  []string
	Text map[string][2]string // language: title, description
}

var worldSubjects = []worldSubject{
	{[]string{"33600000", "33690000"}, map[string][2]string{
		"en": {"Supply of pharmaceutical products for hospital pharmacies", "Framework agreement for the supply of medicinal products, including antibiotics and anticoagulants, to hospital pharmacies over 48 months."},
		"de": {"Lieferung von Arzneimitteln für die Krankenhausapotheke", "Rahmenvereinbarung über die Lieferung von Arzneimitteln einschließlich Antibiotika für die Krankenhausapotheke, Laufzeit 48 Monate."},
		"fr": {"Fourniture de médicaments pour la pharmacie hospitalière", "Accord-cadre pour la fourniture de médicaments, dont antibiotiques et anticoagulants, destinés à la pharmacie à usage intérieur."}}},
	{[]string{"45261210", "45261420"}, map[string][2]string{
		"en": {"Roof repair works at primary schools", "Repair and waterproofing of flat roofs at four primary schools, including insulation and rainwater drainage."},
		"de": {"Dachsanierung an Grundschulen", "Sanierung und Abdichtung der Flachdächer von vier Grundschulen einschließlich Wärmedämmung und Dachentwässerung."},
		"fr": {"Travaux de réfection de toitures des écoles élémentaires", "Réfection et étanchéité des toitures-terrasses de quatre écoles élémentaires, y compris isolation thermique."}}},
	{[]string{"50750000"}, map[string][2]string{
		"en": {"Lift maintenance services for public buildings", "Preventive and corrective maintenance of 120 passenger lifts in municipal buildings, with 24/7 emergency call-out."},
		"de": {"Wartung und Instandhaltung von Aufzugsanlagen", "Wartung, Störungsbeseitigung und Notdienst rund um die Uhr für 120 Aufzugsanlagen in städtischen Gebäuden."},
		"fr": {"Maintenance des ascenseurs des bâtiments publics", "Maintenance préventive et corrective de 120 ascenseurs des bâtiments municipaux, avec astreinte 24h/24."}}},
	{[]string{"72260000", "72267000"}, map[string][2]string{
		"en": {"Software maintenance and support for the document management system", "Maintenance, updates and second-level support of the electronic document and records management system."},
		"de": {"Softwarepflege und Support für das Dokumentenmanagementsystem", "Pflege, Aktualisierung und Second-Level-Support des elektronischen Dokumentenmanagementsystems."},
		"fr": {"Maintenance et support du logiciel de gestion électronique des documents", "Maintenance, mises à jour et support de niveau 2 du système de gestion électronique des documents."}}},
	{[]string{"34144900"}, map[string][2]string{
		"en": {"Purchase of electric vehicles for the municipal fleet", "Supply of 25 battery electric passenger cars and charging equipment for the municipal fleet."},
		"de": {"Beschaffung von Elektrofahrzeugen für den städtischen Fuhrpark", "Lieferung von 25 batterieelektrischen Pkw und Ladeinfrastruktur für den städtischen Fuhrpark."},
		"fr": {"Acquisition de véhicules électriques pour la flotte municipale", "Fourniture de 25 véhicules particuliers électriques et de bornes de recharge pour la flotte municipale."}}},
	{[]string{"90910000", "90911200"}, map[string][2]string{
		"en": {"Cleaning services for administrative buildings", "Daily cleaning of offices, sanitary facilities and common areas, and periodic window cleaning."},
		"de": {"Unterhaltsreinigung von Verwaltungsgebäuden", "Tägliche Unterhaltsreinigung der Büros, Sanitärbereiche und Verkehrsflächen sowie Glasreinigung."},
		"fr": {"Nettoyage des bâtiments administratifs", "Nettoyage quotidien des bureaux, sanitaires et parties communes, et nettoyage périodique de la vitrerie."}}},
	{[]string{"55523100"}, map[string][2]string{
		"en": {"School catering services", "Preparation and delivery of school meals for about 6,000 pupils, with a minimum share of organic produce."},
		"de": {"Schulverpflegung", "Zubereitung und Lieferung der Mittagsverpflegung für rund 6 000 Schülerinnen und Schüler mit Bio-Anteil."},
		"fr": {"Restauration scolaire", "Préparation et livraison des repas scolaires pour environ 6 000 élèves, avec une part minimale de produits biologiques."}}},
	{[]string{"33111000", "33115000"}, map[string][2]string{
		"en": {"Digital X-ray and CT equipment", "Supply, installation and maintenance of a digital radiography system and a 128-slice CT scanner."},
		"de": {"Digitale Röntgen- und CT-Anlagen", "Lieferung, Installation und Wartung einer digitalen Röntgenanlage und eines 128-Zeilen-Computertomographen."},
		"fr": {"Équipements de radiologie numérique et scanner", "Fourniture, installation et maintenance d'une salle de radiologie numérique et d'un scanner 128 coupes."}}},
	{[]string{"71320000", "71311300"}, map[string][2]string{
		"en": {"Engineering design services for a wastewater treatment plant upgrade", "Design services, site surveys and supervision for the upgrade of the municipal wastewater treatment plant."},
		"de": {"Planungsleistungen für die Ertüchtigung der Kläranlage", "Objekt- und Fachplanung, Baugrunderkundung und Bauüberwachung für die Ertüchtigung der kommunalen Kläranlage."},
		"fr": {"Maîtrise d'œuvre pour la modernisation de la station d'épuration", "Mission de maîtrise d'œuvre, études géotechniques et suivi des travaux de modernisation de la station d'épuration."}}},
	{[]string{"09310000"}, map[string][2]string{
		"en": {"Supply of electricity from renewable sources", "Supply of electricity from certified renewable sources to 340 delivery points for 2025-2027."},
		"de": {"Lieferung von Ökostrom", "Lieferung von Strom aus zertifizierten erneuerbaren Quellen an 340 Abnahmestellen für 2025-2027."},
		"fr": {"Fourniture d'électricité d'origine renouvelable", "Fourniture d'électricité d'origine renouvelable certifiée pour 340 points de livraison, 2025-2027."}}},
}

// buildWorld makes n notices from EU buyers.
func (b *builder) buildWorld(n int) {
	for i := range n {
		b.world = append(b.world, b.worldTender(i, n))
	}
}

func (b *builder) worldTender(i, n int) *tenderbase.WorldTender {
	s := b.s
	c := countries[i%len(countries)]
	subj := worldSubjects[s.intn(len(worldSubjects))]
	text := subj.Text[c.Language]
	at := s.dayAt(i, n).In(time.UTC).Truncate(24 * time.Hour)
	k := s.intn(len(c.Buyers))
	w := &tenderbase.WorldTender{
		Source:      "ted",
		Country:     c.Code,
		Title:       text[0],
		Description: text[1],
		Buyer:       tenderbase.Party{Name: c.Buyers[k], Address: c.Cities[k%len(c.Cities)]},
		Value:       float64(s.between(8, 900) * 10_000),
		Currency:    c.Currency,
		CPVCodes:    subj.CPV,
		PublishedAt: at,
		Deadline:    at.AddDate(0, 0, s.between(30, 45)).Add(12 * time.Hour),
		Language:    c.Language,
	}
	w.ID, w.URL = tedID(s, at, c.Language)
	return w
}

// tedID returns the id and address of a TED notice. Notices before eForms
// are numbered "2023/S 045-131234" (year, issue, notice), later ones
// "123456-2024".
func tedID(s *source, at time.Time, lang string) (id, url string) {
	n := s.between(100000, 999999)
	if at.Year() < 2024 {
		id = fmt.Sprintf("ted:%d/S %03d-%06d", at.Year(), max(1, at.YearDay()*5/7), n)
		return id, fmt.Sprintf("https://ted.europa.eu/udl?uri=TED:NOTICE:%06d-%d:TEXT:%s:HTML", n, at.Year(), strings.ToUpper(lang))
	}
	return fmt.Sprintf("ted:%06d-%d", n, at.Year()), fmt.Sprintf("https://ted.europa.eu/%s/notice/-/detail/%06d-%d", lang, n, at.Year())
}
