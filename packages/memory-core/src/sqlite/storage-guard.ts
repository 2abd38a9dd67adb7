// Error guarding for the SQLite backend: SQLite (and any other unexpected) failures surface as MemoryError
// STORAGE; MemoryErrors pass through unchanged.
import { isMemoryError, MemoryError } from "@claw/memory-api";

/** Runs `fn` once the store is known to be open, turning its failures into STORAGE. */
export type StorageGuard = <T>(fn: () => T) => T;

/** SQLite failures surface as STORAGE; MemoryErrors pass through unchanged. `assertOpen` runs first. */
export function createStorageGuard(assertOpen: () => void): StorageGuard {
  return <T>(fn: () => T): T => {
    assertOpen();
    try {
      return fn();
    } catch (error) {
      if (isMemoryError(error)) throw error;
      throw storageFailure(error);
    }
  };
}

function storageFailure(error: unknown): MemoryError {
  return new MemoryError("STORAGE", `storage failure: ${(error as Error).message}`, { cause: error });
}
