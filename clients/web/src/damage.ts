// SPDX-License-Identifier: MIT
// Damage entries and events, attitude, event messages: the TypeScript client package's module
// (clients/ts/src/damage.ts; docs/clients.md, "TypeScript client package"). The
// same relative path holds in the build tree, where the target client_ts
// stages the package in BUILD/clients/ts.
export * from "../../ts/src/damage.js";
