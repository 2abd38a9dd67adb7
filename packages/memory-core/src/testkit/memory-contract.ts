import { describe } from "vitest";
import { describeEmbeddingSweepContract } from "./contract-embedding-sweep.js";
import { describeExpiryContract } from "./contract-expiry.js";
import type { MemoryContractHarness } from "./contract-harness.js";
import { describeHistoryContract } from "./contract-history.js";
import { describeHostileInputContract } from "./contract-hostile-input.js";
import { describeImportExportContract } from "./contract-import-export.js";
import { describeLifecycleContract } from "./contract-lifecycle.js";
import { describeMetadataContract } from "./contract-metadata.js";
import { describeRecallContract } from "./contract-recall.js";
import { describeRecallRankingContract } from "./contract-recall-ranking.js";
import { describeStoreContract } from "./contract-store.js";
import { describeVectorContract } from "./contract-vectors.js";

/**
 * The behaviour every `Memory` backend must show (CONTRACT.md §2–§3), as one vitest suite. A backend
 * runs it with a harness that opens fresh stores: `describeMemoryContract({ backend, open, … })`.
 */
export function describeMemoryContract(harness: MemoryContractHarness): void {
  describe(`Memory contract: ${harness.backend}`, () => {
    describeStoreContract(harness);
    describeRecallContract(harness);
    describeRecallRankingContract(harness);
    describeImportExportContract(harness);
    describeVectorContract(harness);
    describeEmbeddingSweepContract(harness);
    describeMetadataContract(harness);
    describeHistoryContract(harness);
    describeExpiryContract(harness);
    describeLifecycleContract(harness);
    describeHostileInputContract(harness);
  });
}
