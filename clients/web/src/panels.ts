// SPDX-License-Identifier: MIT
// Hiding the panels (a button and the H key, remembered in localStorage)
// and the compact layout: on a small viewport the status and legend
// sections start folded, so that the panels leave most of the view to
// the sea (style.css shrinks them there too). Only DOM.

import { pageElement } from "./dom";

const STORE_KEY = "naval.panelsHidden";
/** The viewports style.css lays out compactly (keep the two in step). */
export const COMPACT_QUERY = "(max-width: 1000px), (max-height: 700px)";

function storedHidden(): boolean {
  try {
    return localStorage.getItem(STORE_KEY) === "1";
  } catch {
    return false; // storage refused (private mode, file:): not remembered
  }
}

export class Panels {
  private readonly panels: HTMLElement;
  private readonly button: HTMLButtonElement;
  hidden = false;

  constructor() {
    this.panels = pageElement("panels");
    this.button = pageElement<HTMLButtonElement>("panels-toggle");
    // Folded to their titles on a small screen; open on a large one.
    const compact = window.matchMedia(COMPACT_QUERY).matches;
    for (const d of this.panels.querySelectorAll<HTMLDetailsElement>("details[data-compact]"))
      d.open = d.dataset.compact === "open" || !compact;
    this.button.addEventListener("click", () => this.toggle());
    this.set(storedHidden());
  }

  /** The H key (not while typing in a field). */
  key(code: string): boolean {
    if (code !== "KeyH") return false;
    this.toggle();
    return true;
  }

  toggle(): void {
    this.set(!this.hidden);
    try {
      localStorage.setItem(STORE_KEY, this.hidden ? "1" : "0");
    } catch {
      // not remembered, still toggled
    }
  }

  private set(hidden: boolean): void {
    this.hidden = hidden;
    this.panels.hidden = hidden;
    this.button.textContent = hidden ? "Show panels (H)" : "Hide panels (H)";
    this.button.setAttribute("aria-expanded", String(!hidden));
  }
}
