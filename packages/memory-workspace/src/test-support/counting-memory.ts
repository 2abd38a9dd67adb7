import type { ImportOptions, Memory, MemoryEntry } from "@claw/memory-api";

export interface WriteCall {
  method: "import" | "forgetMany" | "store" | "forget";
  keys: string[];
  removed: string[];
}

export type CountingMemory = Memory & {
  calls: WriteCall[];
  /** Makes the next import throw before writing anything, as a crash between two files would. */
  failNextImport: boolean;
  /** When set, each import waits for it first (a sync held in the middle of its writes). */
  importGate: Promise<void> | null;
};

/**
 * The same memory with its writes recorded, one call per transaction, so tests can assert that a
 * sync wrote nothing, or exactly one import per changed file.
 */
export function countingMemory(memory: Memory): CountingMemory {
  const state = { calls: [] as WriteCall[], failNextImport: false, importGate: null as Promise<void> | null };
  const overrides: Partial<Memory> = {
    async import(entries, options?: ImportOptions) {
      if (state.importGate !== null) await state.importGate;
      if (state.failNextImport) {
        state.failNextImport = false;
        throw new Error("simulated crash before the import");
      }
      const list = [...(entries as Iterable<Partial<MemoryEntry>>)];
      const remove = [...(options?.remove ?? [])];
      state.calls.push({
        method: "import",
        keys: list.map((e) => e.key as string),
        removed: remove.map((r) => r.key),
      });
      return memory.import(list, { ...options, remove });
    },
    async forgetMany(refs) {
      const list = [...refs];
      state.calls.push({ method: "forgetMany", keys: [], removed: list.map((r) => r.key) });
      return memory.forgetMany(list);
    },
    async store(key, content, options) {
      state.calls.push({ method: "store", keys: [key], removed: [] });
      return memory.store(key, content, options);
    },
    async forget(key, options) {
      state.calls.push({ method: "forget", keys: [], removed: [key] });
      return memory.forget(key, options);
    },
  };
  return new Proxy(memory, {
    get(target, property) {
      if (property in state) return state[property as keyof typeof state];
      if (property in overrides) return overrides[property as keyof Memory];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_target, property, value) {
      if (!(property in state)) return false;
      (state as Record<string, unknown>)[property as string] = value;
      return true;
    },
  }) as CountingMemory;
}
