import { CheckOutlined, FileSearchOutlined, SearchOutlined, UserOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Input, Modal, Typography, theme, type InputRef } from "antd";
import {
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { canAccess } from "../providers/access-control";
import { useCurrentAdmin } from "../providers/current-admin";
import { LIST_SEARCH_MAX_LENGTH } from "../shared/kit/paging";
import { userApproval } from "../shared/modules/user-approval";
import { users as usersModule } from "../shared/modules/users";
import { PERMISSION } from "../shared/permissions";
import { recordPath } from "./kit/links";
import { isForSomethingElse, LIST_KEYS } from "./kit/list-shortcuts";
import { couldBeReference, lookupLabel, lookupPath, lookUpReference } from "./lookup";
import { visibleMenu, type MenuEntry } from "./menu";
import { MENU } from "./registry";

interface Command {
  key: string;
  icon: ReactNode;
  label: string;
  hint?: string;
  run: () => void;
}

/** Shortest search that asks the server for users (one letter would match most of them). */
const USER_SEARCH_MIN = 2;
const USER_RESULTS = 5;

/** The menu's pages, each with the labels of the groups above it ("User", "Approval"). */
const leavesOf = (
  entries: readonly MenuEntry[],
  above: readonly string[] = [],
): { entry: MenuEntry; labels: string[] }[] =>
  entries.flatMap((entry) =>
    entry.subMenu
      ? leavesOf(entry.subMenu, [...above, entry.label])
      : [{ entry, labels: [...above, entry.label] }],
  );

/** The wallet users whose name, account number, e-mail or phone holds `text`. */
function useUserMatches(text: string, allowed: boolean) {
  const search = text.trim();
  const { result, query } = useList<{ id: number; name: string; accountNumber: string }>({
    resource: "users",
    filters: [{ field: "q", operator: "contains", value: search }],
    pagination: { currentPage: 1, pageSize: USER_RESULTS },
    queryOptions: { enabled: allowed && search.length >= USER_SEARCH_MIN },
    errorNotification: false,
  });
  return allowed && search.length >= USER_SEARCH_MIN
    ? { users: result.data, loading: query.isFetching }
    : { users: [], loading: false };
}

/**
 * The record a whole reference names (a top-up, a payment, a refund, an invoice, a user report),
 * when the text could be one and the administrator may open it (GET /api/lookup): nothing
 * otherwise, without a toast (the palette simply offers nothing for it).
 */
function useReferenceMatch(text: string, allowed: boolean) {
  const reference = text.trim();
  const wanted = allowed && couldBeReference(reference);
  const query = useQuery({
    queryKey: ["lookup", reference.toUpperCase()],
    queryFn: ({ signal }) => lookUpReference(reference, signal),
    enabled: wanted,
    retry: false,
  });
  return wanted && query.data
    ? { answer: query.data, loading: false }
    : { answer: undefined, loading: wanted && query.isFetching };
}

/**
 * The command palette (Ctrl / ⌘ + K): jump to any page the administrator may open, open a record
 * by its reference typed in full, find a wallet
 * user by account number or name, or approve the next pending user. Arrow keys choose, Enter
 * runs, Escape closes. `?` shows every keyboard shortcut.
 */
export function CommandPalette() {
  const { t } = useTranslation(["common", "menu"]);
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const admin = useCurrentAdmin();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(text);
  const listId = useId();
  const inputRef = useRef<InputRef>(null);
  const mayUsers = admin !== undefined && canAccess(admin, PERMISSION.user);
  const { users, loading: usersLoading } = useUserMatches(deferred, open && mayUsers);
  const reference = useReferenceMatch(deferred, open && admin !== undefined);
  const loading = usersLoading || reference.loading;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen((value) => !value);
      } else if (event.key === "?" && !isForSomethingElse(event)) {
        event.preventDefault();
        setHelp(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const commands = useMemo((): Command[] => {
    if (!admin) return [];
    const close = (then: () => void) => () => {
      setOpen(false);
      setText("");
      then();
    };
    const wanted = text.trim().toLowerCase();
    const matches = (label: string) => wanted === "" || label.toLowerCase().includes(wanted);
    const actions: Command[] = mayUsers
      ? [
          {
            key: "approve-next",
            icon: <CheckOutlined aria-hidden />,
            label: t("palette.approveNext"),
            run: close(() => navigate(userApproval.paths.list, { state: { decide: "approve" } })),
          },
        ]
      : [];
    const pages: Command[] = leavesOf(visibleMenu(MENU, (code) => canAccess(admin, code))).map(
      ({ entry, labels }) => ({
        key: `page:${entry.path}`,
        icon: <entry.icon aria-hidden />,
        label: labels.map((label) => t(label)).join(" › "),
        hint: t("palette.page"),
        run: close(() => navigate(entry.path ?? "/")),
      }),
    );
    const found: Command[] = users.map((user) => ({
      key: `user:${user.id}`,
      icon: <UserOutlined aria-hidden />,
      label: `${user.name} · ${user.accountNumber}`,
      hint: t("palette.user"),
      run: close(() => navigate(recordPath(usersModule, user.id))),
    }));
    const answer = reference.answer;
    const path = answer && lookupPath(answer);
    // A whole reference comes first: typing one means opening that record.
    const record: Command[] =
      answer && path
        ? [
            {
              key: `record:${answer.module}:${answer.id}`,
              icon: <FileSearchOutlined aria-hidden />,
              label: lookupLabel(t, answer),
              hint: t("palette.record"),
              run: close(() => navigate(path)),
            },
          ]
        : [];
    return record.concat(
      [...actions, ...pages].filter((command) => matches(command.label)),
      found,
    );
  }, [admin, mayUsers, navigate, reference.answer, t, text, users]);

  const chosen = commands[Math.min(active, commands.length - 1)];
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <>
      <Modal
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        closable={false}
        destroyOnHidden
        // No opening animation: the search box has focus at once, so no keystroke typed right
        // after Ctrl + K is lost (the dialog would otherwise take focus as its animation ends).
        transitionName=""
        maskTransitionName=""
        afterOpenChange={(opened) => opened && inputRef.current?.focus()}
        title={t("palette.title")}
        styles={{ body: { padding: 0 } }}
      >
        <Input
          ref={inputRef}
          autoFocus
          size="large"
          variant="borderless"
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t(
            mayUsers ? "palette.placeholderWithReference" : "palette.placeholderPagesReference",
          )}
          value={text}
          maxLength={LIST_SEARCH_MAX_LENGTH}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
          }}
          role="combobox"
          aria-label={t("palette.title")}
          aria-expanded
          aria-controls={listId}
          aria-activedescendant={chosen ? optionId(commands.indexOf(chosen)) : undefined}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown" || event.key === "ArrowUp") {
              event.preventDefault();
              const step = event.key === "ArrowDown" ? 1 : -1;
              setActive((index) => (index + step + commands.length) % Math.max(commands.length, 1));
            } else if (event.key === "Enter" && chosen) {
              event.preventDefault();
              chosen.run();
            }
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={t("palette.results")}
          aria-busy={loading}
          style={{ listStyle: "none", margin: 0, padding: 4, maxHeight: 360, overflowY: "auto" }}
        >
          {commands.map((command, index) => (
            <li
              key={command.key}
              id={optionId(index)}
              role="option"
              aria-selected={command === chosen}
              // Moving, not entering: a list drawn under a resting pointer keeps the keyboard's choice.
              onMouseMove={() => setActive(index)}
              onClick={command.run}
              style={{
                display: "flex",
                gap: 10,
                alignItems: "center",
                padding: "8px 12px",
                borderRadius: token.borderRadius,
                cursor: "pointer",
                background: command === chosen ? token.controlItemBgActive : undefined,
              }}
            >
              {command.icon}
              <span style={{ flex: 1 }}>{command.label}</span>
              {command.hint && <Typography.Text type="secondary">{command.hint}</Typography.Text>}
            </li>
          ))}
          {commands.length === 0 && (
            <li role="presentation" style={{ padding: "8px 12px" }}>
              <Typography.Text type="secondary">
                {loading ? t("palette.searching") : t("palette.nothing")}
              </Typography.Text>
            </li>
          )}
        </ul>
      </Modal>
      <Modal open={help} onCancel={() => setHelp(false)} footer={null} title={t("shortcuts.title")}>
        <dl style={{ display: "grid", gridTemplateColumns: "auto 1fr", gap: "8px 16px" }}>
          {(
            [
              ["Ctrl / ⌘ + K", "shortcuts.palette"],
              [LIST_KEYS.next, "shortcuts.next"],
              [LIST_KEYS.previous, "shortcuts.previous"],
              [LIST_KEYS.open, "shortcuts.open"],
              [LIST_KEYS.approve, "shortcuts.approve"],
              [LIST_KEYS.reject, "shortcuts.reject"],
              ["?", "shortcuts.help"],
            ] as const
          ).map(([key, meaning]) => (
            <div key={meaning} style={{ display: "contents" }}>
              <dt>
                <Typography.Text keyboard>{key}</Typography.Text>
              </dt>
              <dd style={{ margin: 0 }}>{t(meaning)}</dd>
            </div>
          ))}
        </dl>
      </Modal>
    </>
  );
}
