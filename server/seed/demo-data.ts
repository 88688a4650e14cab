/**
 * The demo data set, generated from a seeded PRNG so that every fresh start (and every test
 * template) holds exactly the same users. Pure: no database access here.
 */
import { accountNumber } from "../../src/shared/domain";
import { APPROVAL_STATUSES, USER_ROLES, type ApprovalStatus, type UserRole } from "../db/schema";

/** mulberry32: small, fast, good enough for demo data, and identical on every platform. */
export function createPrng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (probability: number) => next() < probability,
  };
}
export type Prng = ReturnType<typeof createPrng>;

export const DEMO_SEED = 20_260_101;
export const DEMO_USER_COUNT = 600;
/**
 * The demo administrators' timestamps are laid out before this instant, so they do not depend on
 * the clock. The users' are laid out before the instant the seed runs (`generateDemoUsers`).
 */
export const DEMO_EPOCH = Date.UTC(2026, 9, 1);
const DAY = 86_400_000;

const FIRST_NAMES = [
  "Ahmad",
  "Nur Aisyah",
  "Wei Ling",
  "Rajesh",
  "Siti",
  "Jia Hui",
  "Muhammad",
  "Priya",
  "Kok Wai",
  "Farah",
  "Hafiz",
  "Mei Xin",
  "Arjun",
  "Zulaikha",
  "Chee Keong",
  "Nurul",
  "Kavitha",
  "Daniel",
  "Amirah",
  "Yong Jie",
  "Harith",
  "Li Na",
  "Suresh",
  "Aina",
] as const;
const LAST_NAMES = [
  "Abdullah",
  "Tan",
  "Lim",
  "Kumar",
  "Wong",
  "Ismail",
  "Lee",
  "Ng",
  "Rahman",
  "Chong",
  "Nair",
  "Hassan",
  "Ong",
  "Teo",
  "Subramaniam",
  "Yusof",
  "Goh",
  "Chan",
  "Othman",
  "Krishnan",
] as const;
const ROLE_WEIGHTS: ReadonlyArray<readonly [UserRole, number]> = [
  ["student", 40],
  ["staff", 15],
  ["public", 15],
  ["merchant", 10],
  ["rider", 10],
  ["agent", 10],
];
const APPROVAL_WEIGHTS: ReadonlyArray<readonly [ApprovalStatus, number]> = [
  ["approved", 70],
  ["pending", 20],
  ["rejected", 10],
];
const VEHICLES = ["motorcycle", "car", "bicycle", "e-scooter"] as const;
const PLATE_PREFIXES = ["WA", "WB", "WC", "BK", "BN", "JQ", "PK", "VB"] as const;
const AGENT_TYPES = ["campus", "external"] as const;

function weighted<T>(prng: Prng, weights: ReadonlyArray<readonly [T, number]>): T {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = prng.next() * total;
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weights[weights.length - 1]![0];
}

export interface DemoUser {
  accountNumber: string;
  name: string;
  email: string;
  phone: string;
  role: UserRole;
  approvalStatus: ApprovalStatus;
  approvalRemark: string | null;
  isBanned: boolean;
  banRemark: string | null;
  isVip: boolean;
  url: string | null;
  lastActiveAt: Date | null;
  createdAt: Date;
  wallet: { balanceSen: number; status: "active" | "frozen" | "dormant" };
  rider?: {
    vehicleType: string;
    plate: string;
    licenceNumber: string;
    verificationStatus: "pending" | "Approved" | "Rejected";
    verificationRemarks: string | null;
    attendanceDays: number;
  };
  agent?: { agentType: string; commissionRateBp: number };
  contactChange?: {
    contactType: "email" | "phone";
    newValue: string;
    status: "pending" | "approved" | "rejected";
    remark: string | null;
    createdAt: Date;
  };
}

/**
 * The demo users, their sign-ups spread over the 640 days before `until` (the seed passes the
 * instant it runs, as the money of demo-money.ts is laid out before it): Statistic's new users
 * then fill the weeks it shows, whenever the demo campus is seeded. The same `until` gives the
 * same users.
 */
export function generateDemoUsers(
  until: number,
  count = DEMO_USER_COUNT,
  seed = DEMO_SEED,
): DemoUser[] {
  const prng = createPrng(seed);
  const users: DemoUser[] = [];
  for (let n = 1; n <= count; n += 1) {
    // The first 18 users cover every role × approval state; the rest follow the weights.
    const role = n <= 18 ? USER_ROLES[(n - 1) % 6]! : weighted(prng, ROLE_WEIGHTS);
    const approvalStatus =
      n <= 18 ? APPROVAL_STATUSES[Math.floor((n - 1) / 6)]! : weighted(prng, APPROVAL_WEIGHTS);
    const first = prng.pick(FIRST_NAMES);
    const last = prng.pick(LAST_NAMES);
    const handle = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
    const domain =
      role === "student"
        ? "student.ucsi.example"
        : role === "staff"
          ? "ucsi.example"
          : "mail.example";
    const createdAt = new Date(until - prng.int(1, 640) * DAY - prng.int(0, DAY - 1));
    const approved = approvalStatus === "approved";
    const inactiveDays = prng.chance(0.15) ? prng.int(200, 500) : prng.int(0, 60);
    const lastActiveAt = approved
      ? new Date(Math.max(createdAt.getTime(), until - inactiveDays * DAY))
      : null;
    const isBanned = approved && prng.chance(0.04);
    const dormant = approved && inactiveDays >= 365;

    const user: DemoUser = {
      accountNumber: accountNumber(n),
      name: `${first} ${last}`,
      email: `${handle}${n}@${domain}`,
      phone: `+601${prng.int(0, 9)}${String(prng.int(0, 9_999_999)).padStart(7, "0")}`,
      role,
      approvalStatus,
      approvalRemark:
        approvalStatus === "rejected"
          ? prng.pick([
              "Identity document unreadable",
              "Details do not match records",
              "Duplicate account",
            ])
          : approvalStatus === "approved" && prng.chance(0.2)
            ? "Verified at the counter"
            : null,
      isBanned,
      banRemark: isBanned
        ? prng.pick(["Suspicious top-ups", "Reported by merchant", "Chargeback abuse"])
        : null,
      isVip: approved && prng.chance(0.06),
      url: role === "merchant" && prng.chance(0.5) ? `https://shop${n}.example` : null,
      lastActiveAt,
      createdAt,
      wallet: {
        balanceSen: approved ? prng.int(0, 50_000) * 10 : 0,
        status: isBanned ? "frozen" : dormant ? "dormant" : "active",
      },
    };
    if (role === "rider") {
      user.rider = {
        vehicleType: prng.pick(VEHICLES),
        plate: `${prng.pick(PLATE_PREFIXES)} ${prng.int(1000, 9999)}`,
        licenceNumber: `D${prng.int(10_000_000, 99_999_999)}`,
        verificationStatus: !approved
          ? "pending"
          : prng.chance(0.6)
            ? "Approved"
            : prng.chance(0.7)
              ? "pending"
              : "Rejected",
        verificationRemarks: null,
        attendanceDays: 0,
      };
      if (user.rider.verificationStatus === "Rejected") {
        user.rider.verificationRemarks = "Licence photo expired";
      }
      if (user.rider.verificationStatus === "Approved") user.rider.attendanceDays = prng.int(3, 12);
    }
    if (role === "agent") {
      user.agent = { agentType: prng.pick(AGENT_TYPES), commissionRateBp: prng.int(5, 50) * 10 };
    }
    if (approved && prng.chance(0.08)) {
      const contactType = prng.chance(0.5) ? "email" : "phone";
      const status = prng.chance(0.5) ? "pending" : prng.chance(0.65) ? "approved" : "rejected";
      user.contactChange = {
        contactType,
        newValue:
          contactType === "email"
            ? `${handle}.new${n}@mail.example`
            : `+601${prng.int(0, 9)}${String(prng.int(0, 9_999_999)).padStart(7, "0")}`,
        status,
        remark:
          status === "rejected"
            ? "Could not verify the new contact"
            : status === "approved"
              ? "Verified by phone call"
              : null,
        createdAt: new Date(until - prng.int(1, 30) * DAY),
      };
    }
    users.push(user);
  }
  return users;
}

/** A demo colleague: `firstname.lastname@wallet.example`, with those permissions. */
/**
 * `lastLoginHoursAgo`: when they last signed in, before the seeding (none: never, as a newcomer
 * who has not yet signed in).
 */
function staff(
  name: string,
  permissions: number[],
  lastLoginHoursAgo: number | null,
  status: "active" | "disabled" = "active",
) {
  const email = `${name.toLowerCase().replace(" ", ".")}@wallet.example`;
  return { name, email, permissions, status, lastLoginHoursAgo };
}

/** Extra administrators so the Admin list has something to page, filter and sort. */
export const DEMO_STAFF = [
  staff("Aisyah Rahman", [0, 4], 2),
  staff("Kelvin Tan", [8], 26),
  staff("Meera Nair", [12, 16], 5),
  staff("Hakim Yusof", [24, 38], 73),
  staff("Grace Lim", [28, 39], 9),
  staff("Ravi Kumar", [32, 33], 24 * 41, "disabled"),
  staff("Zara Ong", [20], null),
  staff("Daniel Chong", [0, 37], 24 * 96, "disabled"),
];
