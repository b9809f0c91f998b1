/**
 * Emails in the shop's name: one layout (HTML with a plain-text part) and the
 * messages built on it. Every value put into the HTML is escaped.
 */

import { escapeHtml } from "../../lib/html.ts";

export interface RenderedEmail {
  html: string;
  text: string;
}

export interface Email extends RenderedEmail {
  subject: string;
}

export interface EmailLayout {
  appName: string;
  publicUrl: string;
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

interface Shop {
  appName: string;
  publicUrl: string;
}

export { escapeHtml };

/** Links in an email must be web links: anything else (javascript:, data:) is a bug. */
function webUrl(url: string): string {
  if (!/^https?:\/\//i.test(url)) throw new Error(`An email link must be an http(s) URL: ${url}`);
  return url;
}

const FONT = "font-family:Arial,Helvetica,sans-serif;";

export function renderEmail(layout: EmailLayout): RenderedEmail {
  const shopUrl = webUrl(layout.publicUrl.replace(/\/+$/, ""));
  const name = escapeHtml(layout.appName);
  const action = layout.action && { label: layout.action.label, url: webUrl(layout.action.url) };

  const paragraphs = layout.paragraphs
    .map((p) => `<p style="margin:0 0 16px;">${escapeHtml(p)}</p>`)
    .join("\n");
  // A table-based button renders in Outlook too; the link is repeated as text
  // for clients that drop the button and for readers who copy it.
  const button = action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0;">
<tr><td style="border-radius:6px;background-color:#1d4ed8;">
<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(action.label)}</a>
</td></tr>
</table>
<p style="margin:0 0 16px;font-size:14px;color:#4b5563;">If the button does not work, copy this link into your browser:<br>
<a href="${escapeHtml(action.url)}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(action.url)}</a></p>`
    : "";
  const footer = layout.footer ? `${escapeHtml(layout.footer)}<br><br>` : "";

  const html = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(layout.title)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:20px 32px;background-color:#111827;border-radius:8px 8px 0 0;">
<a href="${escapeHtml(shopUrl)}" style="${FONT}font-size:20px;font-weight:bold;color:#ffffff;text-decoration:none;">${name}</a>
</td></tr>
<tr><td style="padding:32px;${FONT}font-size:16px;line-height:1.5;color:#111827;">
<h1 style="margin:0 0 16px;${FONT}font-size:22px;line-height:1.3;color:#111827;">${escapeHtml(layout.title)}</h1>
${paragraphs}
${button}
</td></tr>
<tr><td style="padding:20px 32px;border-top:1px solid #e5e7eb;${FONT}font-size:13px;line-height:1.5;color:#4b5563;">
${footer}${name} &middot; <a href="${escapeHtml(shopUrl)}" style="color:#4b5563;">${escapeHtml(shopUrl)}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

  const text = [
    layout.appName,
    layout.title,
    ...layout.paragraphs,
    // The URL on a line of its own, so mail clients turn it into a link.
    ...(action ? [`${action.label}:\n${action.url}`] : []),
    ...(layout.footer ? [layout.footer] : []),
    `${layout.appName}\n${shopUrl}`,
  ].join("\n\n");

  return { html, text: `${text}\n` };
}

/** An email of the shop's layout: its subject, and the layout's words (the shop's name and address filled in). */
export function shopEmail(shop: Shop, subject: string, layout: Omit<EmailLayout, "appName" | "publicUrl">): Email {
  return { subject, ...renderEmail({ appName: shop.appName, publicUrl: shop.publicUrl, ...layout }) };
}

/** A page of the shop, e.g. `/account`, from its public address. */
function shopPage(shop: Shop, path: string): string {
  return `${shop.publicUrl.replace(/\/+$/, "")}${path}`;
}

function greeting(firstname: string): string {
  const name = firstname.trim();
  return name ? `Hello ${name},` : "Hello,";
}

/** "30 minutes", "1 hour", "2 hours". */
function duration(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) {
    const hours = minutes / 60;
    return `${hours} ${hours === 1 ? "hour" : "hours"}`;
  }
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

export function passwordResetEmail(input: Shop & { firstname: string; url: string; expiresInMinutes: number }): Email {
  const subject = "Reset your password";
  return shopEmail(input, subject, {
    title: subject,
    paragraphs: [
      greeting(input.firstname),
      `We received a request to reset the password for your ${input.appName} account. Use the button below to choose a new one.`,
      `The link can be used once and expires in ${duration(input.expiresInMinutes)}.`,
    ],
    action: { label: "Choose a new password", url: input.url },
    footer: "If you did not ask to reset your password, you can ignore this email: your password will not change.",
  });
}

export function welcomeEmail(input: Shop & { firstname: string }): Email {
  const subject = `Welcome to ${input.appName}`;
  return shopEmail(input, subject, {
    title: subject,
    paragraphs: [
      greeting(input.firstname),
      `Thank you for creating an account with ${input.appName}.`,
      "You can now sign in to follow your orders, keep your delivery addresses and save products for later.",
    ],
    action: { label: "Go to your account", url: shopPage(input, "/account") },
    footer: "You are receiving this email because an account was created with this address.",
  });
}

export function passwordChangedEmail(input: Shop & { firstname: string }): Email {
  const subject = "Your password was changed";
  return shopEmail(input, subject, {
    title: subject,
    paragraphs: [
      greeting(input.firstname),
      `The password for your ${input.appName} account has been changed.`,
      "If you made this change, there is nothing else to do.",
      "If you did not, reset your password straight away using the button below, and get in touch with us.",
    ],
    action: { label: "Reset your password", url: shopPage(input, "/auth/recovery") },
    footer: "We send this email to keep your account safe whenever its password changes.",
  });
}
