// The validated requests every storage engine receives (defined in @claw/memory-api beside
// MemoryBackend): what the façade's checks turn a Memory method's arguments into.
export type { EntryFilter, RecallRequest } from "@claw/memory-api";
