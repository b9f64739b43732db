package eis

import (
	"encoding/xml"

	"github.com/tenderbase/tenderbase"
)

// contractCancels decodes the annulments of 44-FZ registry entries of
// contracts.
var contractCancels = map[string]documentFunc{"contractCancel": decodeContractCancels}

// contractCancel44 is a <contractCancel>: the registry entry of a contract
// is annulled (the contract was entered in error, or a court voided it).
// It names the contract by its registry number and has no number of its
// own.
type contractCancel44 struct {
	RegNum       string  `xml:"regNum"`
	CancelDate   eisTime `xml:"cancelDate"`
	PublishDate  eisTime `xml:"publishDate"`
	DocumentBase string  `xml:"documentBase"`
}

// decodeContractCancels decodes the <contractCancel> that start opens and
// every one after it in the same <export>, each into a withdrawal of the
// contract it names.
func decodeContractCancels(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	return decodeEach(d, start, func(start xml.StartElement, n int) (tenderbase.Record, error) {
		var w contractCancel44
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, contractDecodeError(src.kind, n, err)
		}
		return w.withdrawal(src.kind, n)
	})
}

// withdrawal adapts the n-th annulment of the file. Its id is the kind of
// document and the contract's registry number: an entry is annulled once.
func (w *contractCancel44) withdrawal(kind string, n int) (*tenderbase.Withdrawal, error) {
	reg := cleanText(w.RegNum)
	if reg == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s %d of the file has no registry number", kind, n)
	}
	return &tenderbase.Withdrawal{
		ID:          kind + "-" + reg,
		TargetKind:  tenderbase.KindContract,
		TargetKey:   reg,
		Document:    kind,
		PublishedAt: firstTime(w.PublishDate.Time, w.CancelDate.Time),
		Reason:      joinNonEmpty([]string{describeDocument("аннулирование", "", w.CancelDate.Time, ""), cleanText(w.DocumentBase)}, "; "),
	}, nil
}
