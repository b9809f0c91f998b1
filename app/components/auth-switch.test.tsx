// Under the sign-in, registration and recovery forms: the way to the other one, keeping where the visitor was going.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthSwitch, useKeepRedirect } from "./auth-switch.tsx";

function SignInSwitch() {
  return (
    <AuthSwitch question="New here?" to={useKeepRedirect("/auth/register")}>
      Create an account
    </AuthSwitch>
  );
}

function render(url: string): string {
  const Stub = createRoutesStub([{ path: "/auth/login", Component: SignInSwitch }]);
  return renderToStaticMarkup(<Stub initialEntries={[url]} />);
}

describe("AuthSwitch", () => {
  it("asks its question before the link to the other form", () => {
    expect(render("/auth/login")).toBe('<p class="mt-6 text-center">New here? <a class="link font-semibold" href="/auth/register" data-discover="true">Create an account</a></p>');
  });

  it("carries where the visitor was going on to the other form", () => {
    expect(render("/auth/login?redirect=%2Fcheckout%3Fstep%3D2")).toContain('href="/auth/register?redirect=%2Fcheckout%3Fstep%3D2"');
  });
});
