// What a principal may touch: the namespace checks every route and the import stream apply.
import { MemoryError } from "@claw/memory-api";
import type { Principal } from "./bearer-auth.js";

/** Which namespaces a call spanning several may read: every one, or a list. */
export type NamespaceSelection = { all: true } | { all: false; namespaces: string[] };

export function mayUse(principal: Principal, namespace: string): boolean {
  return principal.namespaces === undefined || principal.namespaces.includes(namespace);
}

/** The namespace a call uses when it names none: a scoped token's first one, else "default". */
export function defaultNamespace(principal: Principal): string {
  return principal.namespaces?.[0] ?? "default";
}

function forbidden(namespace: string): MemoryError {
  return new MemoryError("FORBIDDEN", `this token may not use the namespace ${JSON.stringify(namespace)}`);
}

/** The one namespace a call on a single entry (or namespace) uses; FORBIDDEN outside the scope. */
export function singleNamespace(principal: Principal, requested: string | undefined): string {
  const namespace = requested ?? defaultNamespace(principal);
  if (namespace === "*") throw MemoryError.invalidInput("namespace", '"*" is not allowed here');
  if (!mayUse(principal, namespace)) throw forbidden(namespace);
  return namespace;
}

/**
 * The namespaces a call spanning several (recall, list, export, session purge) reads. `"*"` means
 * every namespace the token may read, never more. Without a request, `fallback` decides: the
 * default namespace (recall, list) or all of them (export, session purge).
 */
export function namespaceSelection(
  principal: Principal,
  requested: string | undefined,
  fallback: "default" | "all",
): NamespaceSelection {
  const wanted = requested ?? (fallback === "all" ? "*" : defaultNamespace(principal));
  if (wanted !== "*") {
    if (!mayUse(principal, wanted)) throw forbidden(wanted);
    return { all: false, namespaces: [wanted] };
  }
  if (principal.namespaces === undefined) return { all: true };
  return { all: false, namespaces: [...principal.namespaces] };
}

export function assertWritable(principal: Principal): void {
  if (principal.readOnly) throw new MemoryError("FORBIDDEN", "this token is read-only");
}

/** Store-wide operations (reindex, hygiene, metrics, …) need a writable token with every namespace. */
export function assertAdmin(principal: Principal): void {
  assertWritable(principal);
  if (principal.namespaces !== undefined) {
    throw new MemoryError("FORBIDDEN", "this operation needs a token that is not scoped to namespaces");
  }
}

/** Reading store-wide figures (metrics) needs a token with every namespace; read-only is fine. */
export function assertUnscoped(principal: Principal): void {
  if (principal.namespaces !== undefined) {
    throw new MemoryError("FORBIDDEN", "this route needs a token that is not scoped to namespaces");
  }
}
