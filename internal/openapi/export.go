package openapi

import "github.com/tenderbase/tenderbase/internal/export"

// exportOperation describes GET /api2.3/export.
func exportOperation() object {
	return object{
		"operationId": "export",
		"summary":     "Complaints (mode=fasEIS), their results (mode=fasEIS, complaintID, result=1) and FAS cases (mode=fas); analytics.aggregate (mode=aggregate) and ru.flags (mode=flags) as tables.",
		"description": "Records come newest first, a page at a time, in XML (the default), JSON or, as a spreadsheet, XLSX. mode=aggregate and mode=flags answer a table instead, for paid plans: JSON (the default, one object a row), CSV or XLSX, one row a group or a rule, every figure a column (docs/export.md). The key is optional, in api_code or in an Authorization: Bearer header (both only if they carry the same key); without one the answer is the free view: tariff fields are null in JSON and empty elements in XML.",
		"security":    []any{object{}, object{"apiCode": []string{}}, object{"bearer": []string{}}},
		"parameters":  exportParameters(),
		"responses": object{
			"200": object{
				"description": "One page of records.",
				"headers":     exportHeaders(),
				"content": object{
					"application/json": object{"schema": object{"type": "array", "items": object{"oneOf": append(recordSchemas(),
						object{"type": "object", "description": "compat=tg only: the first element, the exact total.",
							"required": []string{"Total"}, "additionalProperties": false,
							"properties": object{"Total": object{"type": "integer", "minimum": 0}}})}}},
					"text/csv": object{"schema": object{"type": "string",
						"description": "dtype=csv with compat=tg: a header row of the record's field names, then one row a record (RFC 4180, UTF-8)."}},
					export.ContentType(export.XLSX): object{"schema": object{
						"description": "dtype=xlsx: a workbook of one sheet named after the mode, the CSV's header row (frozen) and rows, with text, number, date and boolean cells."}},
					"application/xml": object{"schema": object{"type": "string",
						"description": `<export mode="..." page="..." per_page="..." total="..."> with one <complaint>, <complaintResult> or <fasCase> element a record, one child element a field.`}},
				},
			},
			"400": errorResponse("A parameter is unknown, repeated, of the other mode, or has a bad value; a query string pair is not URL-encoded or holds a semicolon; api_code and the Authorization header carry different keys.", true, nil),
			"401": errorResponse("A key is given, in api_code or as a Bearer token, but is unknown, revoked or suspended; or the Authorization header is not a Bearer token.", true, nil),
			"403": errorResponse("A parameter selects by a field the plan does not see (fasSupplierInn, tend_num without a paid plan); mode=aggregate or mode=flags without a paid plan.", true, nil),
			"404": errorResponse("mode=flags: no record holds the purchase number.", true, nil),
			"429": errorResponse("The key, or the client address of a caller without a key, is over its rate limit.", true, retryAfter()),
			"500": errorResponse("Internal error.", true, nil),
			"503": unavailableResponse(true),
		},
	}
}

// exportParameters lists the query parameters from the export's table.
func exportParameters() []any {
	var out []any
	for _, p := range export.Params {
		s := object{"type": p.Type}
		if p.Type == "integer" {
			s["minimum"] = 0
		}
		if p.Maximum > 0 {
			s["maximum"] = p.Maximum
		}
		if p.MaxLength > 0 {
			s["maxLength"] = p.MaxLength
		}
		if p.Pattern != "" && p.Type == "string" {
			s["pattern"] = p.Pattern
		}
		if len(p.Enum) > 0 && p.Type == "string" {
			s["enum"] = p.Enum
		}
		desc := p.Description
		if p.Modes != nil {
			desc = p.ModeList() + " only. " + desc
		}
		if p.PaidOnly() {
			desc += " It selects by a field only paid plans see: without a paid plan it is refused (403)."
		}
		out = append(out, object{"name": p.Name, "in": "query", "required": p.Name == "mode",
			"description": desc, "schema": s})
	}
	return out
}

// exportHeaders lists the headers of a page of the export.
func exportHeaders() object {
	return object{
		"X-Total-Count":       header("integer", "The exact number of matching records."),
		"X-Page":              header("integer", "The page, from 0; from 1 with compat=tg."),
		"X-Per-Page":          header("integer", "The page size used: per_page lowered to the row cap."),
		"X-Row-Cap":           header("integer", "The plan's row cap, when it has one: records past it are never returned."),
		"X-Notice":            header("string", "Why a page holds fewer records than the total allows, when the row cap is the reason."),
		"X-Restricted-Fields": header("string", "The fields hidden from the caller's plan, comma-separated."),
		"Content-Disposition": header("string", "dtype=xlsx: attachment, with the file name of the mode and the page (fasEIS-page-0.xlsx)."),
	}
}
