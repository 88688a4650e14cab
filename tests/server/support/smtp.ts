import { SMTPServer } from "smtp-server";

import { listenInTestRange } from "./ports";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message exactly as transmitted (headers, MIME parts, transfer encodings). */
  raw: string;
}

export interface SmtpPeer {
  /** An SMTP_URL for this peer, with its credentials. */
  url: string;
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export const SMTP_USER = { user: "mailer", pass: "mailer-secret" } as const;

/**
 * A real SMTP server on loopback (the `smtp-server` package) that requires SMTP_USER's login and
 * keeps every message it accepts. `reject` makes it refuse each message with a 554, as a relay
 * that has blocked us would.
 */
export async function startSmtpPeer(options: { reject?: boolean } = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER.user && auth.password === SMTP_USER.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (options.reject) {
          callback(Object.assign(new Error("Message refused by policy"), { responseCode: 554 }));
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  // smtp-server re-emits its socket's errors; a busy port is handled by listenInTestRange.
  server.on("error", () => undefined);
  const port = await listenInTestRange(server.server);
  return {
    url: `smtp://${SMTP_USER.user}:${SMTP_USER.pass}@127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
