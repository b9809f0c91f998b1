/**
 * Product and brand images drawn on the server as SVG from the name alone: the
 * demo shop needs no image files and no network. Deterministic, so cacheable forever.
 */
import { escapeHtml } from "../../../lib/html.ts";

function hue(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 360;
}

function words(slug: string): string[] {
  return slug.split("-").filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
}

/** Splits a title into at most three lines of about 18 characters. */
function lines(text: string[], width = 18): string[] {
  const out: string[] = [];
  let line = "";
  for (const w of text) {
    if ((line + " " + w).trim().length > width && line) {
      out.push(line);
      line = w;
    } else line = `${line} ${w}`.trim();
    if (out.length === 3) break;
  }
  if (line && out.length < 3) out.push(line);
  return out;
}

export function productImageSvg(slug: string, view: number): string {
  const h = hue(slug);
  const title = lines(words(slug));
  const angle = view === 2 ? 35 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" role="img" aria-label="${escapeHtml(title.join(" "))}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h} 45% 94%)"/><stop offset="1" stop-color="hsl(${h} 40% 84%)"/></linearGradient></defs>
<rect width="600" height="600" fill="url(#g)"/>
<g transform="rotate(${angle} 300 260)"><rect x="170" y="150" width="260" height="220" rx="28" fill="hsl(${h} 55% 42%)"/><rect x="210" y="190" width="180" height="40" rx="10" fill="hsl(${h} 60% 80%)"/><circle cx="300" cy="300" r="38" fill="hsl(${(h + 40) % 360} 80% 55%)"/></g>
${title.map((t, i) => `<text x="300" y="${455 + i * 40}" font-family="system-ui,sans-serif" font-size="30" font-weight="700" text-anchor="middle" fill="hsl(${h} 50% 20%)">${escapeHtml(t)}</text>`).join("")}
</svg>`;
}

export function brandLogoSvg(slug: string): string {
  const h = hue(slug);
  const name = words(slug).join(" ");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 120" role="img" aria-label="${escapeHtml(name)}">
<rect width="320" height="120" rx="16" fill="hsl(${h} 60% 35%)"/>
<text x="160" y="72" font-family="system-ui,sans-serif" font-size="34" font-weight="800" text-anchor="middle" fill="#fff">${escapeHtml(name)}</text>
</svg>`;
}
