/**
 * Dialogs' close buttons are named in the console's language: rc-dialog names every one "Close",
 * and the console's ConfigProvider (consoleComponentConfig) gives antd's own word for it.
 */
import { render, screen } from "@testing-library/react";
import { ConfigProvider, Modal } from "antd";
import antdEnglish from "antd/es/locale/en_US";
import antdChinese from "antd/es/locale/zh_CN";
import { describe, expect, it } from "vitest";

import { consoleComponentConfig } from "../../src/app/console-config";

describe("a dialog's close button", () => {
  it.each([
    [antdChinese, "关闭"],
    [antdEnglish, "Close"],
  ])("is named in the language of the locale (%#)", (locale, name) => {
    render(
      <ConfigProvider {...consoleComponentConfig(locale)}>
        <Modal open title="A">
          body
        </Modal>
        <Modal open title="B" closable={true}>
          body
        </Modal>
      </ConfigProvider>,
    );
    const buttons = screen.getAllByRole("button", { name });
    expect(buttons.length).toBeGreaterThanOrEqual(2);
  });
});
