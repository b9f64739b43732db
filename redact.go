package tenderbase

import "net/url"

// RedactURL returns rawURL as logs and error messages may show it: without
// its user information and fragment, and with its query replaced by "?…",
// since a webhook's or a relay's URL often carries a password or a token
// in either. A value that does not parse as a URL is not repeated at all.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "a URL that does not parse"
	}
	query := u.RawQuery != "" || u.ForceQuery
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	if query {
		return u.String() + "?…"
	}
	return u.String()
}
