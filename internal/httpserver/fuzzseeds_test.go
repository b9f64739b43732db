package httpserver_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolSeed returns the arguments of the call of tool that its golden file
// in internal/tools pins, which TestGolden proves valid on the demo
// dataset; the file's first line is the tool's name and the arguments.
func toolSeed(tb testing.TB, tool string) string {
	tb.Helper()
	golden, err := os.ReadFile(filepath.Join("..", "tools", "testdata", tool+".golden"))
	if err != nil {
		tb.Fatalf("no seed for the tool %s: %v", tool, err)
	}
	first, _, _ := strings.Cut(string(golden), "\n")
	name, args, _ := strings.Cut(first, " ")
	if name != tool || !json.Valid([]byte(args)) {
		tb.Fatalf("the golden file of %s does not start with the tool's name and arguments: %q", tool, first)
	}
	return args
}

// jsonBody is the header bits of Content-Type: application/json.
const jsonBody = 1 << contentTypeBits

// addSeeds adds a valid call of every tool, over MCP and its debug
// endpoint, with a free and a paid key; every export form in each format,
// CSV under compat=tg, without a key and with a paid one; and the hostile
// seeds.
func (fz *fuzzServer) addSeeds(f *testing.F) {
	mcp := fz.route("/mcp")
	for _, tool := range fz.tools {
		args := toolSeed(f, tool.Name)
		debug := fz.route("/mcp/" + tool.Group + "/" + tool.Operation)
		for _, key := range []string{"free", "standard"} {
			f.Add(debug, keyIndex(key), uint8(jsonBody), "", []byte(args))
			f.Add(mcp, keyIndex(key), uint8(jsonBody), "", []byte(toolCall(tool.Name, args)))
		}
	}
	for _, form := range exportForms {
		for _, format := range []string{"&dtype=xml", "&dtype=json", "&dtype=csv&compat=tg"} {
			for _, key := range []string{"none", "standard"} {
				f.Add(fz.route(exportPath), keyIndex(key), uint8(0), form.query+format, []byte(nil))
			}
		}
	}
	for _, s := range hostileSeeds() {
		f.Add(fz.route(s.path), keyIndex(s.key), s.header, s.target, []byte(s.body))
	}
}

// toolCall is the JSON-RPC request that calls the tool name with args.
func toolCall(name, args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

// fuzzSeed is a seed written by hand.
type fuzzSeed struct {
	path, key string
	header    uint8
	target    string
	body      string
}

// hostileSeeds are the inputs a hostile or broken client sends: NUL bytes,
// invalid UTF-8, huge arrays, deep and long queries, duplicate members,
// malformed query strings, inputs that an error could echo, and the
// protocol's odd corners.
func hostileSeeds() []fuzzSeed {
	var seeds []fuzzSeed
	for _, group := range [][]fuzzSeed{mcpSeeds(), argumentSeeds(), exportSeeds(), otherSeeds()} {
		seeds = append(seeds, group...)
	}
	return seeds
}

func mcpSeeds() []fuzzSeed {
	rpc := func(key string, header uint8, body string) fuzzSeed {
		return fuzzSeed{"/mcp", key, header, "", body}
	}
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	return []fuzzSeed{
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`),
		rpc("guru", jsonBody, `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`),
		rpc("corporate", jsonBody|1<<versionBits, ping),
		rpc("free", jsonBody|3<<versionBits, ping),
		rpc("free", jsonBody|2<<originBits, ping),
		rpc("free", 2<<contentTypeBits, ping),
		rpc("free", otherMethod, ""),
		rpc("free", jsonBody|secondAuth, ping),
		rpc("limited", jsonBody, ping),
		rpc("bogus", jsonBody, ping),
		rpc("none", jsonBody, ping),
		{"/mcp", "none", jsonBody, "api_key=tb_x", ping},
		rpc("free", jsonBody, `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
		rpc("free", jsonBody, `[`+ping+`]`),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1,"method":"nope"}`),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":null,"method":"ping"}`),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`),
		rpc("free", jsonBody, "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}"),
		rpc("free", jsonBody, "{\"0000000\":\"000\",\"id\":\"\xb40\"}"),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":"`+strings.Repeat("i", 100_000)+`","method":"nope"}`),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1,"method":"`+strings.Repeat("m", 100_000)+`"}`),
		rpc("free", jsonBody, toolCall(strings.Repeat("t", 100_000), `{}`)),
		rpc("free", jsonBody, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.detail","name":"ru.search","arguments":{"query":"охраны"}}}`),
		rpc("free", jsonBody, toolCall("ru.detail", `{"id":"\u0000"}`)),
		rpc("free", jsonBody, toolCall("ru.search", `{"query":"охраны","regions":[`+strings.Repeat("77,", 100_000)+`77]}`)),
		rpc("free", jsonBody, toolCall("docs.search", `{"query":"`+strings.Repeat("(", 40)+`закупка`+strings.Repeat(")", 40)+`"}`)),
	}
}

// argumentSeeds are hostile arguments of the tools' debug endpoints.
func argumentSeeds() []fuzzSeed {
	call := func(tool, args string) fuzzSeed {
		return fuzzSeed{"/mcp/" + strings.ReplaceAll(tool, ".", "/"), "standard", jsonBody, "", args}
	}
	return []fuzzSeed{
		call("ru.detail", `{"id":"\u0000"}`),
		call("ru.detail", `{"id":"0162307330524391275\u0000"}`),
		call("ru.detail", "{\"id\":\"\x00\"}"),
		call("ru.detail", "{\"id\":\"\xff\"}"),
		call("ru.detail", `{"id":"0162307330524391275","id":"x"}`),
		call("ru.detail", `{"id":"`+strings.Repeat("9", 900_000)+`"}`),
		call("ru.izm", `{"tend_num":"\u0000"}`),
		call("contracts.detail", `{"id":"\u0000"}`),
		call("contragent.byInn", `{"inn":"\u0000"}`),
		call("contragent.contacts", `{"inn":"1601303298\u0000"}`),
		call("world.detail", `{"id":"ted:\u0000"}`),
		call("torgi.detail", `{"id":"\u0000"}`),
		call("ru.search", `{"query":"\u0000"}`),
		call("ru.search", "{\"query\":\"\xff\xfe\"}"),
		call("ru.search", `{"query":"a","query":"охраны"}`),
		call("ru.search", `{"query":"охраны","regions":[`+strings.Repeat("77,", 100_000)+`77]}`),
		call("ru.search", `{"query":"охраны","regions":[0,100,-1]}`),
		call("ru.search", `{"query":"охраны","regions":[1e400]}`),
		call("ru.search", `{"query":"охраны","page":1e20}`),
		call("ru.search", `{"query":"охраны","filters":{`+strings.Repeat(`"r77":1,`, 50_000)+`"r16":1}}`),
		call("ru.search", `{"query":"охраны","`+strings.Repeat("x", 100_000)+`":1}`),
		call("ru.search", `{"query":"`+strings.Repeat("(", 32)+`охраны`+strings.Repeat(")", 32)+`"}`),
		call("ru.search", `{"query":"`+strings.Repeat("(", 10_000)+`"}`),
		call("ru.search", `{"query":"`+strings.TrimSuffix(strings.Repeat("охраны | ", 110), " | ")+`"}`),
		call("ru.search", `{"query":"`+strings.Repeat("а", 100_000)+`"}`),
		call("ru.search", `{"query":"`+strings.Repeat("a", 1<<20)+`"}`),
		call("world.search", `{"query":"school","countries":[`+strings.Repeat("276,", 100_000)+`40]}`),
		call("torgi.search", `{"query":"оборудование","regions":[`+strings.Repeat("74,", 100_000)+`74]}`),
		call("contracts.search", `{"query":"уборка","filters":{"fz44":1,"fz44":2}}`),
		{"/mcp/ru/search", "standard", 0, "%zz", `{"query":"охраны"}`},
		{"/mcp/ru/detail", "none", jsonBody, "api_key=tb_x", `{"id":"0162307330524391275"}`},
		{"/mcp/ru/nope", "free", jsonBody, "", `{}`},
	}
}

// exportSeeds are hostile query strings of the export.
func exportSeeds() []fuzzSeed {
	get := func(key, query string) fuzzSeed { return fuzzSeed{exportPath, key, 0, query, ""} }
	deep := url.QueryEscape(strings.Repeat("(", 33) + "закупки" + strings.Repeat(")", 33))
	return []fuzzSeed{
		get("none", "mode=fasEIS&tend_num=%00"),
		get("none", "mode=fas&kwords=%00"),
		get("none", "mode=fasEIS&complaintID=%00&result=1"),
		get("none", "mode=fasEIS&complaintID=%00"),
		get("none", "mode=fas&id=%00"),
		get("none", "mode=fasEIS&tend_num=1&complaint_regNumber=%00"),
		get("none", "mode=fasEIS&api_code=%00"),
		get("none", "mode=fasEIS&api_code=tb_%00&dtype=json"),
		get("none", "mode=fas&kwords=%FF%FE"),
		get("none", "mode=fasEIS&complaintID=%FF&dtype=json"),
		get("free", "mode=fAsEIS&complaintID=%800"),
		get("none", "mode=%FF"),
		get("none", "mode=fasEIS&dtype=%FF"),
		get("none", "%zz"),
		get("none", "mode=fasEIS&%zz"),
		get("none", "mode=fasEIS&tend_num=%zz"),
		get("none", "mode=fas&kwords=a%zzb&dtype=json"),
		get("none", "mode=fasEIS;dtype=json"),
		get("none", "mode=fas&mode=fasEIS"),
		get("none", "mode=fasEIS&dtype=json&dtype=xml"),
		get("none", "mode=fasEIS&page=1&page=2"),
		get("none", "mode=fasEIS&dtype=csv"),
		get("none", "mode=fasEIS&compat=%FF&dtype=csv"),
		get("free", "mode=fasEIS&compat=tg&page=0&dtype=csv"),
		get("free", "mode=fas&kwords=%zz&dtype=csv&compat=tg"),
		get("limited", "mode=fasEIS&dtype=csv&compat=tg"),
		get("free", "mode=fasEIS&per_page=99999999999999999999"),
		get("free", "mode=fasEIS&page=-1"),
		get("free", "mode=fasEIS&per_page=0&dtype=json"),
		get("free", "mode=fasEIS&result=1"),
		get("limited", "mode=fasEIS"),
		get("bogus", "mode=fasEIS&dtype=json"),
		get("guru", "mode=fas&kwords="+deep),
		get("corporate", "mode=fas&kwords="+strings.Repeat("%D0%B0", 10_000)),
		get("none", "mode=fasEIS&tend_num="+strings.Repeat("1a", 50_000)),
		get("none", "mode="+strings.Repeat("x", 100_000)),
		get("none", strings.Repeat("x", 100_000)+"=1&mode=fas"),
		{exportPath, "none", otherMethod, "mode=fasEIS", ""},
	}
}

// otherSeeds are requests of the other endpoints and of paths no route
// serves.
func otherSeeds() []fuzzSeed {
	return []fuzzSeed{
		{"/health", "none", 0, "", ""},
		{"/health", "none", otherMethod, "", ""},
		{"/health", "free", 0, "%00", ""},
		{"/search/syntax", "none", 0, "", ""},
		{"/openapi.json", "none", 0, "", ""},
		{"", "none", 0, "nope", ""},
		{"", "none", 0, ".well-known/oauth-authorization-server", ""},
		{"", "free", jsonBody, "mcp/ru", `{}`},
		{"", "none", 0, "api2.3/export/", ""},
		{"", "none", 0, "a/../health", ""},
		{"", "none", 0, "%zz", ""},
		{"", "none", 0, "\xff", ""},
		{"", "none", 0, "%00", ""},
	}
}
