import { describe, expect, it } from "vitest";
import { escapeHtml, passwordChangedEmail, passwordResetEmail, renderEmail, welcomeEmail } from "./templates.ts";

const shop = { appName: "Smith & Sons <Merchants>", publicUrl: "https://shop.example.co.uk" };
const evil = "<script>alert(1)</script>";

describe("renderEmail", () => {
  it("escapes every value in the HTML and keeps the text part plain", () => {
    const { html, text } = renderEmail({
      ...shop,
      title: `Hi "${evil}"`,
      paragraphs: [`Hello ${evil}, it's <b>bold</b>`],
      action: { label: `Go <now>`, url: `https://shop.example.co.uk/a?x=1&y="2"` },
      footer: `Sent by <${shop.appName}>`,
    });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>bold");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Smith &amp; Sons &lt;Merchants&gt;");
    expect(html).toContain("it&#39;s &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain('href="https://shop.example.co.uk/a?x=1&amp;y=&quot;2&quot;"');
    expect(html).toContain("max-width:600px");
    expect(html).toContain('lang="en-GB"');

    expect(text).toContain(`Hello ${evil}, it's <b>bold</b>`);
    expect(text.split("\n")).toContain(`https://shop.example.co.uk/a?x=1&y="2"`);
    expect(text.startsWith(`${shop.appName}\n`)).toBe(true);
  });

  it("refuses a link that is not a web address", () => {
    expect(() =>
      renderEmail({ ...shop, title: "t", paragraphs: [], action: { label: "x", url: "javascript:alert(1)" } }),
    ).toThrow(/http/);
  });

  it("escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("messages", () => {
  it("password reset: escapes the name and carries the link in both parts", () => {
    const url = "https://shop.example.co.uk/auth/recovery?token=abc123&email=a%40b.c";
    const mail = passwordResetEmail({ ...shop, firstname: evil, url, expiresInMinutes: 60 });
    expect(mail.subject).toBe("Reset your password");
    expect(mail.html).not.toContain(evil);
    expect(mail.html).toContain("Hello &lt;script&gt;alert(1)&lt;/script&gt;,");
    expect(mail.html).toContain(`href="${url.replace("&", "&amp;")}"`);
    expect(mail.text.split("\n")).toContain(url);
    expect(mail.text).toContain("expires in 1 hour");
  });

  it("welcome: named after the shop, links to the account", () => {
    const mail = welcomeEmail({ ...shop, firstname: evil });
    expect(mail.subject).toBe(`Welcome to ${shop.appName}`);
    expect(mail.html).not.toContain(evil);
    expect(mail.html).toContain("Welcome to Smith &amp; Sons &lt;Merchants&gt;");
    expect(mail.html).toContain('href="https://shop.example.co.uk/account"');
    expect(mail.text.split("\n")).toContain("https://shop.example.co.uk/account");
  });

  it("password changed: tells the customer how to react", () => {
    const mail = passwordChangedEmail({ ...shop, publicUrl: "https://shop.example.co.uk/", firstname: "  " });
    expect(mail.subject).toBe("Your password was changed");
    expect(mail.text).toContain("Hello,\n");
    expect(mail.html).toContain('href="https://shop.example.co.uk/auth/recovery"');
    expect(mail.text.split("\n")).toContain("https://shop.example.co.uk/auth/recovery");
  });
});
