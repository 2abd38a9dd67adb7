// Runs the HTTP server in its own process for the server suite (so the load generator does not
// share its event loop): `node serve-child.js <workspaceDir>`; prints the URL, stops on SIGTERM.
import { startServer } from "@claw/memory-server";

const workspaceDir = process.argv[2];
if (workspaceDir === undefined) throw new Error("usage: serve-child <workspaceDir>");
const server = await startServer({
  workspaceDir,
  port: 0,
  env: {},
  embeddings: null,
  limits: { rateLimit: false },
});
process.stdout.write(`${server.url}\n`);
process.once("SIGTERM", () => {
  server.close().then(() => process.exit(0));
});
