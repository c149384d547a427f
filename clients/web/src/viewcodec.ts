// SPDX-License-Identifier: MIT
// A player view's updates and requests: the TypeScript client package's module
// (clients/ts/src/viewcodec.ts; docs/clients.md, "TypeScript client package"). The
// same relative path holds in the build tree, where the target client_ts
// stages the package in BUILD/clients/ts.
export * from "../../ts/src/viewcodec.js";
