// @claw/provider-utils/test-server: the loopback HTTP server the vendor packages' fakes are built on.
// For tests only; imports nothing from a test runner.
export {
  type LoopbackReply,
  type LoopbackRequest,
  type LoopbackServer,
  type LoopbackServerOptions,
  readJsonBody,
  startLoopbackServer,
} from "./loopback-server.js";
