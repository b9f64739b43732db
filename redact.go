package tenderbase

import (
	"net/url"
	"regexp"
	"strings"
)

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

var (
	// urlInText is a URL within a message, up to a space or a quote.
	urlInText = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s"'<>]+`)
	// secretInText is a name that says a secret follows, and its value:
	// token=..., "password": "...", individualPerson_token: ..., and
	// Authorization: Bearer ...
	secretInText = regexp.MustCompile(`(?i)([a-z_]*(?:token|password|passwd|secret|api_code|api_key|authorization)[a-z_]*` +
		`["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?[^\s"'&,;<>]+`)
	// secretElement is the text of an XML element named for a secret: a
	// SOAP envelope's <individualPerson_token>, as a fault may echo it.
	secretElement = regexp.MustCompile(`(?i)(<[a-z0-9_:]*(?:token|password|secret)[^>]*>)[^<]*`)
)

// RedactText returns a message, such as a sync's error, as an answer to
// a caller may show it: its URLs redacted as RedactURL does, the values
// that follow a name of a secret (token=, password:, Authorization:) and
// the text of XML elements named for one replaced by "…", and each of the
// secrets given (the EIS token, a password) removed wherever it appears,
// since a publisher's answer may echo one in any form.
func RedactText(s string, secrets ...string) string {
	for _, secret := range secrets {
		// A secret of a character or two would blank the message.
		if len(strings.TrimSpace(secret)) >= 4 {
			s = strings.ReplaceAll(s, secret, "…")
		}
	}
	s = urlInText.ReplaceAllStringFunc(s, func(u string) string {
		// A URL ends a sentence without its full stop or parenthesis.
		trimmed := strings.TrimRight(u, ".,;:)]")
		return RedactURL(trimmed) + u[len(trimmed):]
	})
	s = secretElement.ReplaceAllString(s, "$1…")
	return secretInText.ReplaceAllString(s, "$1…")
}
