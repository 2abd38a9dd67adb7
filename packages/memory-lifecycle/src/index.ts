// @claw/memory-lifecycle: skeleton. Its contents arrive with the lifecycle issue (#5); see ../shared/CONTRACT.md §1.
export {};
