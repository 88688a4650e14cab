/**
 * When the administrator last used the console (a key press, click, touch or scroll wheel), so
 * the server can end a session nobody uses (SESSION_IDLE_MINUTES) while the console's own
 * polling does not count as use. Every request says how long ago that was (IDLE_HEADER). The
 * time is shared by the console's tabs (localStorage): a colleague's work in one tab keeps an
 * unattended tab from signing the session out.
 */

export const IDLE_HEADER = "X-Idle-Seconds";
/** How often, at most, a used console tells the server so without a request of its own. */
export const HEARTBEAT_MS = 30_000;

const STORAGE_KEY = "lastActivity";
/** Other tabs learn of activity this often at most (writes are throttled, reads are not). */
const SHARE_EVERY_MS = 5_000;
const ACTIVITY_EVENTS = ["keydown", "pointerdown", "touchstart", "wheel"] as const;

let lastActive = Date.now();
let lastShared = 0;
let lastRequest = Date.now();
let signedOutForInactivity = false;

function sharedActivity(): number {
  try {
    const stored = Number(localStorage.getItem(STORAGE_KEY));
    return Number.isFinite(stored) ? stored : 0;
  } catch {
    return 0;
  }
}

/** The moment of the last use of the console, in this tab or another (epoch ms). */
export function lastActivity(): number {
  return Math.max(lastActive, sharedActivity());
}

export function noteActivity(now = Date.now()): void {
  lastActive = now;
  if (now - lastShared < SHARE_EVERY_MS) return;
  lastShared = now;
  try {
    localStorage.setItem(STORAGE_KEY, String(now));
  } catch {
    // Storage disabled: this tab keeps its own time.
  }
}

/** Whole seconds since the last use: what IDLE_HEADER says. */
export function idleSeconds(now = Date.now()): number {
  return Math.max(0, Math.floor((now - lastActivity()) / 1000));
}

/** The http client notes every request it sends. */
export function noteRequest(now = Date.now()): void {
  lastRequest = now;
}

/**
 * A heartbeat is due when the console was used since its last request and it has been quiet for
 * HEARTBEAT_MS: the server writes a session's last use from requests only.
 */
export function heartbeatDue(now = Date.now()): boolean {
  return lastActivity() > lastRequest && now - lastRequest >= HEARTBEAT_MS;
}

/** Listens for use of the page; answers the function that stops listening. */
export function trackActivity(target: Window = window): () => void {
  const note = () => noteActivity();
  for (const event of ACTIVITY_EVENTS) {
    target.addEventListener(event, note, { capture: true, passive: true });
  }
  return () => {
    for (const event of ACTIVITY_EVENTS) target.removeEventListener(event, note, { capture: true });
  };
}

/** Set when the console signs out an unattended session, for the login page to say why. */
export function setSignedOutForInactivity(value: boolean): void {
  signedOutForInactivity = value;
}

export function wasSignedOutForInactivity(): boolean {
  return signedOutForInactivity;
}
