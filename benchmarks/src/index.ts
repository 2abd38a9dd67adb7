// @claw/benchmarks: skeleton. Its contents arrive with the benchmarks issue (#3); see ../shared/CONTRACT.md §1.
export {};
