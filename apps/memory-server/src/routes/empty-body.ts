// Routes whose body is optional (the admin calls): no body means `{}`, so that the body schema
// (usually EmptyBodySchema) still checks whatever is sent.
import type { FastifyRequest } from "fastify";

/** A preValidation hook: a missing or null body becomes `{}`. */
export async function emptyBodyIsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
