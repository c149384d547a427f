// SPDX-License-Identifier: MIT
// WebSockets to naval-server as nng's WebSocket transport expects them.
// The subprotocol is the LISTENING socket's own pattern: "pub.sp.nanomsg.org"
// to subscribe to /ws/snapshots (a PUB), "pair1.sp.nanomsg.org" for a
// player view on /ws/view, "rep.sp.nanomsg.org" to send
// requests to /ws/commands (a REP; the server refuses "req.sp.nanomsg.org"
// with HTTP 400: nng 1.5.2 compares the offer with its own socket's). One SP message
// per binary WebSocket message, arraybuffer. A PUB body has no SP header; a
// request carries a 4-byte big-endian request id with the top bit set,
// which REP echoes in front of its answer.
//
// Every link redials by itself when the server goes away, with a
// growing pause, and reports every change so that its owner can say so.
//
// The WebSocket class is the global one (browsers, Node 22 and later) or
// the one given in LinkOptions (Node 20: the `ws` package's).

import { ResponseBodyData, ResponseData, RequestSpec, decodeResponse, encodeRequest } from "./wire.js";
import { PAIR1_HEADER, pair1Frame } from "./viewcodec.js";

export type LinkState = "connecting" | "open" | "retrying" | "stopped";

export interface LinkStatus {
  state: LinkState;
  url: string;
  /** Why the last connection ended ("" when none has). */
  reason: string;
  /** When the next dial happens (ms, performance.now()), while retrying. */
  retryAt: number;
  attempts: number;
}

/**
 * A WebSocket class: the browser's, or one that behaves as it does (the
 * `ws` package's). Typed loosely so that `ws`'s own types fit; the links
 * use its instances as the DOM's WebSocket.
 */
export type WebSocketConstructor = new (url: string, protocol: string) => object;

export interface LinkOptions {
  /** The WebSocket class (default: globalThis.WebSocket). */
  WebSocket?: WebSocketConstructor;
}

/** WebSocket.OPEN, without needing the class. */
const OPEN = 1;

function socketClass(options: LinkOptions | undefined): WebSocketConstructor | null {
  return options?.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? null;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;

/** A WebSocket that redials: the common part of both links. */
class Redial {
  private ws: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pause = RETRY_MIN_MS;
  readonly status: LinkStatus;

  constructor(
    url: string,
    private readonly protocol: string,
    private readonly onMessage: (data: ArrayBuffer) => void,
    private readonly onStatus: (s: LinkStatus) => void,
    private readonly options?: LinkOptions,
  ) {
    this.status = { state: "stopped", url, reason: "", retryAt: 0, attempts: 0 };
  }

  start(): void {
    if (this.status.state !== "stopped") return;
    this.dial();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.set("stopped", this.status.reason);
  }

  send(data: Uint8Array): boolean {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(data);
    return true;
  }

  private set(state: LinkState, reason: string): void {
    this.status.state = state;
    this.status.reason = reason;
    this.onStatus(this.status);
  }

  private dial(): void {
    this.timer = null;
    this.status.attempts++;
    const Socket = socketClass(this.options);
    if (!Socket) {
      this.set("stopped", "no WebSocket class: this runtime has none, pass one in the options (Node 20: the ws package)");
      return;
    }
    let ws: WebSocket;
    try {
      ws = new Socket(this.status.url, this.protocol) as WebSocket;
    } catch (e) {
      // A malformed URL throws at once: retrying cannot help, say why.
      this.set("stopped", `cannot open ${this.status.url}: ${(e as Error).message}`);
      return;
    }
    ws.binaryType = "arraybuffer";
    // onclose follows every error and says why (and `ws`, in Node, throws an error nobody listens to).
    ws.onerror = () => {};
    this.ws = ws;
    this.set("connecting", this.status.reason);
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.pause = RETRY_MIN_MS;
      this.status.attempts = 0;
      this.set("open", "");
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (ws === this.ws && ev.data instanceof ArrayBuffer) this.onMessage(ev.data);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (ws !== this.ws) return; // stopped, or replaced
      this.ws = null;
      const why = ev.reason || (ev.code === 1006 ? "connection lost or refused" : ev.code === 1000 || ev.code === 1001 ? "the server closed the connection" : `closed with code ${ev.code}`);
      this.status.retryAt = performance.now() + this.pause;
      this.set("retrying", why);
      this.timer = setTimeout(() => this.dial(), this.pause);
      this.pause = Math.min(RETRY_MAX_MS, this.pause * 2);
    };
  }
}

/** Subscriber to /ws/snapshots. */
export class SnapshotLink {
  private readonly socket: Redial;

  constructor(url: string, onData: (data: ArrayBuffer) => void, onStatus: (s: LinkStatus) => void, options?: LinkOptions) {
    this.socket = new Redial(url, "pub.sp.nanomsg.org", onData, onStatus, options);
  }

  get status(): LinkStatus { return this.socket.status; }
  start(): void { this.socket.start(); }
  stop(): void { this.socket.stop(); }
}

/**
 * A player view on /ws/view ("pair1.sp.nanomsg.org"): each binary message
 * is a 4-byte big-endian hop count, then the message (docs/protocol.md,
 * "Why PAIR1"); the hop count is stripped on the way in and added on the
 * way out. Each connection is a new view: the owner starts afresh on "open".
 */
export class ViewLink {
  private readonly socket: Redial;

  constructor(url: string, onMessage: (msg: Uint8Array, bytes: number) => void, onStatus: (s: LinkStatus) => void, options?: LinkOptions) {
    this.socket = new Redial(url, "pair1.sp.nanomsg.org", (d) => {
      if (d.byteLength >= PAIR1_HEADER) onMessage(new Uint8Array(d, PAIR1_HEADER), d.byteLength);
    }, onStatus, options);
  }

  get status(): LinkStatus { return this.socket.status; }
  start(): void { this.socket.start(); }
  stop(): void { this.socket.stop(); }

  /** Sends one message (a ViewRequest); false when not connected. */
  send(msg: Uint8Array): boolean {
    return this.socket.send(pair1Frame(msg));
  }
}

interface Pending {
  resolve: (r: ResponseData) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  what: string;
}

/** Requester on /ws/commands: request() resolves with the server's answer. */
export class CommandLink {
  private readonly socket: Redial;
  private readonly pending = new Map<number, Pending>();
  private nextId = (Math.random() * 0x7fffffff) >>> 0;

  constructor(url: string, onStatus: (s: LinkStatus) => void, options?: LinkOptions) {
    this.socket = new Redial(url, "rep.sp.nanomsg.org", (d) => this.receive(d), (s) => {
      if (s.state !== "open") this.failAll(`commands: ${s.reason || "not connected"}`);
      onStatus(s);
    }, options);
  }

  get status(): LinkStatus { return this.socket.status; }
  start(): void { this.socket.start(); }
  stop(): void { this.socket.stop(); }

  /** Sends one request; resolves with the response whatever its status. */
  request(spec: RequestSpec, timeoutMs = 3000): Promise<ResponseData> {
    this.nextId = (this.nextId + 1) & 0x7fffffff;
    const id = this.nextId;
    const body = encodeRequest(BigInt(id), spec);
    const msg = new Uint8Array(4 + body.length);
    new DataView(msg.buffer).setUint32(0, (id | 0x80000000) >>> 0, false);
    msg.set(body, 4);
    return new Promise((resolve, reject) => {
      if (!this.socket.send(msg)) {
        reject(new Error(`${spec.kind}: not connected to ${this.socket.status.url}`));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${spec.kind}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, what: spec.kind });
    });
  }

  /** As request(), but a refusal rejects with the server's status and reason. */
  async call(spec: RequestSpec, timeoutMs = 3000): Promise<ResponseBodyData> {
    const r = await this.request(spec, timeoutMs);
    if (r.status !== 0) throw new Error(`${spec.kind} refused: ${r.statusName}: ${r.error}`);
    return r.body;
  }

  private receive(data: ArrayBuffer): void {
    if (data.byteLength < 4) return;
    const id = new DataView(data).getUint32(0, false) & 0x7fffffff;
    const p = this.pending.get(id);
    if (!p) return; // timed out already
    this.pending.delete(id);
    clearTimeout(p.timer);
    try {
      p.resolve(decodeResponse(new Uint8Array(data, 4)));
    } catch (e) {
      p.reject(new Error(`${p.what}: ${(e as Error).message}`));
    }
  }

  private failAll(why: string): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(why));
    }
    this.pending.clear();
  }
}
