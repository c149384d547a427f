// SPDX-License-Identifier: MIT
// The WebSockets as nng expects them: the TypeScript client package's module
// (clients/ts/src/link.ts; docs/clients.md, "TypeScript client package"). The
// same relative path holds in the build tree, where the target client_ts
// stages the package in BUILD/clients/ts.
export * from "../../ts/src/link.js";
