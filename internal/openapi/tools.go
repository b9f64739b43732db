package openapi

import (
	"encoding/json"
	"fmt"

	"github.com/tenderbase/tenderbase/internal/tools"
)

// toolOperation describes the debug endpoint of tool t: its body is the
// tool's arguments, its answer the tool's output.
func toolOperation(t *tools.Tool) (object, error) {
	var in, out any
	if err := json.Unmarshal(t.InputSchema, &in); err != nil {
		return nil, fmt.Errorf("openapi: input schema of %s: %w", t.Name, err)
	}
	if err := json.Unmarshal(t.EndpointSchema(), &out); err != nil {
		return nil, fmt.Errorf("openapi: output schema of %s: %w", t.Name, err)
	}
	return object{
		"operationId": t.Name,
		"summary":     t.Title,
		"description": t.Description,
		"security":    []any{object{"bearer": []string{}}},
		"requestBody": object{"required": false, "content": object{"application/json": object{"schema": in}}},
		"responses": object{
			"200": object{
				"description": "The tool's output.",
				"headers":     object{"X-Restricted-Fields": header("string", "The fields hidden from the caller's plan (null in the output), comma-separated.")},
				"content":     object{"application/json": object{"schema": out}},
			},
			"400": errorResponse("The arguments do not fit the input schema, or a value is wrong.", false, nil),
			"401": errorResponse("No key, or a key that is unknown, revoked or suspended.", false, object{"WWW-Authenticate": header("string", "The Bearer challenge.")}),
			"403": errorResponse("The key's plan does not allow this.", false, nil),
			"404": errorResponse("Nothing has the id, number or INN given.", false, nil),
			"429": errorResponse("The key is over its rate limit.", false, retryAfter()),
			"500": errorResponse("Internal error.", false, nil),
			"503": unavailableResponse(false),
		},
	}, nil
}
