// Package mcp serves the tools over the Model Context Protocol: JSON-RPC 2.0
// on POST /mcp over Streamable HTTP, stateless, answering every request with
// one application/json body and never opening an SSE stream.
//
// The handler speaks protocol version 2025-06-18 and also answers clients of
// 2025-03-26. A client asking for any other version in initialize gets
// 2025-06-18 and decides whether to go on. The MCP-Protocol-Version header is
// checked on every message but initialize, whose body negotiates the version
// itself: no header means 2025-03-26, an unsupported one is refused with 400.
//
// Errors answer as JSON-RPC error objects with these codes and HTTP statuses:
//
//	-32700  parse error: the body is not JSON, or its id not UTF-8     400
//	-32600  invalid request: not one JSON-RPC request object (a batch
//	        among them), a bad MCP-Protocol-Version header, an object
//	        naming a member twice, an id over 256 bytes                400
//	        a Content-Type that is not JSON                            415
//	        a body over the size limit                                 413
//	        an Origin that is not allowed (DNS rebinding)              403
//	        a method other than POST                                   405
//	-32601  method not found                                           200
//	-32602  invalid params: an unknown tool, arguments that do not
//	        fit the tool's input schema or are not UTF-8               200
//	-32603  internal error, logged; the caller learns nothing more     200
//	-32029  rate limit exceeded for the caller's key; data holds
//	        retry_after in seconds, as does the Retry-After header     429
//	-32003  the tool call took longer than the request's deadline
//	        (the context's cause names the limit)                      503
//	-32043  prompts/get of a prompt the caller's plan does not
//	        include (prompts/list lists only those it does)            200
//	-32053  the store cannot be reached or cannot write (a tool call,
//	        a prompt, or the key looked up before them); data holds
//	        retry_after in seconds, as does the Retry-After header     503
//
// A failure of the tool itself (nothing found, a plan without the right, a
// query that cannot be parsed) is not a protocol error: it is a tools/call
// result with isError true and a text block a model can act on.
package mcp
