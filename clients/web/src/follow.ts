// SPDX-License-Identifier: MIT
// Which boat the camera follows, and what the page says about it. A boat
// is followed only once it is drawn: an id asked for (URL, input, list,
// the helm) waits a moment for the stream to bring it, then the page says
// it was not found instead of "following" a boat that is not there. A
// followed boat missing from the stream while the stream flows (despawned,
// sunk and removed, or a restarted server without it) is let go, and the
// page says why. Pure: no DOM, no three.js (tests/test_web_hud_unit.mjs).

/** Vessel ids start at 0: "no boat" is -1 (fleet.ts's NO_BOAT). */
const NONE = -1;
/** How long an asked-for boat may take to show up once the stream flows, s. */
export const FOLLOW_WAIT_S = 1.5;
/** How long a followed boat may be missing from a flowing stream before it is let go, s. */
export const FOLLOW_LOST_S = 1;

/** What the page must do after `update`. */
export type FollowAction = { kind: "none" } | { kind: "follow"; id: number } | { kind: "release"; id: number };

export class FollowTracker {
  /** The boat followed now (NONE: none). */
  followed = NONE;
  /** The boat asked for and not seen yet (NONE: none). */
  pending = NONE;
  /** What the page says about following: "" when all is well. */
  message = "";
  private deadline = 0;
  private lastSeen = 0;

  /** Follow `id` (NONE: stop following) once the stream has it; wait at most `waitS` of flowing stream. */
  ask(id: number, now: number, waitS = FOLLOW_WAIT_S): void {
    this.pending = id;
    this.deadline = now + waitS;
    this.message = id === NONE ? "" : `looking for boat ${id}...`;
    if (id === NONE) this.followed = NONE;
  }

  /** The page let go of the boat itself (Esc, the free camera button). */
  release(): void {
    this.ask(NONE, 0);
  }

  /**
   * Once a frame. `present(id)`: the boat is drawn now; `flowing`: the
   * stream brings snapshots (or view updates); `where`: where the page
   * looks for boats ("in the snapshots") and what it holds ("12 boats").
   */
  update(now: number, present: (id: number) => boolean, flowing: boolean, where: { place: string; detail: string }): FollowAction {
    if (this.pending !== NONE) {
      const id = this.pending;
      if (present(id)) {
        this.pending = NONE;
        this.followed = id;
        this.lastSeen = now;
        this.message = "";
        return { kind: "follow", id };
      }
      // Only a flowing stream can say a boat is not there.
      if (!flowing) this.deadline = Math.max(this.deadline, now + FOLLOW_WAIT_S);
      else if (now > this.deadline) {
        this.pending = NONE;
        this.message = `no boat ${id} ${where.place} (${where.detail}): not following it`;
      }
      return { kind: "none" };
    }
    if (this.followed === NONE) return { kind: "none" };
    const id = this.followed;
    if (present(id) || !flowing) {
      if (present(id)) this.lastSeen = now;
      else this.lastSeen = Math.max(this.lastSeen, now - FOLLOW_LOST_S / 2); // a pause in the stream is not a loss
      return { kind: "none" };
    }
    if (now - this.lastSeen <= FOLLOW_LOST_S) return { kind: "none" };
    return this.gone(id, `not ${where.place} any more (despawned, sunk, or a restarted server)`);
  }

  /** The stream says boat `id` is gone (a view's "gone" event): let it go at once. */
  gone(id: number, why: string): FollowAction {
    if (this.followed !== id) return { kind: "none" };
    this.followed = NONE;
    this.message = `boat ${id} is gone, ${why}: camera freed`;
    return { kind: "release", id };
  }
}
