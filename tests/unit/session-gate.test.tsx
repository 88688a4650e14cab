import {
  Refine,
  useInvalidateAuthStore,
  type AuthProvider,
  type CheckResponse,
} from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { SessionGate } from "../../src/app/session-gate";

/** An auth provider whose session check answers only when the test says so. */
function controllableCheck() {
  const answers: ((response: CheckResponse) => void)[] = [];
  const authProvider: AuthProvider = {
    check: () => new Promise<CheckResponse>((resolve) => answers.push(resolve)),
    login: async () => ({ success: true }),
    logout: async () => ({ success: true }),
    onError: async () => ({}),
  };
  const answer = async (response: CheckResponse) => {
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
    await act(async () => answers.splice(0).forEach((resolve) => resolve(response)));
  };
  return { authProvider, answer, pending: () => answers.length };
}

function HalfFilledForm() {
  const [value, setValue] = useState("");
  const recheck = useInvalidateAuthStore();
  return (
    <>
      <input aria-label="Remark" value={value} onChange={(e) => setValue(e.target.value)} />
      <button onClick={() => void recheck()}>Re-check</button>
    </>
  );
}

function renderGate(authProvider: AuthProvider) {
  return render(
    <MemoryRouter>
      <Refine
        authProvider={authProvider}
        routerProvider={routerProvider}
        options={{ disableTelemetry: true }}
      >
        <SessionGate signedIn={<HalfFilledForm />} signedOut={<p>Please sign in</p>} />
      </Refine>
    </MemoryRouter>,
  );
}

describe("the session gate", () => {
  it("shows exactly Loading... until the first check answers", async () => {
    const { authProvider, answer } = controllableCheck();
    const { container } = renderGate(authProvider);
    expect(container.textContent).toBe("Loading...");
    await answer({ authenticated: true });
    expect(await screen.findByLabelText("Remark")).toBeInTheDocument();
  });

  it("keeps the page, and what was typed, while the session is checked again", async () => {
    const { authProvider, answer, pending } = controllableCheck();
    renderGate(authProvider);
    await answer({ authenticated: true });
    await userEvent.type(await screen.findByLabelText("Remark"), "half typed");

    await userEvent.click(screen.getByRole("button", { name: "Re-check" }));
    await vi.waitFor(() => expect(pending()).toBeGreaterThan(0));
    expect(screen.queryByText("Loading...")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Remark")).toHaveValue("half typed");

    await answer({ authenticated: true });
    expect(screen.getByLabelText("Remark")).toHaveValue("half typed");
  });

  it("shows the signed-out content when a re-check finds the session gone", async () => {
    const { authProvider, answer } = controllableCheck();
    renderGate(authProvider);
    await answer({ authenticated: true });
    await userEvent.click(await screen.findByRole("button", { name: "Re-check" }));
    await answer({ authenticated: false });
    expect(await screen.findByText("Please sign in")).toBeInTheDocument();
  });
});
