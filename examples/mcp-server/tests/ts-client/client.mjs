// Drives isomer-mcp-server with the official MCP TypeScript SDK and prints
// what it saw as one JSON object on stdout, for tests/ts_client.rs to check.
//
//   node client.mjs http http://127.0.0.1:PORT/mcp
//   node client.mjs stdio /path/to/isomer-mcp-server
//
// Exits 1 with the error on stderr when any step fails.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target] = process.argv.slice(2);
let transport;
if (mode === "http") {
  transport = new StreamableHTTPClientTransport(new URL(target));
} else if (mode === "stdio") {
  transport = new StdioClientTransport({ command: target, stderr: "ignore" });
} else {
  console.error("usage: node client.mjs http <url> | stdio <command>");
  process.exit(2);
}

const slide = {
  type: "view",
  title: "Ledger",
  body: [
    {
      type: "slideFrame",
      tone: "inverse",
      body: [{ type: "slideTitle", title: "Ledger", tagline: "One nightly batch" }],
    },
  ],
};

const client = new Client({ name: "isomer-ts-client", version: "1.0.0" });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const validate = await client.callTool({
    name: "isomer_validate",
    arguments: { composition: slide },
  });
  const invalid = await client.callTool({
    name: "isomer_validate",
    arguments: { composition: { type: "view", body: [] }, extra: 1 },
  });
  const text = await client.callTool({
    name: "isomer_render",
    arguments: { composition: slide, format: "text" },
  });
  const svg = await client.callTool({
    name: "isomer_render",
    arguments: { composition: slide, format: "svg" },
  });
  const guide = await client.readResource({ uri: "isomer://authoring-guide" });
  const prompt = await client.getPrompt({
    name: "compose",
    arguments: { request: "A title slide for Ledger" },
  });
  const summary = {
    server: client.getServerVersion(),
    tools: tools.map((tool) => tool.name),
    validate: {
      isError: validate.isError ?? false,
      structuredContent: validate.structuredContent,
    },
    invalid: { isError: invalid.isError ?? false, text: invalid.content[0].text },
    text: text.content.map((block) => block.text),
    svg: svg.content.map((block) => ({
      type: block.type,
      mimeType: block.mimeType,
      starts: Buffer.from(block.data, "base64").toString("utf8").slice(0, 4),
    })),
    guide: guide.contents.map((entry) => ({
      uri: entry.uri,
      mimeType: entry.mimeType,
      firstLine: entry.text.split("\n")[0],
    })),
    prompt: prompt.messages.map((message) => ({
      role: message.role,
      lastLine: message.content.text.trimEnd().split("\n").at(-1),
    })),
  };
  await client.close();
  process.stdout.write(JSON.stringify(summary) + "\n");
} catch (error) {
  console.error(`isomer-ts-client: ${error?.stack ?? error}`);
  process.exit(1);
}
