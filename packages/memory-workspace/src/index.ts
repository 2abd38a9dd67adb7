// @claw/memory-workspace: skeleton. Its contents arrive with the workspace issue (#6); see ../shared/CONTRACT.md §1.
export {};
