import { and, asc, between, eq } from "drizzle-orm";

import type { Db, DbOrTx, Tx } from "../../db";
import {
  riderAttendance,
  riders,
  type AdministratorRow,
  type RiderDocument,
  type UserRow,
} from "../../db/schema";
import { notFound } from "../../errors";
import type {
  EditRiderFields,
  RiderAttendance,
  RiderDetails,
  RiderDocumentDto,
} from "../../../src/shared/schemas/riders";
import type { RiderDecisionBody } from "../../../src/shared/schemas/rider-verification";
import { riderDetailsSchema } from "../../../src/shared/schemas/riders";
import type { ActionBinding, BoundModule } from "../../kit/bind";
import { changeRecord } from "../../kit/change";
import type { RequestedVersion } from "../../kit/versions";
import { storeDocuments, type StagedDocument } from "../../uploads/storage";
import { findUser } from "../../services/user-actions";
import { toUserDto } from "./records";

type RiderRow = typeof riders.$inferSelect;

/**
 * What this module keeps in `riders.documents` (the schema's RiderDocument plus what the list
 * shows). Entries written before documents had ids cannot be served and are left out.
 */
export interface StoredRiderDocument extends RiderDocument {
  id: string;
  contentType: string;
  size: number;
}

function isStored(document: RiderDocument): document is StoredRiderDocument {
  const candidate = document as Partial<StoredRiderDocument>;
  return typeof candidate.id === "string" && typeof candidate.size === "number";
}

export const storedDocuments = (rider: RiderRow) => rider.documents.filter(isStored);

function documentPath(accountNumber: string, documentId: string) {
  const query = new URLSearchParams({ account_number: accountNumber, document_id: documentId });
  return `/user-mgmt/rider-document?${query.toString()}`;
}

function toDocumentDto(accountNumber: string, document: StoredRiderDocument): RiderDocumentDto {
  return {
    id: document.id,
    name: document.fileName,
    contentType: document.contentType,
    size: document.size,
    uploadedAt: document.uploadedAt,
    downloadPath: documentPath(accountNumber, document.id),
  };
}

function toRiderDetails(user: UserRow, rider: RiderRow): RiderDetails {
  return {
    user: toUserDto(user),
    rider: {
      vehicleType: rider.vehicleType,
      plate: rider.plate,
      licenceNumber: rider.licenceNumber,
      verificationStatus: rider.verificationStatus,
      verificationRemarks: rider.verificationRemarks,
      documents: storedDocuments(rider).map((d) => toDocumentDto(user.accountNumber, d)),
    },
  };
}

/** The user and rider row of `accountNumber`; 404 when there is no such user or no rider. */
export async function findRider(db: DbOrTx, accountNumber: string) {
  const user = await findUser(db, { accountNumber });
  const [rider] = await db.select().from(riders).where(eq(riders.userId, user.id));
  if (!rider) throw notFound("Rider");
  return { user, rider };
}

export async function riderDetails(db: DbOrTx, accountNumber: string): Promise<RiderDetails> {
  const { user, rider } = await findRider(db, accountNumber);
  return toRiderDetails(user, rider);
}

/**
 * A user's rider facts: the record the verification changes (the kit 404s "Rider not found" for a
 * user who is no rider) and whose status and remarks before and after the audit entry keeps.
 */
async function verification(tx: Tx, userId: number) {
  const [facts] = await tx
    .select({
      verificationStatus: riders.verificationStatus,
      verificationRemarks: riders.verificationRemarks,
    })
    .from(riders)
    .where(eq(riders.userId, userId));
  return facts;
}

/** A pending rider decided (the kit has checked it is pending); the seed's call answers the rider. */
export const riderVerificationAction: ActionBinding<RiderDecisionBody> = {
  run: async (tx, { id, body }) => {
    await tx
      .update(riders)
      .set({ verificationStatus: body.action, verificationRemarks: body.remark ?? null })
      .where(eq(riders.userId, id));
  },
  record: verification,
  answer: {
    response: riderDetailsSchema,
    read: async (db, userId) => {
      const user = await findUser(db, { id: userId });
      return riderDetails(db, user.accountNumber);
    },
  },
};

/** The rider's days from `start_date` to `end_date`; the query's schema has checked the range. */
export async function riderAttendanceBetween(
  db: DbOrTx,
  query: { account_number: string; start_date: string; end_date: string },
): Promise<RiderAttendance> {
  const { start_date: start, end_date: end } = query;
  const { user } = await findRider(db, query.account_number);
  const rows = await db
    .select()
    .from(riderAttendance)
    .where(and(eq(riderAttendance.userId, user.id), between(riderAttendance.date, start, end)))
    .orderBy(asc(riderAttendance.date), asc(riderAttendance.clockIn), asc(riderAttendance.id));
  const days = rows.map((row) => ({
    date: row.date,
    clockIn: row.clockIn.toISOString(),
    clockOut: row.clockOut?.toISOString() ?? null,
    workedMinutes: row.clockOut
      ? Math.floor((row.clockOut.getTime() - row.clockIn.getTime()) / 60_000)
      : null,
  }));
  return {
    accountNumber: user.accountNumber,
    startDate: start,
    endDate: end,
    days,
    totalWorkedMinutes: days.reduce((sum, day) => sum + (day.workedMinutes ?? 0), 0),
  };
}

/** What the audit trail keeps of a rider: the facts and the document names, never content. */
const auditSnapshot = (rider: RiderRow) => ({
  vehicleType: rider.vehicleType,
  plate: rider.plate,
  licenceNumber: rider.licenceNumber,
  documents: rider.documents.map((document) => document.fileName),
});

/** A rider's facts as the audit keeps them, read in the edit's transaction. */
async function riderSnapshot(tx: Tx, userId: number) {
  const [rider] = await tx.select().from(riders).where(eq(riders.userId, userId));
  return rider && auditSnapshot(rider);
}

/**
 * The edit as a change of the user (the kit's changeRecord): the user's row locked, its If-Match
 * checked (the detail page shows the rider's facts as part of the user, docs/versions.md), the
 * rider changed, the user's version bumped and the change audited, unless the form was saved as
 * it was (nothing changes, nothing is audited).
 */
async function applyEdit(
  tx: Tx,
  bound: BoundModule,
  actor: AdministratorRow,
  edit: { fields: EditRiderFields; uploads: readonly StagedDocument[] },
  versionFor: (userId: number) => RequestedVersion,
) {
  const { fields, uploads } = edit;
  const user = await findUser(tx, { accountNumber: fields.account_number });
  let updated: RiderRow | undefined;
  const item = await changeRecord(
    tx,
    bound,
    {
      actor,
      id: user.id,
      audit: "rider.edit",
      remark: null,
      record: { thing: "Rider", read: riderSnapshot },
      quietWhenUnchanged: true,
      ...versionFor(user.id),
    },
    async () => {
      // The user is found and its row locked (changeRecord): the rider's row by the user's id.
      const [rider] = await tx
        .select()
        .from(riders)
        .where(eq(riders.userId, user.id))
        .for("update");
      if (!rider) throw notFound("Rider");
      const facts = {
        vehicleType: fields.vehicle_type ?? rider.vehicleType,
        plate: fields.plate ?? rider.plate,
        licenceNumber: fields.licence_number ?? rider.licenceNumber,
      };
      const unchanged =
        uploads.length === 0 &&
        facts.vehicleType === rider.vehicleType &&
        facts.plate === rider.plate &&
        facts.licenceNumber === rider.licenceNumber;
      if (unchanged) {
        // Saved as it was: nothing is written (nor audited, nor versioned: quietWhenUnchanged).
        updated = rider;
        return;
      }
      const uploadedAt = new Date().toISOString();
      const added: StoredRiderDocument[] = uploads.map((upload) => ({
        id: upload.id,
        kind: upload.kind,
        fileName: upload.name,
        path: `documents/${user.id}/${upload.id}`,
        contentType: upload.contentType,
        size: upload.size,
        uploadedAt,
      }));
      [updated] = await tx
        .update(riders)
        .set({ ...facts, documents: [...rider.documents, ...added] })
        .where(eq(riders.userId, user.id))
        .returning();
    },
  );
  if (!updated) throw notFound("Rider");
  return { user: { ...user, version: Number(item.version) }, updated };
}

/**
 * Changes a rider's details and adds the uploaded documents, all or nothing: the documents'
 * content is stored in the same transaction as the row that lists them.
 */
export async function editRider(
  db: Db,
  bound: BoundModule,
  actor: AdministratorRow,
  edit: { fields: EditRiderFields; uploads: readonly StagedDocument[] },
  versionFor: (userId: number) => RequestedVersion,
): Promise<RiderDetails> {
  const { user, updated } = await db.transaction(async (tx) => {
    const result = await applyEdit(tx, bound, actor, edit, versionFor);
    await storeDocuments(tx, result.user.id, edit.uploads);
    return result;
  });
  return toRiderDetails(user, updated);
}
