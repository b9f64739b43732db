package docanalysis

// FactsOf lets the tests read the facts of a hand-read quote by the same
// rules as the extraction.
var FactsOf = factsOf
