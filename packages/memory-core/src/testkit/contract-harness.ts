import type { EmbeddingProvider, Logger, Memory, MemoryEntry, MemoryStatus } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { expect, onTestFinished } from "vitest";
import type { MemorySettings } from "../config/config-schema.js";

/** What a contract test may ask of a fresh store. */
export interface ContractMemoryOptions {
  settings?: Partial<MemorySettings>;
  /** null or absent = keyword-only. */
  embeddings?: EmbeddingProvider | null;
  now?: () => Date;
  logger?: Logger;
}

/** How the contract suite reaches one backend. */
export interface MemoryContractHarness {
  /** `status().backend`, e.g. "sqlite" or "postgres". */
  backend: string;
  /** `status().vector` when a provider is set, e.g. "sqlite-vec" or "pgvector". */
  vectorKind: MemoryStatus["vector"];
  /** A new, empty store. The suite closes it after the test. */
  open(options?: ContractMemoryOptions): Promise<Memory>;
  /** Several stores (servers) may write to one database at once and each sees the others' writes
   *  at once, its recall cache included. */
  sharedStore?: boolean;
  /** Another store on the same database as `memory` (which may be closed), e.g. a second server. */
  reopen(memory: Memory, options?: ContractMemoryOptions): Promise<Memory>;
}

/** Opens a store through the harness and closes it when the test ends. */
export async function openContractMemory(
  harness: MemoryContractHarness,
  options: ContractMemoryOptions = {},
): Promise<Memory> {
  const memory = await harness.open(options);
  onTestFinished(() => memory.close());
  return memory;
}

/** A clock the test moves by hand. */
export function manualClock(start = "2025-01-01T00:00:00.000Z") {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    set(iso: string) {
      time = Date.parse(iso);
    },
    advance(ms: number) {
      time += ms;
    },
  };
}

export function keysOf(entries: ReadonlyArray<{ key: string }>): string[] {
  return entries.map((e) => e.key).sort();
}

export function byNamespaceAndKey(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));
}

/** The call rejects with INVALID_INPUT naming `field`, and the store still holds what it held. */
export async function expectInvalid(
  memory: Memory,
  field: string,
  call: () => Promise<unknown>,
): Promise<void> {
  const before = await memory.count({ namespace: "*" });
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(
    isMemoryError(error, "INVALID_INPUT"),
    `expected INVALID_INPUT naming ${field}, got ${String(error)}`,
  ).toBe(true);
  expect((error as { field?: string }).field).toBe(field);
  expect((error as Error).message.startsWith(`${field}: `)).toBe(true);
  expect(await memory.count({ namespace: "*" })).toBe(before);
}

/** A logger that keeps what it was told, for asserting on warnings. */
export function capturingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug() {},
    info() {},
    warn(message) {
      warnings.push(message);
    },
    error(message) {
      warnings.push(message);
    },
  };
}

/** Wraps a provider to count calls by purpose and optionally hold them until released. */
export function countingProvider(inner: EmbeddingProvider) {
  const calls = { query: 0, document: 0, texts: 0 };
  let gate: Promise<void> | null = null;
  let release: () => void = () => {};
  const provider: EmbeddingProvider = {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, options) {
      calls[options?.purpose ?? "document"]++;
      calls.texts += texts.length;
      if (gate !== null) await gate;
      return inner.embed(texts, options);
    },
  };
  return {
    provider,
    calls,
    hold() {
      gate = new Promise((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}
