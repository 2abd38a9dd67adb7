// Runs the HTTP server in its own process for the server suite (so the load generator does not
// share its event loop): `node serve-child.js <workspaceDir> [recallWorkers]`; prints the URL,
// stops on SIGTERM.
import { startServer } from "@claw/memory-server";

const workspaceDir = process.argv[2];
if (workspaceDir === undefined) throw new Error("usage: serve-child <workspaceDir> [recallWorkers]");
const workers = process.argv[3];
const server = await startServer({
  workspaceDir,
  port: 0,
  env: {},
  embeddings: null,
  limits: { rateLimit: false },
  ...(workers === undefined ? {} : { recallWorkers: Number(workers) }),
});
process.stdout.write(`${server.url}\n`);
process.once("SIGTERM", () => {
  void server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
