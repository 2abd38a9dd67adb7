/** One size of the speed suite: how much data, how many queries, which engines and corpora. */
export interface SizePlan {
  /** The id segment: `1k`, `10k`, `100k`, `1m`. */
  label: string;
  size: number;
  dimensions: number;
  /** Timed keyword queries. */
  queries: number;
  /** Timed vector and hybrid queries (the first of the keyword ones); scans are slow at 1M. */
  vectorQueries: number;
  /** Untimed queries each engine answers first. */
  warmup: number;
  /** Single store() calls after the bulk load. */
  stores: number;
  jsScan: boolean;
  orama: boolean;
  /** Also the `common` keyword corpus and the `anisotropic` and `sparse` vectors. */
  distributions: boolean;
  seed: number;
}
