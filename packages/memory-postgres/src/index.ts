// @claw/memory-postgres: skeleton. Its contents arrive with the Postgres issue (#9); see ../shared/CONTRACT.md §1.
export {};
