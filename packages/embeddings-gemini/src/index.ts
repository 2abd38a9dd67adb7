// @claw/embeddings-gemini: skeleton. Its contents arrive with the embeddings issue (#4); see ../shared/CONTRACT.md §1.
export {};
