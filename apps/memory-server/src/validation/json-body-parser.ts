// JSON bodies with fastify's own safe parser (prototype-poisoning protection), except that an empty
// body is no body: a GET or DELETE sent with `content-type: application/json` and nothing after it
// (curl with a default header, some SDKs) is served, and a route that needs a body says which
// field is missing through its schema, in the API's error shape.
import type { FastifyInstance } from "fastify";

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    // The callback form: the parser reports through `done`, never through a promise.
    void parseJson(request, text, done);
  });
}
