import { randomBytes } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { and, eq, sql } from "drizzle-orm";

import { DOCUMENT_TYPES, type DocumentKind } from "../../src/shared/documents";
import type { Db, DbOrTx } from "../db";
import { riderDocumentFiles, riders } from "../db/schema";

/**
 * Rider documents live in the database (`rider_document_files`), so every server instance serves
 * every document: the id is random, never the client's file name, and the row goes in with the
 * rider's change, in one transaction. Before that, they were files under DATA_DIR/documents,
 * which `importDocumentsFromDisk` moves in.
 */
export const documentsRoot = (dataDir: string) => join(dataDir, "documents");

/** 128 random bits as hex: the document's id. */
export const newDocumentId = () => randomBytes(16).toString("hex");

export const DOCUMENT_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The bytes each allowed type starts with (PDF `%PDF-`, JPEG SOI + marker, PNG signature). */
const SIGNATURES: Record<DocumentKind, readonly number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d],
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

/** Which allowed type a file's first bytes say it is, whatever its name or declared type. */
export function sniffDocumentKind(head: Uint8Array): DocumentKind | undefined {
  return DOCUMENT_TYPES.find(({ kind }) => SIGNATURES[kind].every((byte, i) => head[i] === byte))
    ?.kind;
}

export interface StagedDocument {
  id: string;
  /** The client's file name, cleaned for display; never used as a key. */
  name: string;
  kind: DocumentKind;
  contentType: string;
  size: number;
  content: Buffer;
}

/** Stores the documents' content for the rider (inside the transaction that lists them). */
export async function storeDocuments(
  tx: DbOrTx,
  riderUserId: number,
  documents: readonly StagedDocument[],
): Promise<void> {
  for (const document of documents) {
    await tx
      .insert(riderDocumentFiles)
      .values({ id: document.id, riderUserId, content: document.content });
  }
}

/** A rider's document's content, or undefined when there is none. */
export async function documentContent(
  db: Db,
  riderUserId: number,
  documentId: string,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ content: riderDocumentFiles.content })
    .from(riderDocumentFiles)
    .where(
      and(eq(riderDocumentFiles.id, documentId), eq(riderDocumentFiles.riderUserId, riderUserId)),
    );
  return row?.content;
}

/**
 * Moves documents a former version kept on disk (DATA_DIR/documents/<rider id>/<document id>)
 * into the database: a file whose rider still lists it is stored, then deleted; files nobody lists
 * stay where they are. Safe to run at every start and on several instances at once.
 */
export async function importDocumentsFromDisk(db: Db, dataDir: string): Promise<number> {
  const root = documentsRoot(dataDir);
  const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
  let imported = 0;
  for (const folder of folders) {
    if (!folder.isDirectory() || !/^[1-9][0-9]{0,9}$/.test(folder.name)) continue;
    const riderUserId = Number(folder.name);
    const ids = (await readdir(join(root, folder.name))).filter((id) =>
      DOCUMENT_ID_PATTERN.test(id),
    );
    for (const id of ids) {
      const path = join(root, folder.name, id);
      const listed = await db
        .select({ userId: riders.userId })
        .from(riders)
        .where(
          and(
            eq(riders.userId, riderUserId),
            sql`${riders.documents} @> ${JSON.stringify([{ id }])}::jsonb`,
          ),
        );
      if (listed.length === 0) continue;
      await db
        .insert(riderDocumentFiles)
        .values({ id, riderUserId, content: await readFile(path) })
        .onConflictDoNothing();
      await rm(path, { force: true });
      imported += 1;
    }
  }
  return imported;
}
