// client connects from a web page to a Tenderbase MCP server with the
// official TypeScript SDK client, lists the tools, calls one, and writes what
// it saw as JSON to document.body.dataset.result for the Go end-to-end test
// (e2e/browser_test.go) to read. The test bundles it with esbuild.
//
// The page's fragment says what to do: #url=URL&key=KEY&call=CALL_JSON, CALL_JSON
// being {"name": "ru.search", "arguments": {...}}. The fragment never reaches
// the page's server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

async function run(params) {
  const seen = { origin: location.origin, tools: null, call: null, error: null };
  const transport = new StreamableHTTPClientTransport(new URL(params.get("url")), {
    requestInit: { headers: { Authorization: `Bearer ${params.get("key")}` } },
  });
  const client = new Client({ name: "tenderbase-e2e-browser", version: "1.0.0" });
  try {
    await client.connect(transport);
    seen.tools = (await client.listTools()).tools.map((t) => t.name);
    const call = JSON.parse(params.get("call"));
    const res = await client.callTool({ name: call.name, arguments: call.arguments });
    seen.call = { name: call.name, isError: res.isError ?? false, content: res.content ?? [] };
  } catch (err) {
    seen.error = { name: err?.name ?? "", message: err?.message ?? String(err) };
  } finally {
    await client.close().catch(() => {});
  }
  return seen;
}

run(new URLSearchParams(location.hash.slice(1))).then((seen) => {
  document.body.dataset.result = JSON.stringify(seen);
});
