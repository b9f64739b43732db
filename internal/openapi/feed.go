package openapi

import (
	"encoding/json"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// feedOperation describes GET /api2.3/feed, which answers what the tool
// feed.changes answers.
func feedOperation(t *tools.Tool) (object, error) {
	var out any
	if err := json.Unmarshal(t.EndpointSchema(), &out); err != nil {
		return nil, fmt.Errorf("openapi: output schema of %s: %w", t.Name, err)
	}
	param := func(name, typ, desc string, required bool, extra object) object {
		s := object{"type": typ}
		for k, v := range extra {
			s[k] = v
		}
		return object{"name": name, "in": "query", "required": required, "description": desc, "schema": s}
	}
	return object{
		"operationId": "feed",
		"summary":     "Changes of a resource since a cursor, to poll instead of searching again.",
		"description": t.Description + " The key is optional, as on the export: in api_code or in an Authorization: Bearer header.",
		"security":    []any{object{}, object{"apiCode": []string{}}, object{"bearer": []string{}}},
		"parameters": []any{
			param("resource", "string", "Whose changes.", true, object{"enum": tenderbase.FeedResourceNames()}),
			param("cursor", "string", "The next_cursor of the page before; none to start at the beginning.", false, object{"maxLength": 64}),
			param("limit", "integer", "Changes a page at most; 20 when left out or 0.", false, object{"minimum": 0, "maximum": tenderbase.MaxFeedPage}),
			param("api_code", "string", "An API key.", false, nil),
		},
		"responses": object{
			"200": object{"description": "A page of changes, oldest first.", "content": object{"application/json": object{"schema": out}}},
			"400": errorResponse("A parameter is unknown, repeated or has a bad value; the cursor is of another resource or damaged.", false, nil),
			"401": errorResponse("A key is given but is unknown, revoked or suspended.", false, nil),
			"429": errorResponse("The key, or the client address of a caller without a key, is over its rate limit.", false, retryAfter()),
			"500": errorResponse("Internal error.", false, nil),
			"503": unavailableResponse(false),
		},
	}, nil
}

// freshnessOperation describes GET /freshness, which answers what the tool
// data.freshness answers.
func freshnessOperation(t *tools.Tool) (object, error) {
	var out any
	if err := json.Unmarshal(t.EndpointSchema(), &out); err != nil {
		return nil, fmt.Errorf("openapi: output schema of %s: %w", t.Name, err)
	}
	return object{
		"operationId": "freshness",
		"summary":     "How current the data is, per sync source and per kind of record.",
		"description": t.Description + " Any valid key, as on the debug endpoints.",
		"security":    []any{object{"bearer": []string{}}},
		"parameters": []any{object{"name": "source", "in": "query", "required": false,
			"description": "One source's report, e.g. eis; all when left out.", "schema": object{"type": "string", "maxLength": 32}}},
		"responses": object{
			"200": object{"description": "The report.", "content": object{"application/json": object{"schema": out}}},
			"400": errorResponse("A parameter is unknown or repeated, or the source is none of this server's.", false, nil),
			"401": errorResponse("No key, or a key that is unknown, revoked or suspended.", false, object{"WWW-Authenticate": header("string", "The Bearer challenge.")}),
			"429": errorResponse("The key is over its rate limit.", false, retryAfter()),
			"500": errorResponse("Internal error.", false, nil),
			"503": unavailableResponse(false),
		},
	}, nil
}
