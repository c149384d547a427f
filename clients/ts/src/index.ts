// SPDX-License-Identifier: MIT
// @naval/client: naval-server's protocol for TypeScript and JavaScript
// games, in browsers and in Node. NavalClient (client.ts) is the way in;
// the codecs and links under it are exported for those who need them.

export * from "./client.js";
export * from "./link.js";
export * from "./wire.js";
export * from "./viewcodec.js";
export * from "./damage.js";
