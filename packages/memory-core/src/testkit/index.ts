// @claw/memory-core/testkit: the contract suite every Memory backend runs (tests only; needs vitest).
export {
  type ContractMemoryOptions,
  capturingLogger,
  countingProvider,
  expectInvalid,
  keysOf,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";
export { damagedCopy, leafPagesOf, rowidsOnLeafPage } from "./damaged-copy.js";
export { describeMemoryContract } from "./memory-contract.js";
export { captureProcessWarnings } from "./process-warnings.js";
export { rejectionOf } from "./rejection-of.js";
export { openTempSqliteMemory, recordingLogger } from "./temp-memory.js";
export { WHERE_CASES, WHERE_ROWS } from "./where-cases.js";
