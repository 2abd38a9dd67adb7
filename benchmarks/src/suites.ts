import { appsSuite } from "./apps/apps-suite.js";
import { embeddingsSuite } from "./embeddings/embeddings-suite.js";
import { postgresSuite } from "./postgres/postgres-suite.js";
import { qualitySuite } from "./quality/quality-suite.js";
import { serverSuite } from "./server/server-suite.js";
import { speedSuite } from "./speed/speed-suite.js";

/** Every suite `pnpm bench` knows, in the order they run by default. */
export const SUITES = {
  quality: qualitySuite,
  speed: speedSuite,
  embeddings: embeddingsSuite,
  apps: appsSuite,
  server: serverSuite,
  postgres: postgresSuite,
} as const;
