import { randomBytes } from "node:crypto";

import { and, count, eq, inArray, sql } from "drizzle-orm";

import { brokenPasswordRules } from "../../src/shared/password-policy";
import { PERMISSION_CODES } from "../../src/shared/permissions";
import { recordAudit } from "../audit";
import { newRecoveryCodes, newTotpSecret, totpUri } from "../auth/factors";
import { secretBox, totpContext } from "../auth/secret-box";
import { configurePasswordHashing, hashPassword } from "../auth/password";
import type { Config, DemoRole } from "../config";
import { ConfigError } from "../config";
import { SETTING_KEYS } from "../services/settings";
import {
  DEMO_EPOCH,
  DEMO_STAFF,
  DEMO_USER_COUNT,
  generateDemoUsers,
  type DemoUser,
} from "./demo-data";
import { seedDemoChangeRequests } from "./demo-change-requests";
import { seedDemoIdsAndReports } from "./demo-ids-reports";
import { seedDemoContent } from "./demo-content";
import { seedDemoMoney } from "./demo-money";
import { seedDemoParking } from "./demo-parking";
import { seedDemoReconciliation } from "./demo-reconciliation";
import { rebuildLedgerRollups } from "../db/ledger-rollups";
import { seedDemoNotifications } from "./demo-notifications";
import type { Db, Tx } from "../db";
import {
  adminTotp,
  administrators,
  agents,
  changeContactSubmissions,
  globalSettings,
  riderAttendance,
  riders,
  users,
  wallets,
} from "../db/schema";

/** Set in the same transaction as the demo data: its presence means "already seeded". */
export const DEMO_SEED_MARKER = "demoSeed";
const DAY = 86_400_000;
const HOUR = 3_600_000;
const BATCH = 200;

export interface SeedReport {
  bootstrapAdmin: boolean;
  demo: boolean;
}

/**
 * Brings a freshly migrated database to its starting state, idempotently: running it again
 * changes nothing.
 * - When no administrator exists and ADMIN_EMAIL/ADMIN_PASSWORD are set, creates that super
 *   administrator (the production bootstrap). In production, refuses to continue with no
 *   administrator at all, since nobody could ever log in.
 * - Outside production, seeds the demo data set once: the demo administrators, 600 users of every
 *   role and approval state with wallets, rider and agent details, change-contact submissions and
 *   the support e-mail setting.
 */
export async function seedDatabase(db: Db, config: Config): Promise<SeedReport> {
  const report: SeedReport = { bootstrapAdmin: false, demo: false };
  // The seed may run before any app is built (npm run seed, test templates).
  configurePasswordHashing({ cost: config.passwordHashCost });
  if (config.bootstrapAdmin) report.bootstrapAdmin = await bootstrapAdministrator(db, config);
  if (config.demoAccounts.length > 0) report.demo = await seedDemoData(db, config);

  if (config.nodeEnv === "production") {
    const [admins] = await db.select({ n: count() }).from(administrators);
    if ((admins?.n ?? 0) === 0) {
      throw new ConfigError(
        "No administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD to create the first super administrator",
      );
    }
  }
  return report;
}

async function bootstrapAdministrator(db: Db, config: Config): Promise<boolean> {
  const admin = config.bootstrapAdmin;
  if (!admin) return false;
  const broken = brokenPasswordRules(admin.password);
  if (broken.length > 0) {
    throw new ConfigError(`ADMIN_PASSWORD is too weak (breaks: ${broken.join(", ")})`);
  }
  const passwordHash = await hashPassword(admin.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${administrators} in share row exclusive mode`);
    const [existing] = await tx.select({ n: count() }).from(administrators);
    if ((existing?.n ?? 0) > 0) return false;
    const [created] = await tx
      .insert(administrators)
      .values({
        name: "Super Administrator",
        email: admin.email,
        passwordHash,
        permissions: [...PERMISSION_CODES],
        isSuperAdmin: true,
      })
      .returning();
    if (!created) throw new Error("INSERT administrators returned no row");
    await recordAudit(tx, {
      adminId: null,
      action: "administrator.bootstrap",
      targetTable: "administrators",
      targetId: created.id,
      after: { id: created.id, email: created.email, isSuperAdmin: true },
    });
    return true;
  });
}

async function seedDemoData(db: Db, config: Config): Promise<boolean> {
  const [marker] = await db
    .select({ key: globalSettings.key })
    .from(globalSettings)
    .where(eq(globalSettings.key, DEMO_SEED_MARKER));
  if (marker) return false;

  // Hashing is slow on purpose; do it before the transaction. The extra staff get a random
  // password nobody knows: they exist to populate the list.
  const demoHashes = await Promise.all(config.demoAccounts.map((a) => hashPassword(a.password)));
  const staffHash = await hashPassword(randomBytes(24).toString("base64url"));

  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${globalSettings} in share row exclusive mode`);
    const [again] = await tx
      .select({ key: globalSettings.key })
      .from(globalSettings)
      .where(eq(globalSettings.key, DEMO_SEED_MARKER));
    if (again) return false;

    const seededAt = Date.now();
    const adminRows = [
      ...config.demoAccounts.map((account, i) => ({
        name: account.name,
        email: account.email,
        passwordHash: demoHashes[i]!,
        permissions: account.permissions,
        isSuperAdmin: account.isSuperAdmin,
        status: account.status,
        // The demo logins have signed in lately, but the banned one, who cannot.
        lastLoginAt: account.status === "active" ? new Date(seededAt - (i + 1) * 3 * HOUR) : null,
        createdAt: new Date(DEMO_EPOCH - (400 - i) * DAY),
        updatedAt: new Date(DEMO_EPOCH - (400 - i) * DAY),
      })),
      ...DEMO_STAFF.map((staff, i) => ({
        name: staff.name,
        email: staff.email,
        passwordHash: staffHash,
        permissions: [...staff.permissions],
        isSuperAdmin: false,
        status: staff.status,
        lastLoginAt:
          staff.lastLoginHoursAgo === null
            ? null
            : new Date(seededAt - staff.lastLoginHoursAgo * HOUR),
        createdAt: new Date(DEMO_EPOCH - (300 - i * 17) * DAY),
        updatedAt: new Date(DEMO_EPOCH - (300 - i * 17) * DAY),
      })),
    ];
    await tx.insert(administrators).values(adminRows).onConflictDoNothing();
    await enrolDemoTwoStep(tx, config);
    const reviewers = await tx
      .select({ id: administrators.id })
      .from(administrators)
      .where(
        inArray(
          administrators.email,
          config.demoAccounts.slice(0, 2).map((a) => a.email),
        ),
      );

    await insertDemoUsers(
      tx,
      reviewers.map((r) => r.id),
      seededAt,
    );
    await insertDemoMoney(
      tx,
      reviewers.map((r) => r.id),
      seededAt,
    );
    await seedDemoParking(
      tx,
      reviewers.map((r) => r.id),
    );
    // Money and parking wrote the ledger directly: its roll-ups from what they wrote.
    await rebuildLedgerRollups(tx);

    await seedDemoIdsAndReports(tx);
    await seedDemoContent(tx, reviewers[0]?.id ?? null);
    await seedDemoNotifications(
      tx,
      reviewers.map((r) => r.id),
      Date.now(),
    );

    const emailOf = (role: DemoRole) =>
      config.demoAccounts.find((account) => account.role === role)?.email ?? "";
    await seedDemoChangeRequests(
      tx,
      {
        superAdmin: emailOf("super administrator"),
        finance: emailOf("finance"),
        approver: emailOf("second super administrator"),
        checker: emailOf("finance checker"),
      },
      Date.now(),
    );

    await seedDemoReconciliation(
      tx,
      { finance: emailOf("finance"), checker: emailOf("finance checker") },
      seededAt,
    );
    const superAdmin = config.demoAccounts.find((a) => a.isSuperAdmin);
    const contact = config.supportEmail ?? superAdmin?.email;
    const settings: Array<typeof globalSettings.$inferInsert> = [
      { key: DEMO_SEED_MARKER, value: { users: DEMO_USER_COUNT } },
      // The demo's logins need only their password (the README's first start); production's
      // default is a second factor for everyone. One demo administrator has one all the same.
      { key: "secondFactorRequired", value: "nobody" },
    ];
    if (contact) settings.push({ key: SETTING_KEYS.supportEmail, value: contact });
    await tx.insert(globalSettings).values(settings).onConflictDoNothing();
    return true;
  });
}

/** The demo's administrator with an authenticator app: a secret of this installation's own. */
async function enrolDemoTwoStep(tx: Tx, config: Config) {
  const email = config.demoAccounts.find((a) => a.role === "two-step administrator")?.email;
  if (!email) return;
  const [admin] = await tx
    .select({ id: administrators.id })
    .from(administrators)
    .where(eq(administrators.email, email));
  if (!admin) return;
  const secret = secretBox(config.secondFactorKey).seal(newTotpSecret(), totpContext(admin.id));
  await tx
    .insert(adminTotp)
    .values({ adminId: admin.id, secret, confirmedAt: new Date() })
    .onConflictDoNothing();
  await newRecoveryCodes(tx, admin.id);
}

/** The demo administrator's authenticator secret, for the start to print (undefined: none). */
export async function demoTotpSecret(db: Db, config: Config) {
  const email = config.demoAccounts.find((a) => a.role === "two-step administrator")?.email;
  if (!email) return undefined;
  const [row] = await db
    .select({ adminId: adminTotp.adminId, sealed: adminTotp.secret })
    .from(adminTotp)
    .innerJoin(administrators, eq(administrators.id, adminTotp.adminId))
    .where(eq(administrators.email, email));
  if (!row) return undefined;
  const secret = secretBox(config.secondFactorKey).open(row.sealed, totpContext(row.adminId));
  return { email, secret, uri: totpUri(secret, email) };
}

/** The merchants and 90 days of wallet activity up to now (server/seed/demo-money.ts). */
async function insertDemoMoney(tx: Tx, counterStaffIds: number[], now: number) {
  const recent = new Date(now - 60 * DAY);
  const holders = await tx
    .select({
      id: users.id,
      accountNumber: users.accountNumber,
      createdAt: users.createdAt,
      openingSen: wallets.balanceSen,
      active: sql<boolean>`${users.approvalStatus} = 'approved' and not ${users.isBanned}
        and ${wallets.status} = 'active' and ${users.lastActiveAt} >= ${recent}`,
    })
    .from(users)
    .innerJoin(wallets, eq(wallets.userId, users.id))
    .orderBy(users.id);
  const merchants = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "merchant"), eq(users.approvalStatus, "approved")))
    .orderBy(users.id);
  const agentRows = await tx.select({ id: agents.userId }).from(agents).orderBy(agents.userId);
  await seedDemoMoney(tx, {
    holders,
    merchantOwnerIds: merchants.map((m) => m.id),
    agentIds: agentRows.map((a) => a.id),
    counterStaffIds,
    now,
  });
}

/** The demo users, signed up over the days before `now` (see `generateDemoUsers`). */
async function insertDemoUsers(tx: Tx, reviewerIds: number[], now: number) {
  const demo = generateDemoUsers(now);
  for (let start = 0; start < demo.length; start += BATCH) {
    const batch = demo.slice(start, start + BATCH);
    await tx
      .insert(users)
      .values(
        batch.map((u) => ({
          accountNumber: u.accountNumber,
          name: u.name,
          email: u.email,
          phone: u.phone,
          role: u.role,
          approvalStatus: u.approvalStatus,
          approvalRemark: u.approvalRemark,
          isBanned: u.isBanned,
          banRemark: u.banRemark,
          isVip: u.isVip,
          url: u.url,
          lastActiveAt: u.lastActiveAt,
          createdAt: u.createdAt,
          updatedAt: u.lastActiveAt ?? u.createdAt,
        })),
      )
      .onConflictDoNothing();

    const ids = new Map(
      (
        await tx
          .select({ id: users.id, accountNumber: users.accountNumber })
          .from(users)
          .where(
            inArray(
              users.accountNumber,
              batch.map((u) => u.accountNumber),
            ),
          )
      ).map((row) => [row.accountNumber, row.id]),
    );
    const idOf = (accountNumber: string) => {
      const id = ids.get(accountNumber);
      if (id === undefined) throw new Error(`Seeded user ${accountNumber} not found`);
      return id;
    };

    /** Each user's `details` (where there are any) as a row, dated at the user's sign-up. */
    const detailRows = <D extends object>(details: (u: DemoUser) => D | undefined) =>
      batch.flatMap((u) => {
        const row = details(u);
        if (!row) return [];
        return [
          { userId: idOf(u.accountNumber), ...row, createdAt: u.createdAt, updatedAt: u.createdAt },
        ];
      });

    await tx
      .insert(wallets)
      .values(
        detailRows(({ wallet }) => ({ balanceSen: wallet.balanceSen, status: wallet.status })),
      )
      .onConflictDoNothing();

    const riderRows = detailRows(
      ({ rider }) =>
        rider && {
          vehicleType: rider.vehicleType,
          plate: rider.plate,
          licenceNumber: rider.licenceNumber,
          verificationStatus: rider.verificationStatus,
          verificationRemarks: rider.verificationRemarks,
        },
    );
    if (riderRows.length > 0) await tx.insert(riders).values(riderRows).onConflictDoNothing();
    const attendance = batch.flatMap((u) =>
      Array.from({ length: u.rider?.attendanceDays ?? 0 }, (_, day) => {
        const date = new Date(now - (day + 1) * DAY);
        const clockIn = new Date(date.getTime() + (8 + (day % 3)) * 3_600_000);
        return {
          userId: idOf(u.accountNumber),
          date: date.toISOString().slice(0, 10),
          clockIn,
          clockOut: new Date(clockIn.getTime() + (6 + (day % 4)) * 3_600_000),
          createdAt: clockIn,
          updatedAt: clockIn,
        };
      }),
    );
    if (attendance.length > 0) await tx.insert(riderAttendance).values(attendance);

    const agentRows = detailRows(
      ({ agent }) =>
        agent && { agentType: agent.agentType, commissionRateBp: agent.commissionRateBp },
    );
    if (agentRows.length > 0) await tx.insert(agents).values(agentRows).onConflictDoNothing();

    const changes = batch.filter((u) => u.contactChange);
    if (changes.length > 0) {
      await tx.insert(changeContactSubmissions).values(
        changes.map((u, i) => {
          const change = u.contactChange!;
          const decided = change.status !== "pending";
          return {
            userId: idOf(u.accountNumber),
            contactType: change.contactType,
            oldValue: change.contactType === "email" ? u.email : u.phone,
            newValue: change.newValue,
            status: change.status,
            remark: change.remark,
            reviewerId: decided ? (reviewerIds[i % Math.max(reviewerIds.length, 1)] ?? null) : null,
            reviewedAt: decided ? new Date(change.createdAt.getTime() + DAY) : null,
            createdAt: change.createdAt,
            updatedAt: decided ? new Date(change.createdAt.getTime() + DAY) : change.createdAt,
          };
        }),
      );
    }
  }
}
