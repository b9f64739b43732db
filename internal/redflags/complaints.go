package redflags

import (
	"fmt"
	"strings"
)

const sourceComplaints = "EU indicator toolbox: complaints from bidders; 44-FZ art. 106 (complaint founded)"

// Results of a check that uphold a complaint, as the EIS codes them
// (complaintResult): founded, or founded in part.
const (
	complaintViolations = "COMPLAINT_VIOLATIONS"
	complaintPartly     = "COMPLAINT_PARTLY_VALID"
	complaintNone       = "COMPLAINT_NO_VIOLATIONS"
)

// complaintsUpheld fires when a check found a complaint about the purchase
// founded, wholly or in part.
func complaintsUpheld(e Evidence) Flag {
	f := Flag{Rule: "complaints_upheld", Source: sourceComplaints}
	decided := map[string]bool{}
	fired := false
	for _, r := range e.Results {
		switch r.ComplaintResult {
		case complaintViolations, complaintPartly:
			fired = true
			f.Because = append(f.Because, fmt.Sprintf("check %s of %s on complaint %s: %s", orOf(r.CheckResultNumber, r.DocNumber, r.RegNumber), day(r.DecisionDate, r.PublishDate),
				orOf(r.ComplaintNumber, r.ComplaintRegNumber, "(unnamed)"), upheld(r.ComplaintResult)))
		case complaintNone:
			f.Because = append(f.Because, fmt.Sprintf("check %s of %s on complaint %s: not founded", orOf(r.CheckResultNumber, r.DocNumber, r.RegNumber), day(r.DecisionDate, r.PublishDate),
				orOf(r.ComplaintNumber, r.ComplaintRegNumber, "(unnamed)")))
		default:
			continue
		}
		decided[r.ComplaintNumber] = true
		decided[r.ComplaintRegNumber] = true
	}
	var open []string
	for _, c := range e.Complaints {
		if !decided[c.ComplaintNumber] && !decided[c.RegNum] {
			open = append(open, c.ComplaintNumber)
		}
	}
	if len(e.Complaints)+len(e.Results) > 0 {
		f.Open = []string{"GET /api2.3/export?mode=fasEIS&tend_num=" + e.PurchaseNumber}
	}
	if fired {
		return f.is(true)
	}
	if len(open) > 0 {
		return f.cannotTell(fmt.Sprintf("no stored check result decides complaint %s", strings.Join(open, ", ")))
	}
	if len(e.Results) == 0 && len(e.Complaints) == 0 {
		return f.notFired("no complaint about the purchase and no check result is stored")
	}
	return f.is(false)
}

func upheld(result string) string {
	if result == complaintPartly {
		return "founded in part"
	}
	return "founded"
}
