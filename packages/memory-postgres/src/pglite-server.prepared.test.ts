// PGlite is one session: the socket server keeps each connection's prepared statements apart.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgliteSocketServer, servePglite } from "./pglite-server.js";

describe("servePglite: prepared statements per connection", () => {
  let db: PGlite;
  let server: PgliteSocketServer;
  beforeAll(async () => {
    db = await PGlite.create();
    server = await servePglite(db);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    return client;
  }

  it("lets two connections prepare one name for different statements, and drops a closed one's", async () => {
    const a = await connect();
    const b = await connect();
    const ask = (client: pg.Client, text: string) =>
      client.query<{ v: number }>({ name: "same", text }).then((r) => r.rows[0]?.v);
    expect(await ask(a, "SELECT 1 AS v")).toBe(1);
    expect(await ask(b, "SELECT 2 AS v")).toBe(2);
    // Each runs its own again (node-postgres now only binds and executes the name).
    expect(await ask(a, "SELECT 1 AS v")).toBe(1);
    expect(await ask(b, "SELECT 2 AS v")).toBe(2);
    const held = async () =>
      (await db.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map(
        (r) => r.name.replace(/^c\d+_/, ""),
      );
    expect(await held()).toEqual(["same", "same"]);
    await a.end();
    await expect.poll(held).toEqual(["same"]);
    expect(await ask(b, "SELECT 2 AS v")).toBe(2);
    await b.end();
  });
});
