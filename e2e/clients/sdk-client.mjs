// sdk-client connects to a Tenderbase MCP server with the official TypeScript
// SDK client, lists the tools and calls each one given, and prints what it saw
// as JSON for the Go end-to-end test to check.
//
// Usage: node sdk-client.mjs URL KEY CALLS_JSON
// CALLS_JSON is [{"name": "ru.search", "arguments": {...}}, ...].
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key, callsJSON] = process.argv.slice(2);
const calls = JSON.parse(callsJSON);

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
const client = new Client({ name: "tenderbase-e2e", version: "1.0.0" });
await client.connect(transport);

const listed = await client.listTools();
const results = [];
for (const call of calls) {
  const res = await client.callTool({ name: call.name, arguments: call.arguments });
  results.push({
    name: call.name,
    isError: res.isError ?? false,
    structuredContent: res.structuredContent ?? null,
    text: res.content?.[0]?.text ?? "",
  });
}
console.log(JSON.stringify({
  serverVersion: client.getServerVersion(),
  protocolVersion: transport.protocolVersion ?? null,
  tools: listed.tools.map((t) => t.name),
  results,
}));
await client.close();
