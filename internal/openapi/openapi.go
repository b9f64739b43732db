// Package openapi builds the OpenAPI 3.1 document of the service's plain
// HTTP interface: the export (GET /api2.3/export), the feed of changes
// (GET /api2.3/feed), how current the data is (GET /freshness) and the
// debug endpoints of the tools (POST
// /mcp/{group}/{operation}). The document is generated
// from the same tables the service runs on: the export's parameters and
// record fields, and each tool's input and output schemas.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// Version is the version of the OpenAPI specification the document follows.
const Version = "3.1.0"

// object is a JSON object of the document.
type object = map[string]any

// Document returns the OpenAPI document of the export and of the debug
// endpoints of tools, as JSON.
func Document(ts []*tools.Tool) ([]byte, error) {
	paths := object{
		"/api2.3/export": object{"get": exportOperation()},
		"/openapi.json":  object{"get": selfOperation()},
	}
	for _, t := range ts {
		op, err := toolOperation(t)
		if err != nil {
			return nil, err
		}
		paths["/mcp/"+t.Group+"/"+t.Operation] = object{"post": op}
		if t.Name == "feed.changes" {
			if op, err = feedOperation(t); err != nil {
				return nil, err
			}
			paths["/api2.3/feed"] = object{"get": op}
		}
		if t.Name == "data.freshness" {
			if op, err = freshnessOperation(t); err != nil {
				return nil, err
			}
			paths["/freshness"] = object{"get": op}
		}
	}
	doc := object{
		"openapi": Version,
		"info": object{
			"title":       "Tenderbase",
			"version":     "2.3",
			"description": "The antimonopoly export API and the debug endpoints of the MCP tools. The MCP endpoint itself (POST /mcp, JSON-RPC 2.0) is described by the tools/list method.",
		},
		// The document is served by the server it describes, at any
		// address: a relative URL is that server.
		"servers": []any{object{"url": "/", "description": "The server that serves this document."}},
		"paths":   paths,
		"components": object{"securitySchemes": object{
			"bearer":  object{"type": "http", "scheme": "bearer", "description": "An API key: Authorization: Bearer <key>."},
			"apiCode": object{"type": "apiKey", "in": "query", "name": "api_code", "description": "An API key in the query string; optional on the export."},
		}},
	}
	return marshal(doc)
}

// marshal encodes v as indented JSON, keeping <, > and & as they are.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// selfOperation describes GET /openapi.json.
func selfOperation() object {
	return object{
		"operationId": "openapi",
		"summary":     "This document.",
		"security":    []any{object{}}, // open to anyone, key or none
		"responses": object{"200": object{
			"description": "The OpenAPI document.",
			"content":     object{"application/json": object{"schema": object{"type": "object"}}},
		}},
	}
}

// errorSchema is the schema of the JSON body of every error.
func errorSchema() object {
	return object{
		"type":     "object",
		"required": []string{"error"},
		"properties": object{"error": object{
			"type":     "object",
			"required": []string{"code", "message"},
			"properties": object{
				"code":    object{"type": "string", "enum": []string{"invalid", "not_found", "unauthorized", "forbidden", "rate_limited", "timeout", "unavailable", "internal"}},
				"message": object{"type": "string"},
			},
		}},
	}
}

// errorResponse is an error answer with a JSON body, and an XML one where
// withXML is set (the export writes errors in the format asked for).
func errorResponse(description string, withXML bool, headers object) object {
	content := object{"application/json": object{"schema": errorSchema()}}
	if withXML {
		content["application/xml"] = object{"schema": object{"type": "string",
			"description": `<error code="...">message</error>`}}
	}
	r := object{"description": description, "content": content}
	if headers != nil {
		r["headers"] = headers
	}
	return r
}

// header describes a response header of type typ.
func header(typ, description string) object {
	return object{"description": description, "schema": object{"type": typ}}
}

// retryAfter is the header of every 429, and of a 503 unavailable.
func retryAfter() object {
	return object{"Retry-After": header("integer", "Seconds to wait before the next request.")}
}

// unavailableResponse is the 503 of every endpoint that reads the store, in
// XML too where withXML is set.
func unavailableResponse(withXML bool) object {
	return errorResponse("The request took longer than the server's limit of one request (code timeout), "+
		"or the store cannot be reached or cannot write at the moment (code unavailable, with Retry-After: the service answers again by itself once the store is back); nothing was returned.",
		withXML, retryAfter())
}

// recordSchemas lists the schemas of the export's records.
func recordSchemas() []any {
	var out []any
	for _, k := range export.Kinds {
		out = append(out, export.Schema(k.Kind))
	}
	return out
}
