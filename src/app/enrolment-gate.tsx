import { LogoutOutlined } from "@ant-design/icons";
import { useLogout } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Button, Flex, Skeleton, Typography } from "antd";
import { Suspense, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import type { SessionState } from "../providers/api-types";
import { http } from "../providers/http";
import { ModuleTexts } from "./module-texts";
import { CHECKING_SESSION } from "./session-gate";
import { TwoStepCard } from "./setting/two-step-card";
import { SESSION_API_PATH } from "./idle-watch";

export const SESSION_STATE_KEY = ["session-state"] as const;

/**
 * The signed-in console, unless the administrator must set up a second factor first (the Global
 * setting requires one of them and they have none): then only the enrolment, until its recovery
 * codes are saved. The server serves nothing else meanwhile (403 SECOND_FACTOR_REQUIRED).
 */
export function EnrolmentGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation("session");
  const { mutate: logout } = useLogout();
  const state = useQuery({
    queryKey: SESSION_STATE_KEY,
    queryFn: async () => (await http.get<SessionState>(SESSION_API_PATH)).data,
    staleTime: Infinity,
    // Another administrator may sign in next in this tab: nothing of this session is kept.
    gcTime: 0,
  });
  if (state.isPending) return CHECKING_SESSION;
  if (!state.data?.enrolmentRequired) return children;
  return (
    <main style={{ maxWidth: 640, margin: "0 auto", padding: "24px 16px" }}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("enrolment.title")}
        </Typography.Title>
        <Button icon={<LogoutOutlined aria-hidden />} onClick={() => logout()}>
          {t("enrolment.signOut")}
        </Button>
      </Flex>
      <Typography.Paragraph>{t("enrolment.intro")}</Typography.Paragraph>
      <Suspense fallback={<Skeleton active />}>
        <ModuleTexts>
          <TwoStepCard onSetUp={() => void state.refetch()} />
        </ModuleTexts>
      </Suspense>
    </main>
  );
}
