import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { type CreateMemoryOptions, createMemory, type MemoryConfig, parseConfig } from "@claw/memory-core";
import type { FastifyInstance } from "fastify";
import { onTestFinished } from "vitest";
import type { ServerToken } from "../auth/bearer-auth.js";
import { type BuildServerDeps, buildServer } from "../build-server.js";

export const ADMIN = "admin-token-0123456789";
export const TENANT_A = "tenant-a-token-0123456789";
export const READER = "reader-token-0123456789";
export const TENANT_A_READER = "tenant-a-reader-token-0123";

/** An admin, a tenant scoped to "tenant-a", a read-only reader, and a read-only tenant-a reader. */
export const TOKENS: readonly ServerToken[] = [
  { token: ADMIN, name: "admin" },
  { token: TENANT_A, name: "tenant-a", namespaces: ["tenant-a"] },
  { token: READER, name: "reader", readOnly: true },
  { token: TENANT_A_READER, name: "tenant-a-reader", namespaces: ["tenant-a"], readOnly: true },
];

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** A fresh folder removed after the test. */
export function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-server-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** createMemory on a real SQLite file in a temp folder, keyword-only unless told otherwise. */
export async function openMemory(options: CreateMemoryOptions = {}): Promise<Memory> {
  const memory = await createMemory({ embeddings: null, workspaceDir: tempWorkspace(), ...options });
  onTestFinished(() => memory.close());
  return memory;
}

export function testConfig(input: Record<string, unknown> = {}): MemoryConfig {
  return parseConfig(input);
}

export interface TestServer {
  app: FastifyInstance;
  memory: Memory;
  config: MemoryConfig;
}

/** buildServer over a real SQLite memory with TOKENS (unless given), closed after the test. */
export async function testServer(deps: Partial<BuildServerDeps> = {}): Promise<TestServer> {
  const memory = deps.memory ?? (await openMemory());
  const config = deps.config ?? testConfig();
  const app = buildServer({ tokens: TOKENS, ...deps, memory, config });
  onTestFinished(() => app.close());
  return { app, memory, config };
}

/** The same, listening on 127.0.0.1 on a free port. */
export async function listeningServer(
  deps: Partial<BuildServerDeps> = {},
): Promise<TestServer & { url: string }> {
  const server = await testServer(deps);
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = server.app.server.address() as AddressInfo;
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/** A body's parsed JSON error. */
export function errorOf(response: { json(): unknown }): { code: string; message: string } {
  return (response.json() as { error: { code: string; message: string } }).error;
}
