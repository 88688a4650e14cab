import { FileSearchOutlined } from "@ant-design/icons";
import { useMutation } from "@tanstack/react-query";
import { Alert, Input, Typography } from "antd";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { handleApiError } from "../../providers/error-handler";
import { isApiError, translateApiError } from "../../providers/errors";
import { Panel } from "../components/panel";
import { LOOKUP_REFERENCE_MAX_LENGTH, lookupPath, lookUpReference } from "../lookup";

/** The codes the box explains in place; any other failure goes to the central handler too. */
const EXPLAINED = new Set(["REFERENCE_NOT_FOUND", "REFERENCE_INVALID", "VALIDATION_ERROR"]);

/**
 * The dashboard's search by reference: a top-up, payment, refund, invoice or user report
 * reference typed in full, Enter opens its record (GET /api/lookup); a reference that names
 * nothing the administrator may open, or is not one, is said under the box, and nothing changes.
 */
export function ReferenceSearch() {
  const { t } = useTranslation(["dashboard", "errors"]);
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const hintId = useId();
  const lookup = useMutation({
    mutationFn: (reference: string) => lookUpReference(reference),
    onSuccess: (answer) => {
      const path = lookupPath(answer);
      if (path) void navigate(path);
    },
    onError: (error) => {
      const code = isApiError(error) ? error.code : undefined;
      if (!code || !EXPLAINED.has(code)) handleApiError(error);
    },
  });
  const failure = lookup.error ? translateApiError(lookup.error, t) : undefined;
  return (
    <Panel title={t("lookup.title")} style={{ marginBottom: 16 }}>
      <Input.Search
        aria-label={t("lookup.label")}
        aria-describedby={hintId}
        placeholder={t("lookup.placeholder")}
        enterButton={
          <>
            <FileSearchOutlined aria-hidden /> {t("lookup.button")}
          </>
        }
        maxLength={LOOKUP_REFERENCE_MAX_LENGTH}
        value={text}
        loading={lookup.isPending}
        onChange={(event) => {
          setText(event.target.value);
          if (lookup.error) lookup.reset();
        }}
        onSearch={(value) => lookup.mutate(value)}
        style={{ maxWidth: 520 }}
      />
      <Typography.Paragraph id={hintId} type="secondary" style={{ margin: "8px 0 0" }}>
        {t("lookup.hint")}
      </Typography.Paragraph>
      {failure && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          message={failure}
          style={{ marginTop: 12, maxWidth: 520 }}
        />
      )}
    </Panel>
  );
}
