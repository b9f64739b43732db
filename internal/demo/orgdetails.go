package demo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// What the register says of a few of the demo's organizations beyond
// their head and address, as EGRUL extracts say it of real ones: a company
// run by a managing organization in place of a director (СвУпрОрг), whose
// head is then empty, and a company with branches and a representative
// office in other regions (СвПодразд), each registered with the tax
// office there under a KPP of its own.

// orgDetailsSeed is the seed of these details, drawn apart from the
// demo's main stream so that the records made after them stay as they
// were.
const orgDetailsSeed = Seed + 9

// The demo's managed company, its managing organization, and the company
// with branches, by their short names.
const (
	managedName  = "ООО «МедТехСнаб»"
	managerName  = "ООО «Фармстандарт-Регион»"
	branchedName = "АО «СЗФК»"
)

// KPP reason codes of a subdivision's registration: a branch, a
// representative office.
const (
	branchReason = "43"
	officeReason = "44"
)

// buildOrgDetails gives the managed company its manager and the company
// with branches its branches and representative office.
func (b *builder) buildOrgDetails() {
	s := newSource(orgDetailsSeed)
	byShort := map[string]*tenderbase.Org{}
	for _, o := range b.orgs {
		byShort[o.ShortName] = o
	}
	managed, manager, branched := byShort[managedName], byShort[managerName], byShort[branchedName]
	if managed == nil || manager == nil || branched == nil {
		panic("demo: the organizations given register details are not in the cast")
	}
	if manager.RegisteredAt.After(managed.RegisteredAt) {
		// The extract dates the manager's record by the company's registration.
		panic("demo: the managing organization is younger than the company it manages")
	}
	managed.Head, managed.HeadPosition = "", ""
	managed.Managers = []tenderbase.OrgManager{{Name: manager.Name, INN: manager.INN, OGRN: manager.OGRN, Address: manager.Address}}
	others := slices.DeleteFunc(slices.Clone(regions), func(r region) bool { return r.Code == branched.Region })
	for i := range 3 {
		j := s.intn(len(others))
		r := others[j]
		others = slices.Delete(others, j, j+1)
		kind, reason, name := tenderbase.BranchOffice, branchReason, "Филиал"
		if i == 2 {
			kind, reason, name = tenderbase.RepresentativeOffice, officeReason, "Представительство"
		}
		addr, err := registerAddressOf(r.Code, s.address(r))
		if err != nil {
			panic("demo: " + err.Error())
		}
		branched.Branches = append(branched.Branches, tenderbase.OrgBranch{
			Kind: kind, Name: fmt.Sprintf("%s %s %s", name, branched.ShortName, strings.TrimSpace(r.FASTo)),
			KPP: s.taxOffice(r) + reason + "001", Address: addr.String(),
		})
	}
}
