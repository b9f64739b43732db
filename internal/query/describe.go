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
			{"AND", "& or a space", "a space or &", "Both sides must be present.",
				"поставка & бумаги", "поставка бумаги"},
			{"OR", "|", "|", "Either side must be present.",
				"бумага | картридж", "бумага | картридж"},
			{"exclusion", "!word, !\"phrase\", !(group)", "!word, !\"phrase\", !(group)",
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
			{"look-alike letters", "Latin letters that look Cyrillic inside a Cyrillic word are read as Cyrillic (пoставка with a Latin o is поставка), and OOO, OAO, AO, TOO in Latin capitals beside a Cyrillic word are read as ООО, ОАО, АО, ТОО."},
			{"languages", "A world notice is analysed in its own language: English, German, French, Spanish, Italian, Portuguese, Dutch, Danish, Swedish, Norwegian, Finnish, Hungarian, Romanian, Irish and Turkish words are stemmed in it, words of other languages (Polish, Czech...) match as written. A query word is looked up in every language at once."},
			{"case, ё and diacritics", "Matching ignores case, ё is the same letter as е (ёлка finds елка), and Latin letters lose their diacritics: skoda finds Škoda, strasse finds Straße. Cyrillic й stays й."},
			{"numbers", "Numbers and codes match as whole words: a purchase number, an INN or an OKPD2 code such as 21.20.10 (which is searched as the phrase 21 20 10)."},
			{"hyphenated words", "A word is split at every character that is not a letter or a digit, and its parts are searched as a phrase: медико-санитарной finds \"медико санитарной\", 44-ФЗ finds \"44 фз\"."},
			{"precedence", "! binds tightest, then AND, then OR: a b | c means (a AND b) OR c. Use parentheses to group otherwise: a (b | c)."},
			{"errors", "A query that cannot be read is rejected with a message naming the character at fault: unbalanced quotes or parentheses, an empty group or phrase, an operator with nothing on one side, or a query, group or OR branch made of exclusions only."},
			{"limits", fmt.Sprintf("A query is at most %d characters, %d words and %d nested groups; each word of a phrase and each part of a code such as 21.20.10 counts as a word. A longer or deeper query is rejected with a message naming the limit.", MaxLength, MaxTerms, MaxDepth)},
		},
	}
}
