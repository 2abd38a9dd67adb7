import type { MemoryVersion } from "@claw/memory-api";
import type { Colors } from "./colors.js";
import { type Column, renderTable } from "./table.js";

/**
 * An entry's versions, newest first, one line each:
 * `v3  2026-03-01T10:03:00.000Z  forget   by token:agent  (deleted)  <content>`; the current
 * version is marked "(current)", a tombstone "(deleted)", and the content is cut to the width.
 */
export function renderHistory(versions: readonly MemoryVersion[], colors: Colors, width: number): string {
  const marked = versions.some((v) => v.current || v.deleted);
  const columns: Column<MemoryVersion>[] = [
    { header: "VERSION", value: (v) => colors.bold(`v${v.version}`) },
    { header: "AT", value: (v) => v.at },
    { header: "ACTION", value: (v) => v.action },
    { header: "BY", value: (v) => `by ${v.actor}` },
    ...(marked ? [{ header: "STATE", value: markerOf(colors) }] : []),
    { header: "CONTENT", value: (v) => v.content, flexible: true },
  ];
  return renderTable(versions, columns, width, { header: false });
}

function markerOf(colors: Colors): (version: MemoryVersion) => string {
  return (v) => (v.current ? colors.green("(current)") : v.deleted ? colors.red("(deleted)") : "");
}
