// @claw/memory-server: skeleton. Its contents arrive with the server issue (#8); see ../shared/CONTRACT.md §1.
export {};
