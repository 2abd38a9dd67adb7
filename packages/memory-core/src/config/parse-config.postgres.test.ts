import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { thrownBy } from "./test-support/config-test-helpers.js";

describe("[postgres]", () => {
  it("takes url, schema, text_search_config, pool_max and prepared_statements", () => {
    const config = loadConfigFromToml(
      [
        "[memory]",
        'backend = "postgres"',
        "[postgres]",
        'url = "postgres://claw@db.internal:5432/claw"',
        'schema = "agents"',
        'text_search_config = "pg_catalog.german"',
        "pool_max = 4",
        "prepared_statements = false",
        "index_build_memory_mb = 4096",
      ].join("\n"),
    );
    expect(config.memory.backend).toBe("postgres");
    expect(config.postgres).toEqual({
      url: "postgres://claw@db.internal:5432/claw",
      schema: "agents",
      textSearchConfig: "pg_catalog.german",
      poolMax: 4,
      preparedStatements: false,
      indexBuildMemoryMb: 4096,
    });
  });

  it.each([
    ['schema = "Agents"', "postgres.schema"],
    ['schema = "a.b"', "postgres.schema"],
    ['text_search_config = "english; drop table x"', "postgres.text_search_config"],
    ["pool_max = 0", "postgres.pool_max"],
    ['prepared_statements = "no"', "postgres.prepared_statements"],
    ["index_build_memory_mb = 0", "postgres.index_build_memory_mb"],
    ["index_build_memory_mb = 1.5", "postgres.index_build_memory_mb"],
  ])("refuses %s, naming the key", (line, key) => {
    const error = thrownBy(() => loadConfigFromToml(`[postgres]\n${line}\n`));
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toContain(key);
  });
});
