/** What a session's user agent says about the device it came from, as people name them. */
export interface DeviceParts {
  /** The browser or program ("Chrome", "Firefox", "curl"); null when it cannot be told. */
  browser: string | null;
  /** The operating system ("Windows", "Android"); null when it cannot be told. */
  os: string | null;
}

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, and every Chromium
// browser on iOS is Safari underneath (CriOS, FxiOS, EdgiOS name the one the person chose).
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChromium\//, "Chromium"],
  [/\b(Headless)?Chrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, "Safari"],
  [/^curl\//, "curl"],
  [/^node$|^undici\b|\bnode-fetch\b/, "Node.js"],
  [/^PostmanRuntime\//, "Postman"],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows\b/, "Windows"],
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const firstMatch = (agent: string, table: ReadonlyArray<readonly [RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(agent))?.[1] ?? null;

/** The browser and operating system a user agent names ("Chrome" and "Linux"). */
export function deviceParts(userAgent: string): DeviceParts {
  const agent = userAgent.trim();
  return { browser: firstMatch(agent, BROWSERS), os: firstMatch(agent, SYSTEMS) };
}

/** The words a device's name is put together with, in the reader's language. */
export interface DeviceWords {
  /** "Chrome on Linux" from its two parts. */
  browserOn: (browser: string, os: string) => string;
  /** A session whose agent says nothing. */
  unknown: string;
}

/**
 * A session's device for people: "Chrome on Linux", else whichever part is known, else the agent
 * as sent (a program nobody listed), else `unknown`.
 */
export function deviceName(userAgent: string, words: DeviceWords): string {
  const { browser, os } = deviceParts(userAgent);
  if (browser && os) return words.browserOn(browser, os);
  return browser ?? os ?? (userAgent.trim() || words.unknown);
}
