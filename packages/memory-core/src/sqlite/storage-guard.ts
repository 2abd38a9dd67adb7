// Error guarding for the SQLite backend: SQLite (and any other unexpected) failures surface as MemoryError
// STORAGE (CORRUPT for a damaged file, STORAGE_FULL for a full disk); MemoryErrors pass through unchanged.
import { isMemoryError, type MemoryError } from "@claw/memory-api";
import { storageFailure } from "../storage-failure.js";

/** Runs `fn` once the store is known to be open, turning its failures into STORAGE. */
export type StorageGuard = <T>(fn: () => T) => T;

/**
 * SQLite failures surface as STORAGE (or CORRUPT, STORAGE_FULL); MemoryErrors pass through
 * unchanged. `assertOpen` runs first; `onFailure` sees every failure as the MemoryError thrown.
 */
export function createStorageGuard(
  assertOpen: () => void,
  onFailure: (error: MemoryError) => void = () => {},
): StorageGuard {
  return <T>(fn: () => T): T => {
    assertOpen();
    try {
      return fn();
    } catch (error) {
      const failure = isMemoryError(error) ? error : storageFailure(error);
      onFailure(failure);
      throw failure;
    }
  };
}
