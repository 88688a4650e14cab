#!/usr/bin/env node
// Checks a signed export of the audit trail or the ledger offline (docs/integrity.md).
//
//   node scripts/verify-export.mjs <export.jsonl> <public-key>
//
// <public-key>: the PEM file, or the JSON GET /api/integrity/public-key answers. Plain Node
// (18 or later), no dependencies. Checks the Ed25519 signature over SHA-256 of every byte before
// the last line, then recomputes every chain: each row's digest (SHA-256 of its fields' canonical
// encoding) and link (SHA-256 of the previous link and the digest) must give the row's hash, each
// chain must end at its last link, and an audit chain's links must be numbered without a gap.
// Prints what it checked and each chain's first broken link; exits 0 when all holds, 1 otherwise.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const [exportFile, keyFile] = process.argv.slice(2);
if (!exportFile || !keyFile) {
  console.error("usage: node scripts/verify-export.mjs <export.jsonl> <public-key.pem|json>");
  process.exit(2);
}

const keyText = readFileSync(keyFile, "utf8");
const publicKey = createPublicKey(
  keyText.trimStart().startsWith("{") ? JSON.parse(keyText).publicKey : keyText,
);
const keyId = createHash("sha256")
  .update(publicKey.export({ type: "spki", format: "der" }))
  .digest("hex")
  .slice(0, 16);

const bytes = readFileSync(exportFile);
const body = bytes.subarray(0, bytes.lastIndexOf(0x0a, bytes.length - 2) + 1);
const signatureLine = JSON.parse(bytes.subarray(body.length).toString("utf8"));
const problems = [];
const sha256 = createHash("sha256").update(body).digest();

if (signatureLine.type !== "signature" || signatureLine.algorithm !== "Ed25519") {
  problems.push("the last line is not an Ed25519 signature");
} else {
  if (signatureLine.keyId !== keyId) {
    problems.push(`signed with key ${signatureLine.keyId}, not this key (${keyId})`);
  }
  if (signatureLine.sha256 !== sha256.toString("hex")) {
    problems.push("the export's bytes are not the ones signed (SHA-256 differs)");
  }
  if (!verify(null, sha256, publicKey, Buffer.from(signatureLine.signature, "base64"))) {
    problems.push("the signature does not verify with this key");
  }
}

// The canonical encoding: per field "-" (null) or its UTF-8 byte length, ":" and its text.
function digestOf(fields, values) {
  let text = "";
  for (const field of fields) {
    const value = values[field];
    text += value === null || value === undefined ? "-" : `${Buffer.byteLength(value)}:${value}`;
  }
  return createHash("sha256").update(Buffer.from(text, "utf8")).digest();
}
const linkOf = (previous, digest) => createHash("sha256").update(previous).update(digest).digest();

let header;
let rows = 0;
let chains = 0;
const broken = new Map();
let current;
for (const [index, text] of body.toString("utf8").split("\n").entries()) {
  if (text === "") continue;
  const line = JSON.parse(text);
  const where = `line ${index + 1}`;
  if (line.type === "header") {
    header = line;
  } else if (line.type === "chain") {
    chains += 1;
    current = { chain: line.chain, previous: Buffer.from(line.previous, "hex"), seq: undefined };
  } else if (line.type === "row") {
    rows += 1;
    if (!header || !current || current.chain !== line.chain) {
      problems.push(`${where}: a row outside its chain`);
      continue;
    }
    if (broken.has(line.chain)) continue;
    const id = line.fields.id;
    if (line.seq !== undefined) {
      if (current.seq !== undefined && line.seq !== current.seq + 1) {
        broken.set(
          line.chain,
          `row ${id} (${where}): link ${line.seq} follows link ${current.seq}: links are missing (deleted)`,
        );
        continue;
      }
      current.seq = line.seq;
    }
    const link = linkOf(current.previous, digestOf(header.fields, line.fields));
    if (line.hash !== link.toString("hex")) {
      broken.set(
        line.chain,
        `row ${id} (${where}): its content does not give its link (edited, or a row before it deleted): expected ${link.toString("hex")}, found ${line.hash}`,
      );
      continue;
    }
    current.previous = link;
  } else if (line.type === "end") {
    if (!current || current.chain !== line.chain) {
      problems.push(`${where}: the end of a chain that did not start`);
      continue;
    }
    if (!broken.has(line.chain) && line.last !== current.previous.toString("hex")) {
      broken.set(line.chain, `${where}: the chain's last link is not the one its rows give`);
    }
    const head = line.head ?? {};
    if (
      !broken.has(line.chain) &&
      head.seq !== undefined &&
      head.seq === current.seq &&
      head.hash !== line.last
    ) {
      broken.set(line.chain, `${where}: the head at the last exported link differs from it`);
    }
    current = undefined;
  }
}
if (!header) problems.push("no header line");

for (const [chain, problem] of broken) problems.push(`${chain}: ${problem}`);
console.log(
  `${header?.table ?? "?"} ${header?.from ?? "?"}..${header?.to ?? "?"}: ${rows} rows in ${chains} chains, key ${keyId}`,
);
if (problems.length === 0) {
  console.log("OK: the signature holds and every chain recomputes");
  process.exit(0);
}
for (const problem of problems) console.log(`BROKEN: ${problem}`);
process.exit(1);
