import type pg from "pg";
import { describe, expect, it } from "vitest";
import { acceptsCopyIn } from "./copy-in.js";

/** A database that answers the probe with one row. */
const answering = (version: string, temporary: boolean) =>
  ({
    query: async (text: string) => {
      expect(text).toContain("has_database_privilege(current_database(), 'TEMPORARY')");
      return { rows: [{ version, temporary }] };
    },
  }) as unknown as Pick<pg.Pool, "query">;

describe("whether imports go by COPY", () => {
  it("on a server whose role may create temporary tables", async () => {
    expect(await acceptsCopyIn(answering("PostgreSQL 15.20 (Debian) on x86_64-pc-linux-gnu", true))).toBe(
      true,
    );
  });

  it("not where TEMPORARY is revoked, nor on PGlite", async () => {
    expect(await acceptsCopyIn(answering("PostgreSQL 15.20 (Debian) on x86_64-pc-linux-gnu", false))).toBe(
      false,
    );
    const pglite = "PostgreSQL 18.6 (PGlite 0.5.14) on wasm32-unknown-emscripten, compiled by emcc";
    expect(await acceptsCopyIn(answering(pglite, true))).toBe(false);
  });
});
