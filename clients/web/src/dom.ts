// SPDX-License-Identifier: MIT
// The page's elements by id: a missing one is a mismatch between the code
// and index.html, said at once rather than as a null dereference later.

export function pageElement<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`page: element #${id} is missing from index.html`);
  return e as T;
}
