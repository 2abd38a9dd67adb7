import { createRequire } from "node:module";

/** This package's version (from its package.json, which ships beside dist/). */
export const SERVER_VERSION: string = (
  createRequire(import.meta.url)("../package.json") as { version: string }
).version;
