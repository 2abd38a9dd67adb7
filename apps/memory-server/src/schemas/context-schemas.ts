import { Type } from "typebox";
import { NamespaceSchema, withErrors } from "./common-schemas.js";

export const contextSchema = {
  summary: "The memory to add to an agent's prompt for a message: stable core block + recall block",
  tags: ["agent"],
  body: Type.Object(
    {
      message: Type.String({ minLength: 1, maxLength: 65_536, description: "The user's message." }),
      namespace: Type.Optional(NamespaceSchema),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, description: "Default auto_recall_limit." }),
      ),
      maxTokens: Type.Optional(
        Type.Integer({ minimum: 50, maximum: 32_000, description: "Recall block budget." }),
      ),
    },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: Type.Object({
      stable: Type.Object({ text: Type.String(), hash: Type.String(), keys: Type.Array(Type.String()) }),
      recall: Type.Object({ text: Type.String(), keys: Type.Array(Type.String()) }),
    }),
  }),
};
