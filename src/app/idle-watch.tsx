import { useLogout, useTranslate } from "@refinedev/core";
import { Button, Modal, Typography } from "antd";
import { useEffect, useRef, useState } from "react";

import type { SessionState } from "../providers/api-types";
import { toApiError } from "../providers/errors";
import { handleApiError } from "../providers/error-handler";
import { http } from "../providers/http";
import {
  heartbeatDue,
  idleSeconds,
  setSignedOutForInactivity,
  trackActivity,
} from "../providers/idle";

export const SESSION_API_PATH = "/api/auth/session";
const TICK_MS = 1_000;
/**
 * The server writes a session's last use at most every 30 s, so the console signs out a minute
 * before SESSION_IDLE_MINUTES counted from the last use, and warns a minute before that.
 */
const SLACK_SECONDS = 60;
const WARNING_SECONDS = 60;

/** `GET /api/auth/session`: the idle timeout, and (sent with the idle time) a sign of life. */
async function readSession(): Promise<SessionState | undefined> {
  try {
    return (await http.get<SessionState>(SESSION_API_PATH)).data;
  } catch (error) {
    // The session ended meanwhile (the computer slept): the handler signs out and says so.
    if (toApiError(error).statusCode === 401) handleApiError(error);
    return undefined;
  }
}

/**
 * Mounted once in the signed-in console: notes the administrator's use of the page, tells the
 * server of it when no request did (a heartbeat every 30 s at most), and before the session would
 * end unused warns with a countdown; at its end it signs out, and the login page says why.
 */
export function IdleWatch() {
  const translate = useTranslate();
  const { mutate: logout } = useLogout();
  const [idleMinutes, setIdleMinutes] = useState<number>();
  const [now, setNow] = useState(Date.now);
  const signedOut = useRef(false);

  const refresh = () =>
    void readSession().then((session) => {
      if (session) setIdleMinutes(session.idleMinutes);
    });

  useEffect(() => trackActivity(), []);
  useEffect(() => {
    refresh();
    const timer = setInterval(() => {
      const time = Date.now();
      if (heartbeatDue(time)) refresh();
      setNow(time);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const endAt = idleMinutes === undefined ? Infinity : idleMinutes * 60 - SLACK_SECONDS;
  const secondsLeft = endAt - idleSeconds(now);

  useEffect(() => {
    if (secondsLeft > 0 || signedOut.current) return;
    signedOut.current = true;
    setSignedOutForInactivity(true);
    logout();
  }, [secondsLeft, logout]);

  if (secondsLeft > WARNING_SECONDS || secondsLeft <= 0) return null;
  return (
    <Modal
      open
      title={translate("session:idle.title")}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={[
        <Button key="out" onClick={() => logout()}>
          {translate("session:idle.signOut")}
        </Button>,
        <Button key="stay" type="primary" onClick={refresh}>
          {translate("session:idle.stay")}
        </Button>,
      ]}
    >
      <Typography.Paragraph role="timer">
        {translate("session:idle.countdown", { count: secondsLeft })}
      </Typography.Paragraph>
    </Modal>
  );
}
