import { isIP } from "node:net";

/**
 * True for names that only reach this machine: localhost, 127.0.0.0/8, ::1 (and its IPv4-mapped
 * form). "0.0.0.0" and "::" listen on every interface, so they are not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  if (isIP(name) === 6) {
    if (name === "::1" || name === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
    return mapped !== null && (mapped[1] as string).startsWith("127.");
  }
  return false;
}
