// SPDX-License-Identifier: MIT
// The page's URL parameters checked: each value the page cannot use is
// named with what it takes and what the page does instead, for the page
// to show (not only the console). Pure: tests/test_web_hud_unit.mjs.

/** Warnings for the URL's parameters (empty: all usable); `viewRadius`: the page's default radius. */
export function paramWarnings(params: URLSearchParams, viewRadius: number): string[] {
  const out: string[] = [];
  const has = (k: string) => params.has(k);
  const get = (k: string) => params.get(k) ?? "";
  const positive = (k: string) => {
    const v = Number(get(k));
    return get(k).trim() !== "" && Number.isFinite(v) && v > 0;
  };
  if (has("ocean")) {
    const v = Number(get("ocean"));
    if (!(Number.isInteger(v) && v >= 4 && v <= 2048 && (v & (v - 1)) === 0))
      out.push(`?ocean=${get("ocean")}: not a power of two in [4, 2048]; using 128`);
  }
  if (has("quality") && get("quality") !== "low") out.push(`?quality=${get("quality")}: only "low" is known; using the normal quality`);
  if (has("stream") && get("stream") !== "full" && get("stream") !== "view")
    out.push(`?stream=${get("stream")}: "full" or "view"; using the player view`);
  if (has("radius") && !positive("radius")) out.push(`?radius=${get("radius")}: not a positive number of metres; using ${viewRadius} m`);
  if (has("budget") && !positive("budget")) out.push(`?budget=${get("budget")}: not a positive number of kbit/s; using the server's`);
  if (has("server") && !/^[\w.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(get("server")))
    out.push(`?server=${get("server")}: not HOST or HOST:PORT; the connection will likely fail`);
  if (has("camera") && get("camera") !== "follow" && get("camera") !== "overview")
    out.push(`?camera=${get("camera")}: "overview" or "follow"; opening on the overview`);
  if (has("follow") && followParam(params) < 0) out.push(`?follow=${get("follow")}: not a boat id (a whole number >= 0); following none`);
  return out;
}

/** ?follow=N: the boat to follow from the start, -1 when absent or not an id. */
export function followParam(params: URLSearchParams): number {
  const raw = (params.get("follow") ?? "").trim();
  const v = Number(raw);
  return /^\d+$/.test(raw) && Number.isSafeInteger(v) && v <= 0xffffffff ? v : -1;
}
