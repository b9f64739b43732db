package ocds

import "strings"

// prefixCountries gives the country of the publishers whose ocid prefix is
// registered with the Open Contracting Partnership, for the publishers of
// the samples the project is tested on (open-contracting/sample-data, one
// folder per publisher): a release that names no country in any address is
// placed in its publisher's country. A prefix not listed places it nowhere.
var prefixCountries = map[string]int{
	"ocds-43qwtd": 36,  // New South Wales, Australia
	"ocds-34a6hz": 124, // Buy and Sell, Canada
	"ocds-k50g02": 170, // Bogotá, Colombia
	"ocds-07smqs": 484, // Administración Pública Federal, Mexico
	"ocds-87sd3t": 484, // Ciudad de México, Mexico
	"ocds-xs1qbl": 484, // Jalisco, Mexico
	"ocds-ngfbwp": 498, // MTender, Moldova
	"ocds-gyl66f": 566, // Nigeria Open Contracting Portal
	"ocds-03ad3f": 600, // DNCP, Paraguay
	"ocid-6as3t2": 158, // Taiwan
	"ocds-rdvc92": 800, // PPDA, Uganda
	"ocds-b5fd17": 826, // Contracts Finder, United Kingdom
	"ocds-be6bcu": 804, // ProZorro, Ukraine
}

// prefixCountry returns the country of an ocid's publisher, or 0.
func prefixCountry(ocid string) int {
	parts := strings.SplitN(strings.ToLower(ocid), "-", 3)
	if len(parts) < 2 {
		return 0
	}
	return prefixCountries[parts[0]+"-"+parts[1]]
}
