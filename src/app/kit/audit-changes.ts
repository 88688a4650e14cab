/** One changed field of an audit entry. */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields whose values differ between an entry's before and after snapshots, sorted. */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const from = isRecord(before) ? before : {};
  const to = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  return fields
    .filter((field) => JSON.stringify(from[field]) !== JSON.stringify(to[field]))
    .filter((field) => field !== "updatedAt")
    .map((field) => ({ field, before: from[field], after: to[field] }));
}
