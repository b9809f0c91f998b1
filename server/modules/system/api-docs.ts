/**
 * A plain, script-free reference page for the OpenAPI document, so the docs
 * obey the same Content-Security-Policy as the rest of the shop.
 */
import { escapeHtml } from "../../lib/html.ts";

interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];


function schemaBlock(schema: unknown): string {
  return schema ? `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>` : "";
}

export function renderApiReference(doc: OpenApiDocument, appName: string): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${escapeHtml(p.name)}</code> in ${escapeHtml(p.in)}${p.required ? " (required)" : ""}</li>`)
        .join("");
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(
          ([code, r]) =>
            `<li><strong>${escapeHtml(code)}</strong> ${escapeHtml(r.description ?? "")}${schemaBlock(r.content?.["application/json"]?.schema)}</li>`,
        )
        .join("");
      sections.push(`<section id="${escapeHtml(`${method}-${path}`)}">
<h2><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
${op.summary ? `<p>${escapeHtml(op.summary)}</p>` : ""}
${params ? `<h3>Parameters</h3><ul>${params}</ul>` : ""}
${body ? `<h3>Request body</h3>${schemaBlock(body)}` : ""}
${responses ? `<h3>Responses</h3><ul>${responses}</ul>` : ""}
</section>`);
    }
  }
  const title = `${doc.info?.title ?? `${appName} API`} reference`;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c1917}
pre{background:#f5f5f4;padding:.75rem;overflow:auto;font-size:13px}section{border-top:1px solid #d6d3d1;padding:1rem 0}
.m{display:inline-block;min-width:4.5rem;font-size:.8em;background:#1e3a8a;color:#fff;padding:.1rem .4rem;border-radius:.25rem;text-align:center}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>The machine-readable document is at <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${sections.join("\n")}
</body></html>`;
}
