package tools

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Instructions tell a model, once, what the server holds and what every
// search shares: the query language, pages and row caps, summaries and the
// fields a plan hides. The tools' descriptions leave these out, since a
// model reads every description before its first call.
func Instructions() string {
	return "Tenderbase holds public procurement data: Russian tenders (44-FZ and 223-FZ) with their amendments and winners, " +
		"procurement documentation, concluded contracts, world tenders, auctions of bankruptcy and state property, " +
		"the register of unfair suppliers, purchase plans (purchases announced before their notice), and organizations by INN. " +
		"Search with a *.search tool, then open one record with the matching *.detail tool by the id an item carries. " +
		queryHelp + " " + pagingHelp() + " " +
		"Fields your plan does not include are null in a record and left out of a summary, and the answer names them."
}

// queryHelp is the query language in a few lines; GET /search/syntax and
// docs/query-language.md say more.
const queryHelp = `Queries match every word form and ignore case (поставка also finds поставки, ё = е, Škoda = skoda); ` +
	`words are joined by AND (a space or &), | means OR, !word excludes a word, "double quotes" match a phrase, ` +
	`=word matches that exact form only, and parentheses group: (бумага | картридж) поставка !ремонт. ` +
	`OR, AND, NOT in capitals and -word work too; there is no wildcard (постав* is постав: type whole words). ` +
	`Purchase numbers, INNs and codes match as whole words. ` +
	`When fewer than a page match every word, the answer goes on with partial matches (not in the total), ` +
	`records with most of the query's weight (rare words weigh more), each with lacks: the words it misses. ` +
	ExpansionHelp + ` ` + CorrectionHelp

// CorrectionHelp says in a sentence how a search that finds nothing
// corrects its words: the instructions and GET /search/syntax give it.
const CorrectionHelp = `When a search finds nothing, a word no record holds is searched as the known word nearest it ` +
	`(a typo: поставака, лекраства; the other keyboard layout: gjcnfdrf), and corrected says so; exact: true searches as written.`

// ExpansionHelp says in a sentence how the search tools expand a query by
// the procurement thesaurus and word families; the instructions and GET
// /search/syntax give it.
const ExpansionHelp = `Procurement synonyms and abbreviations are searched too (ГСМ also finds нефтепродукты, ЭВМ компьютеры), and a category word ` +
	`(лекарства, канцтовары) also lists the records of its OKPD2 class, and those before 2016 of its OKDP class, after the word matches, ` +
	`and a noun matches its family's adjectives (кровля, кровельный); expansions in the answer say which; ` +
	`"exact": true searches the query as written.`

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
	return fmt.Sprintf("A search answers %d summaries a page, newest first unless sorted, with the exact total; page counts from 0, ", tenderbase.DefaultPageSize) +
		"and next_cursor reads the next page faster. Texts longer than a summary holds are cut with …; the detail tool gives them whole. " +
		"A plan pages through the first rows of a search only (" + strings.Join(caps, ", ") + "); " +
		"past them a page is empty and says so in notice."
}

// stateHelp tells the two states of a tender apart, for the tools that
// give both.
const stateHelp = "status is the notice's as published, often older; state is where the tender stands now, " +
	"from its protocols and events (state_from: the record that decided): trust state."

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
