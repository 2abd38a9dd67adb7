// Deterministic keys of indexed entries: the same files always give the same keys.

/** Keys of Markdown chunk entries start with this. */
export const FILE_KEY_PREFIX = "file:";
/** Keys of Retain fact entries start with this. */
export const FACT_KEY_PREFIX = "fact:";
/** Keys of session transcript entries start with this. */
export const SESSION_KEY_PREFIX = "session:";

/** `file:<path>#<n>`: the n-th chunk (from 0) of a Markdown file. */
export function chunkKey(path: string, index: number): string {
  return `${FILE_KEY_PREFIX}${path}#${index}`;
}

/** `fact:<path>#L<line>`: the retained fact whose bullet starts on that line. */
export function factKey(path: string, line: number): string {
  return `${FACT_KEY_PREFIX}${path}#L${line}`;
}

/** `session:<path>#<n>`: the n-th chunk of a session transcript. */
export function sessionKey(path: string, index: number): string {
  return `${SESSION_KEY_PREFIX}${path}#${index}`;
}

/** True for keys this package writes; the index never touches any other entry. */
export function isIndexKey(key: string): boolean {
  return (
    key.startsWith(FILE_KEY_PREFIX) || key.startsWith(FACT_KEY_PREFIX) || key.startsWith(SESSION_KEY_PREFIX)
  );
}
