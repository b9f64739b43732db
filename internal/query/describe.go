package query

import "fmt"

// Description describes the query language for people and for clients of
// GET /search/syntax. docs/query-language.md says the same at more length.
type Description struct {
	Summary   string     `json:"summary"`
	Operators []Operator `json:"operators"`
	Notes     []Note     `json:"notes"`
}

// Operator is one operator of the language in both syntaxes.
type Operator struct {
	Name          string `json:"name"`
	MCP           string `json:"mcp"`    // how the "query" argument of the MCP tools writes it
	Kwords        string `json:"kwords"` // how the "kwords" parameter of the export writes it
	Meaning       string `json:"meaning"`
	ExampleMCP    string `json:"example_mcp"`
	ExampleKwords string `json:"example_kwords"`
}

// Note is a remark on how words are matched.
type Note struct {
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Describe returns the description of the query language.
func Describe() Description {
	return Description{
		Summary: "Words are matched in any form and any case; combine them with & (or a space), |, !, quotes, = and parentheses.",
		Operators: []Operator{
			{"AND", "& or a space (or AND)", "a space or &", "Both sides must be present.",
				"поставка & бумаги", "поставка бумаги"},
			{"OR", "| (or OR)", "|", "Either side must be present.",
				"бумага | картридж", "бумага | картридж"},
			{"exclusion", "!word, !\"phrase\", !(group) (or -word, NOT word)", "!word, !\"phrase\", !(group)",
				"What follows ! must be absent. An exclusion must stand beside a word to find.",
				"ремонт & !дорог", "ремонт !дорог"},
			{"phrase", "\"words\"", "\"words\"", "The words must be adjacent, in the given order, within one field.",
				"\"поставка бумаги\"", "\"поставка бумаги\""},
			{"exact form", "=word", "=word", "Only that exact form matches; other forms and longer words do not. Works inside quotes too.",
				"=поставки & \"=оказание услуг\"", "=поставки \"=оказание услуг\""},
			{"grouping", "( )", "( )", "A group is evaluated first; words of a group without quotes may appear in any order.",
				"(бумага | картридж) & поставка", "(бумага | картридж) поставка"},
		},
		Notes: []Note{
			{"morphology", "Every word matches its other forms: поставка finds поставки, поставку and поставок, охрана finds охране. A Russian word is keyed by its lemma (from LibreOffice's Hunspell dictionary; a word it lacks by its Snowball stem), and a word of two lemmas (стали: сталь, стать) matches either; English words are stemmed (Snowball); =word turns this off."},
			{"look-alike letters", "Latin letters that look Cyrillic inside a Cyrillic word or beside digits are read as Cyrillic (пoставка with a Latin o is поставка, A4 with a Latin A is А4), and OOO, OAO, AO, TOO in Latin capitals beside a Cyrillic word are read as ООО, ОАО, АО, ТОО; typed alone in a query, OOO is looked up in both scripts."},
			{"languages", "A world notice is analysed in its own language: English, German, French, Spanish, Italian, Portuguese, Dutch, Danish, Swedish, Norwegian, Finnish, Hungarian, Romanian, Irish and Turkish words are stemmed in it (Snowball), Polish, Lithuanian and Greek words lose their case endings (usluga finds usług, υπηρεσια finds υπηρεσιών), words of other languages (Czech, Latvian...) match as written. A query word is looked up in every language at once."},
			{"case, ё and diacritics", "Matching ignores case, ё is the same letter as е (ёлка finds елка), and Latin letters lose their diacritics: skoda finds Škoda, strasse finds Straße. Cyrillic й stays й."},
			{"numbers", "Numbers and codes match as whole words: a purchase number, an INN or an OKPD2 code such as 21.20.10 (which is searched as the phrase 21 20 10). A number against its unit is the number and the unit (10кг is 10 кг), and digits grouped by spaces are one number (5 000 is 5000)."},
			{"other engines' operators", "In the MCP query, OR, AND and NOT in capitals and a - before a word are the operators |, & and !; in the export's kwords they are words, as spec 4.4 has them. There is no wildcard: постав* is searched as постав, and a whole word already matches its forms. The answer's hints say how such a query was read."},
			{"hyphenated words", "A word is split at every character that is not a letter or a digit, and its parts are searched as a phrase: медико-санитарной finds \"медико санитарной\", 44-ФЗ finds \"44 фз\"."},
			{"partial matches", "When fewer than a page of records match every word, a search tool's first page goes on with partial: records that match more than half the query's weight (a rare word weighs more than a common one), each with lacks, the words it misses; total counts only the records that match the whole query, exclusions always hold, and exact: true leaves partial matches out. The export's kwords has none."},
			{"precedence", "! binds tightest, then AND, then OR: a b | c means (a AND b) OR c. Use parentheses to group otherwise: a (b | c)."},
			{"errors", "A query that cannot be read is rejected with a message naming the character at fault: unbalanced quotes or parentheses, an empty group or phrase, an operator with nothing on one side, or a query, group or OR branch made of exclusions only."},
			{"limits", fmt.Sprintf("A query is at most %d characters, %d words and %d nested groups; each word of a phrase and each part of a code such as 21.20.10 counts as a word. A longer or deeper query is rejected with a message naming the limit.", MaxLength, MaxTerms, MaxDepth)},
		},
	}
}
