/**
 * The landing page's copy-ready examples for this deployment: curl, the TypeScript and Python SDKs
 * (clients/), and the MCP client configurations. The SDK examples are run against a Worker by the
 * SDKs' own tests (clients/test.sh passes them on), so they stay the SDKs' real API. Imports nothing:
 * Node scripts import this file directly.
 */
export function examples(origin: string) {
  const key = "wk_live_...";
  return {
    curl: `curl -H "x-api-key: ${key}" "${origin}/api/v1/wilayah/search?q=gambir%20jakarta"\ncurl -H "x-api-key: ${key}" "${origin}/api/v1/wilayah/reverse?lat=-6.90827&lng=107.626971"`,
    js: `import { createWilayahClient, searchRegions } from "wilayah-api-client";

const client = createWilayahClient({ baseUrl: "${origin}", apiKey: process.env.WILAYAH_API_KEY });
const { data: found } = await searchRegions({ client, query: { q: "gambir jakarta" } });
console.log(found.data[0].name, found.data[0].parent);`,
    python: `import os

from wilayah_api import Client

with Client("${origin}", api_key=os.environ["WILAYAH_API_KEY"]) as client:
    found = client.search_regions(q="gambir jakarta")
    print(found["data"][0]["name"], found["data"][0]["parent"])`,
    mcp: `// Claude Desktop (claude_desktop_config.json), through mcp-remote:
{ "mcpServers": { "wilayah": { "command": "npx",
  "args": ["-y", "mcp-remote", "${origin}/mcp", "--header", "x-api-key:${key}"] } } }

// Cursor (~/.cursor/mcp.json):
{ "mcpServers": { "wilayah": { "url": "${origin}/mcp", "headers": { "x-api-key": "${key}" } } } }

// VS Code (.vscode/mcp.json):
{ "servers": { "wilayah": { "type": "http", "url": "${origin}/mcp", "headers": { "x-api-key": "${key}" } } } }`,
  };
}
