package tools

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// queryHelp is the query language in a few lines, for the descriptions of the
// search tools; GET /search/syntax and docs/query-language.md say more.
const queryHelp = `Query language: words match in any form and any case (поставка also finds поставки, ё = е, Škoda = skoda); ` +
	`a space or & is AND, | is OR, !word excludes a word, "two words" is a phrase (adjacent, in order), ` +
	`=word matches only that exact form, parentheses group: (бумага | картридж) & поставка & !ремонт. ` +
	`Purchase numbers, INNs and codes match as whole words.`

// pagingHelp says how pages and row caps work, from the plan table.
func pagingHelp() string {
	var caps []string
	for _, p := range tenderbase.PlanNames {
		n := tenderbase.Plans[p].RowCap
		if n == 0 {
			caps = append(caps, fmt.Sprintf("%s all", p))
		} else {
			caps = append(caps, fmt.Sprintf("%s %d", p, n))
		}
	}
	return "Results are newest first, 20 a page: page counts from 0, and the result gives the exact total. " +
		"A plan pages through the first rows of a search only (" + strings.Join(caps, ", ") + "); " +
		"past them a page is empty and says so in notice."
}

// maskHelp says what a caller without the right plan sees.
const maskHelp = "Fields your plan does not show are present with the value null."

// contactPlans names the plans that may read contacts: "standard, guru,
// corporate".
func contactPlans() string {
	var ps []string
	for _, p := range tenderbase.PlanNames {
		if tenderbase.Plans[p].Contacts {
			ps = append(ps, string(p))
		}
	}
	return strings.Join(ps, ", ")
}
