package ted

import (
	"strings"
	"time"
	_ "time/tzdata" // the zones below must load where the host has no zoneinfo
)

// zones are the time zones of the countries TED publishes for that keep one
// clock across their territory: the EU, the EEA, Switzerland and the United
// Kingdom, by TED's country code (EL, UK beside GR, GB).
var zones = map[string]string{
	"AT": "Europe/Vienna", "BE": "Europe/Brussels", "BG": "Europe/Sofia", "HR": "Europe/Zagreb",
	"CY": "Asia/Nicosia", "CZ": "Europe/Prague", "DK": "Europe/Copenhagen", "EE": "Europe/Tallinn",
	"FI": "Europe/Helsinki", "DE": "Europe/Berlin", "EL": "Europe/Athens", "GR": "Europe/Athens",
	"HU": "Europe/Budapest", "IE": "Europe/Dublin", "IT": "Europe/Rome", "LV": "Europe/Riga",
	"LT": "Europe/Vilnius", "LU": "Europe/Luxembourg", "MT": "Europe/Malta", "NL": "Europe/Amsterdam",
	"PL": "Europe/Warsaw", "RO": "Europe/Bucharest", "SK": "Europe/Bratislava", "SI": "Europe/Ljubljana",
	"SE": "Europe/Stockholm", "IS": "Atlantic/Reykjavik", "LI": "Europe/Vaduz", "NO": "Europe/Oslo",
	"CH": "Europe/Zurich", "UK": "Europe/London", "GB": "Europe/London",
}

// regionZones are the zones of the parts of France, Spain and Portugal, the
// countries of several clocks, by the buyer's NUTS code: the longest prefix
// that matches decides ("" for the overseas regions taken together). A
// buyer whose NUTS code names only the country gets no zone.
var regionZones = map[string]string{
	"FR": "Europe/Paris", "FRY1": "America/Guadeloupe", "FRY2": "America/Martinique",
	"FRY3": "America/Cayenne", "FRY4": "Indian/Reunion", "FRY5": "Indian/Mayotte", "FRY": "",
	"ES": "Europe/Madrid", "ES70": "Atlantic/Canary",
	"PT": "Europe/Lisbon", "PT20": "Atlantic/Azores", "PT30": "Atlantic/Madeira",
}

// Zone returns the time zone of a buyer in country iso (TED's code) and
// NUTS region nuts: its country's, or for a country of several clocks its
// region's; nil when neither tells. TED gives deadlines in the buyer's local
// time without a zone, so this is the zone they are read in (and the one a
// writer of TED files puts them in).
func Zone(iso, nuts string) *time.Location {
	name := zones[strings.ToUpper(iso)]
	if name == "" && len(nuts) > 2 {
		for n := min(len(nuts), 4); n > 1; n-- {
			if z, ok := regionZones[strings.ToUpper(nuts[:n])]; ok {
				name = z
				break
			}
		}
	}
	if name == "" {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return loc
}
