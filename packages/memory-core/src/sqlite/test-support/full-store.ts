// Filling a store until it refuses writes (a `max_database_mb` cap, a small file system), and
// checks that a full store was not taken for a damaged one.
import { existsSync } from "node:fs";
import { isMemoryError, type Memory, type MemoryError, type MemoryVersion } from "@claw/memory-api";
import { expect } from "vitest";

/** A filler entry's text: ~600 bytes of words every filler shares, and its own word `filler<i>`. */
export function fillerText(i: number): string {
  return `filler${i} ${"lorem ipsum dolor sit amet consectetur ".repeat(15)}`;
}

export interface FillOptions {
  /** Keys are `${prefix}${i}`; default "filler-". */
  prefix?: string;
  namespace?: string;
  sessionId?: string;
}

/**
 * Stores filler entries one at a time until the store refuses one: how many went in, and the
 * refusal (anything but a MemoryError is rethrown).
 */
export async function fillUntilFull(
  memory: Memory,
  options: FillOptions = {},
): Promise<{ stored: number; refusal: MemoryError }> {
  const prefix = options.prefix ?? "filler-";
  const where = {
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  };
  for (let i = 0; i < 200_000; i++) {
    try {
      await memory.store(`${prefix}${i}`, fillerText(i), where);
    } catch (error) {
      if (!isMemoryError(error)) throw error;
      return { stored: i, refusal: error };
    }
  }
  throw new Error("the store never filled up");
}

/** What a refused write must leave exactly as it was. */
export interface EntryState {
  count: number;
  content: string | undefined;
  history: MemoryVersion[];
}

export async function entryState(memory: Memory, key: string): Promise<EntryState> {
  return {
    count: await memory.count(),
    content: (await memory.get(key))?.content,
    history: await memory.history(key),
  };
}

/** A full store is not a damaged one: status() says nothing of damage and no marker is written. */
export async function expectNotDamaged(memory: Memory, path: string): Promise<void> {
  expect((await memory.status()).corrupt).toBeUndefined();
  expect(existsSync(`${path}.damaged`)).toBe(false);
}

/** The refusal of a write to a full store: STORAGE_FULL, retryable, never CORRUPT. */
export function expectStorageFull(error: unknown): void {
  expect(isMemoryError(error)).toBe(true);
  expect((error as MemoryError).code).toBe("STORAGE_FULL");
  expect((error as MemoryError).retryable).toBe(true);
}
