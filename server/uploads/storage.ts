import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";

import { DOCUMENT_TYPES, type DocumentKind } from "../../src/shared/riders";

/**
 * Rider documents live in DATA_DIR/documents/<rider id>/<document id>: the id is random, never
 * the client's file name, so nothing a client sends decides a path on disk. Uploads are written
 * to DATA_DIR/documents/.incoming first (same file system, so moving them in is an atomic rename).
 */
export const documentsRoot = (dataDir: string) => join(dataDir, "documents");
export const incomingDir = (dataDir: string) => join(documentsRoot(dataDir), ".incoming");
export const riderDocumentsDir = (dataDir: string, riderId: number) =>
  join(documentsRoot(dataDir), String(riderId));

/** 128 random bits as hex: the document's id and its file name on disk. */
export const newDocumentId = () => randomBytes(16).toString("hex");

export const DOCUMENT_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The path of a stored document; the id is checked, so it can never leave the rider's folder. */
export function storedDocumentPath(dataDir: string, riderId: number, documentId: string) {
  if (!DOCUMENT_ID_PATTERN.test(documentId)) throw new Error(`Not a document id: ${documentId}`);
  return join(riderDocumentsDir(dataDir, riderId), documentId);
}

/** The bytes each allowed type starts with (PDF `%PDF-`, JPEG SOI + marker, PNG signature). */
const SIGNATURES: Record<DocumentKind, readonly number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d],
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};
export const SNIFF_BYTES = 8;

/** Which allowed type a file's first bytes say it is, whatever its name or declared type. */
export function sniffDocumentKind(head: Uint8Array): DocumentKind | undefined {
  return DOCUMENT_TYPES.find(({ kind }) => SIGNATURES[kind].every((byte, i) => head[i] === byte))
    ?.kind;
}

export interface StagedDocument {
  id: string;
  /** The client's file name, cleaned for display; never used on disk. */
  name: string;
  kind: DocumentKind;
  contentType: string;
  size: number;
  /** Where the upload waits until its transaction commits. */
  stagedPath: string;
}

/**
 * Moves staged uploads into the rider's folder; returns the final paths so a failed commit can
 * remove them again.
 */
export async function moveIntoPlace(
  dataDir: string,
  riderId: number,
  staged: readonly StagedDocument[],
): Promise<string[]> {
  if (staged.length === 0) return [];
  await mkdir(riderDocumentsDir(dataDir, riderId), { recursive: true });
  const placed: string[] = [];
  try {
    for (const document of staged) {
      const target = storedDocumentPath(dataDir, riderId, document.id);
      await rename(document.stagedPath, target);
      placed.push(target);
    }
  } catch (error) {
    await removeFiles(placed);
    throw error;
  }
  return placed;
}

export async function removeFiles(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true })));
}
