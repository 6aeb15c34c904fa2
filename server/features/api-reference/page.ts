// The developers' reference page (GET /api/reference): the OpenAPI document rendered as plain HTML on the
// server, so it works without any script (none from elsewhere, and none of ours either). Styles are inline,
// allowed by a nonce in this answer's own Content-Security-Policy. Every schema is a <pre> that scrolls when
// it is wider than the window, so each is a tab stop: a keyboard scrolls it too (WCAG 2.1.1).
import type { OpenApiDocument } from './document.ts';
import { escapeHtml } from '../../../common/escape-html.ts';

type Operation = {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
};

function schemaText(schema: unknown): string {
  return escapeHtml(JSON.stringify(schema, null, 2) ?? '');
}

/** One operation: a path of the APIs, or a webhook the site sends (`title` is its path or its event). */
function operationSection(idPrefix: string, method: string, title: string, operation: Operation): string {
  const id = `${idPrefix}${method}-${title}`.replace(/[^a-z0-9]+/gi, '-');
  const parameters = (operation.parameters ?? []).map(
    (parameter) =>
      `<li><code>${escapeHtml(parameter.name)}</code> (${escapeHtml(parameter.in)}${parameter.required ? ', required' : ''})${parameter.description ? `: ${escapeHtml(parameter.description)}` : ''}</li>`,
  );
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(operation.responses ?? {}).map(
    ([status, response]) => `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(response.description ?? '')}</li>`,
  );
  return `<section id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h"><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(title)}</code></h3>
<p>${escapeHtml(operation.summary ?? '')}</p>
${parameters.length ? `<h4>Parameters</h4><ul>${parameters.join('')}</ul>` : ''}
${body ? `<h4>Body (JSON)</h4><pre tabindex="0">${schemaText(body)}</pre>` : ''}
<h4>Answers</h4><ul>${responses.join('')}</ul>
</section>`;
}

function operationSections(items: Record<string, Record<string, Operation>>, idPrefix = ''): string[] {
  return Object.entries(items).flatMap(([title, methods]) =>
    Object.entries(methods).map(([method, operation]) => operationSection(idPrefix, method, title, operation)),
  );
}

export function renderReferencePage(doc: OpenApiDocument, nonce: string): string {
  const sections = operationSections((doc.paths ?? {}) as Record<string, Record<string, Operation>>);
  const webhooks = operationSections((doc.webhooks ?? {}) as Record<string, Record<string, Operation>>, 'webhook-');
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, unknown>).map(
    ([name, schema]) => `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3><pre tabindex="0">${schemaText(schema)}</pre></section>`,
  );
  const title = escapeHtml(doc.info.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} reference</title>
<style nonce="${nonce}">
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
main{max-width:960px;margin:0 auto;padding:1rem}
section{border-top:1px solid #d0d7de;padding:.5rem 0}
.method{display:inline-block;min-width:4.5em;font-weight:700;color:#0a3069}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;font-size:.85rem}
pre:focus-visible{outline:2px solid #0a3069;outline-offset:2px}
code{font-size:.95em;word-break:break-all}
</style></head>
<body><main>
<h1>${title}</h1>
<p>${escapeHtml(doc.info.description ?? '')}</p>
<p>The machine-readable description: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(doc.openapi)}). Guides: docs/integrations.md, docs/licensing.md.</p>
<h2>Operations</h2>
${sections.join('\n')}
<h2 id="webhooks">Webhooks</h2>
<p>What the site sends to the endpoints an admin adds under Integrations: a <code>POST</code> of <code>{ type, timestamp, data }</code>, signed as the Standard Webhooks specification says (its libraries verify it; verify the raw body, not re-serialised JSON), for each event the endpoint subscribed to. Delivery is at least once: deduplicate on <code>webhook-id</code>.</p>
${webhooks.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</main></body></html>`;
}
