// Who a request's writes are recorded as in the entries' history.
import { OPEN_PRINCIPAL, type Principal } from "./bearer-auth.js";

/**
 * The history actor of a request: `token:<name>` for a configured token (its name, never the token
 * itself), `server` for a server running without tokens (the loopback-only open mode).
 */
export function requestActor(principal: Principal): string {
  return principal === OPEN_PRINCIPAL ? "server" : `token:${principal.id}`;
}
