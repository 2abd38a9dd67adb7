#!/usr/bin/env node
// Writes docs/http.md from the OpenAPI document the server builds from its own routes (a server
// over a keyword-only store in a temp folder, asked through inject()). The server's test
// openapi/http-reference.test.ts fails when the committed page differs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const server = join(root, "apps/memory-server/dist");
execFileSync(
  "pnpm",
  ["turbo", "run", "build", "--filter=@claw/memory-server...", "--output-logs=errors-only"],
  {
    cwd: root,
    stdio: "inherit",
  },
);
const { createMemory, parseConfig } = await import(
  pathToFileURL(join(root, "packages/memory-core/dist/index.js")).href
);
const { buildServer } = await import(pathToFileURL(join(server, "build-server.js")).href);
const { renderHttpReference } = await import(pathToFileURL(join(server, "openapi/http-reference.js")).href);

const workspaceDir = mkdtempSync(join(tmpdir(), "claw-http-reference-"));
try {
  const memory = await createMemory({ workspaceDir, embeddings: null });
  const token = "http-reference-token";
  const app = buildServer({
    memory,
    config: parseConfig({}),
    tokens: [{ token, name: "admin", readOnly: false }],
  });
  const response = await app.inject({
    method: "GET",
    url: "/openapi.json",
    headers: { authorization: `Bearer ${token}` },
  });
  writeFileSync(join(root, "docs/http.md"), renderHttpReference(response.json()));
  await app.close();
  await memory.close();
  console.log("http-reference: wrote docs/http.md");
} finally {
  rmSync(workspaceDir, { recursive: true, force: true });
}
