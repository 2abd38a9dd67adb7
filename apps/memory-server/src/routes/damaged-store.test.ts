// A server over a damaged brain.db: writes answer 503 CORRUPT (the path stays in the log), reads of
// whole pages answer 200, /v1/status says it (where the file is only to tokens with every namespace).
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemory } from "@claw/memory-core";
import { damagedCopy, leafPagesOf } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  openMemory,
  TENANT_A,
  tempWorkspace,
  testServer,
} from "../test-support/server-harness.js";

async function damagedWorkspace(): Promise<string> {
  const workspaceDir = tempWorkspace();
  const source = await createMemory({ workspaceDir, embeddings: null });
  await source.import(
    Array.from({ length: 2000 }, (_, i) => ({
      key: `k${i}`,
      content: `entry ${i} about the heron${i}`,
      namespace: i % 2 === 0 ? "default" : "tenant-a",
    })),
  );
  await source.close();
  const path = join(workspaceDir, "brain.db");
  renameSync(path, `${path}.original`);
  damagedCopy(`${path}.original`, path, [leafPagesOf(`${path}.original`, "memories")[4] as number], 11);
  return workspaceDir;
}

describe("a server over a damaged database", () => {
  it("refuses writes with 503 CORRUPT, reads whole pages, and says so in /v1/status", async () => {
    const memory = await openMemory({ workspaceDir: await damagedWorkspace() });
    const { app } = await testServer({ memory });

    const status = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(ADMIN) });
    expect(status.statusCode).toBe(200);
    expect(status.json().corrupt).toMatch(/brain\.db is damaged .*claw-memory doctor/);

    // A scoped token's counts are read per namespace: here they meet the damage themselves.
    const tenant = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(TENANT_A) });
    expect(tenant.statusCode).toBe(503);
    expect(errorOf(tenant).code).toBe("CORRUPT");
    expect(tenant.body).not.toContain("brain.db");

    const write = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: bearer(ADMIN),
      payload: { key: "new", content: "a new entry" },
    });
    expect(write.statusCode).toBe(503);
    expect(errorOf(write)).toEqual({
      code: "CORRUPT",
      message: "the memory store's database is damaged; the operator should run `claw-memory doctor`",
    });

    const read = await app.inject({ method: "GET", url: "/v1/memories/k0", headers: bearer(ADMIN) });
    expect(read.statusCode).toBe(200);
    expect(read.json().content).toBe("entry 0 about the heron0");
  });

  it("refuses writes once another process marked the file damaged; tenants are told without the path", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openMemory({ workspaceDir });
    await memory.store("a", "alpha", { namespace: "tenant-a" });
    const { app } = await testServer({ memory });
    // What a second process on the file (the CLI, a recall worker) leaves when it meets damage.
    writeFileSync(
      join(workspaceDir, "brain.db.damaged"),
      JSON.stringify({ at: "2026-11-29T06:00:00.000Z", reason: "database disk image is malformed" }),
    );

    const tenant = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(TENANT_A) });
    expect(tenant.statusCode).toBe(200);
    expect(tenant.json()).toMatchObject({
      entries: 1,
      corrupt: "the store's database is damaged: writes are refused until the operator repairs it",
    });
    expect(tenant.body).not.toContain("brain.db");
    const write = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: bearer(TENANT_A),
      payload: { key: "b", content: "beta", namespace: "tenant-a" },
    });
    expect(write.statusCode).toBe(503);
    expect(errorOf(write).code).toBe("CORRUPT");
    expect(await memory.get("b", { namespace: "tenant-a" })).toBeNull();
  });

  it("POST /v1/admin/doctor names what is hit, for admin tokens only", async () => {
    const memory = await openMemory({ workspaceDir: await damagedWorkspace() });
    const { app } = await testServer({ memory });
    const doctor = await app.inject({ method: "POST", url: "/v1/admin/doctor", headers: bearer(ADMIN) });
    expect(doctor.statusCode).toBe(200);
    const report = doctor.json();
    expect(report.ok).toBe(false);
    expect(report.checks.map((check: { name: string }) => check.name)).toEqual([
      "integrity",
      "full-text",
      "vector-codes",
      "metadata-index",
    ]);
    expect(report.checks[0]).toMatchObject({ ok: false, damaged: ["memories"] });

    const tenant = await app.inject({ method: "POST", url: "/v1/admin/doctor", headers: bearer(TENANT_A) });
    expect(tenant.statusCode).toBe(403);
  });

  it("POST /v1/admin/doctor on a whole store: every check ok", async () => {
    const memory = await openMemory();
    await memory.store("a", "alpha", { metadata: { team: "red" } });
    const { app } = await testServer({ memory });
    const doctor = await app.inject({ method: "POST", url: "/v1/admin/doctor", headers: bearer(ADMIN) });
    expect(doctor.json()).toEqual({
      ok: true,
      marked: false,
      checks: [
        { name: "integrity", ok: true, detail: "ok" },
        { name: "full-text", ok: true, detail: "ok" },
        { name: "vector-codes", ok: true, detail: "ok" },
        { name: "metadata-index", ok: true, detail: "ok" },
      ],
    });
  });
});
