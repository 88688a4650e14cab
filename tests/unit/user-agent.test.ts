import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { afterEach, describe, expect, it } from "vitest";
import { formatTimeAgo } from "../../src/app/format";
import { deviceName, deviceParts } from "../../src/app/setting/user-agent";

const WORDS = {
  browserOn: (browser: string, os: string) => `${browser} on ${os}`,
  unknown: "Unknown device",
};

const AGENTS: ReadonlyArray<readonly [string, string]> = [
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Chrome on Linux",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
    "Chrome on Linux",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
    "Edge on Windows",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Safari on macOS",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Safari on iOS",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
    "Chrome on iOS",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
    "Samsung Internet on Android",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Firefox on Windows",
  ],
  [
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Chrome on ChromeOS",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
    "Opera on Windows",
  ],
];

describe("a session's device", () => {
  it.each(AGENTS)("reads %s as %s", (agent, name) => {
    expect(deviceName(agent, WORDS)).toBe(name);
  });

  it("names a program by itself when it says no operating system", () => {
    expect(deviceName("curl/8.11.0", WORDS)).toBe("curl");
    expect(deviceName("node", WORDS)).toBe("Node.js");
    expect(deviceParts("node")).toEqual({ browser: "Node.js", os: null });
  });

  it("shows an agent it cannot read as sent, and an empty one as unknown", () => {
    expect(deviceName("CampusKiosk/2.1", WORDS)).toBe("CampusKiosk/2.1");
    expect(deviceName("  ", WORDS)).toBe("Unknown device");
  });

  it("puts the parts together in the reader's words", () => {
    const chinese = { browserOn: (b: string, o: string) => `${o} 上的 ${b}`, unknown: "未知设备" };
    expect(deviceName(AGENTS[0]![0], chinese)).toBe("Linux 上的 Chrome");
  });
});

describe("how long ago", () => {
  const NOW = Date.parse("2026-11-28T10:00:00Z");
  afterEach(() => {
    dayjs.locale("en");
  });

  it("says the largest whole unit that fits, in English", () => {
    dayjs.locale("en");
    expect(formatTimeAgo("2026-11-28T09:59:30Z", NOW)).toBe("now");
    expect(formatTimeAgo("2026-11-28T09:55:00Z", NOW)).toBe("5 minutes ago");
    expect(formatTimeAgo("2026-11-28T07:10:00Z", NOW)).toBe("2 hours ago");
    expect(formatTimeAgo("2026-11-27T09:00:00Z", NOW)).toBe("yesterday");
    expect(formatTimeAgo("2026-11-18T10:00:00Z", NOW)).toBe("10 days ago");
  });

  it("speaks Chinese when the console does", () => {
    dayjs.locale("zh-cn");
    expect(formatTimeAgo("2026-11-28T09:55:00Z", NOW)).toBe("5分钟前");
  });

  it("shows the fallback for a missing or unreadable moment", () => {
    expect(formatTimeAgo(null, NOW)).toBe("—");
    expect(formatTimeAgo("not a date", NOW, "never")).toBe("never");
  });
});
