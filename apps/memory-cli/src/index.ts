// @claw/memory-cli: skeleton. Its contents arrive with the CLI issue (#7); see ../shared/CONTRACT.md §1.
export {};
