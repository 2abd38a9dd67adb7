export { parseTimeBound } from "@claw/memory-core";
export { createWorkspaceIndex } from "./create-workspace-index.js";
export { MAX_READ_BYTES } from "./files/read-memory-file.js";
export { CATEGORY_NOTE, classifyPath, dateOfName } from "./files/workspace-paths.js";
export {
  CONFIDENCE_RULE,
  type Evidence,
  type Opinion,
  replayOpinions,
  type Stance,
} from "./reflect/opinion-ledger.js";
export { ENTITIES_DIR, OPINIONS_PAGE } from "./reflect/reflect.js";
export {
  entityKey,
  FACT_CATEGORY,
  FACT_KINDS,
  formatFactContent,
  mentionsOf,
  parseFactContent,
  parseTypedBullet,
  type TypedStatement,
} from "./retain/fact-format.js";
export {
  type FactDraft,
  parseRetainSections,
  RETAIN_HEADINGS,
  type RetainParse,
} from "./retain/retain-parser.js";
export { SNIPPET_MAX_CHARS } from "./search/snippet.js";
export { DEFAULT_SEARCH_LIMIT } from "./search/workspace-search.js";
export {
  chunkKey,
  FACT_KEY_PREFIX,
  FILE_KEY_PREFIX,
  factKey,
  SESSION_KEY_PREFIX,
  sessionKey,
} from "./sync/entry-keys.js";
export { STATE_DIR } from "./sync/manifest.js";
export { DEFAULT_POLL_MS } from "./watch/workspace-watcher.js";
export {
  DEFAULT_WORKSPACE_OPTIONS,
  type SessionSourceOptions,
  type WorkspaceIndexOptions,
} from "./workspace-options.js";
export type {
  EntitySummary,
  FactKind,
  HitOrigin,
  ReadOptions,
  ReadResult,
  ReflectOptions,
  ReflectReport,
  RetainedFact,
  SearchHit,
  SyncOptions,
  SyncReport,
  Watcher,
  WatchOptions,
  WorkspaceIndex,
  WorkspaceSearchOptions,
} from "./workspace-types.js";
