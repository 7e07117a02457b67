// `GET /docs`: the API reference as one server-rendered HTML page, generated from the same
// document as /v1/openapi.json. No JavaScript and nothing fetched from elsewhere, so it works
// offline and under a CSP that allows only its own inline stylesheet.

import { createHash } from 'node:crypto';
import { ERROR_CATALOGUE, ERROR_CODES, type JsonSchema } from '@paygrid/contracts';
import {
  HTTP_METHODS,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
} from '@paygrid/platform';
import { examplesOf } from './api-reference.examples';
import { guidesOf } from './api-reference.guides';
import type { OpenApiDocument } from './openapi.document';

export const CSS = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#dfe3ea;--bg:#fff;--code:#f4f6f9;--accent:#2f5bd3}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}code,pre{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);border-radius:4px}
code{padding:1px 4px}pre{padding:12px;overflow:auto;max-width:100%}pre code{padding:0;background:none}
main{min-width:0;overflow-wrap:break-word}.scroll{overflow-x:auto;max-width:100%}
details{margin:8px 0}summary{cursor:pointer;color:var(--accent)}
form[role=search]{display:flex;gap:6px;margin:8px 0 16px}form[role=search] input{flex:1;min-width:0;font:inherit;padding:4px 6px;border:1px solid var(--muted);border-radius:4px}
form[role=search] button{font:inherit;padding:4px 10px;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px}
.layout{display:grid;grid-template-columns:260px 1fr;min-height:100vh}
nav{border-right:1px solid var(--line);padding:20px;position:sticky;top:0;height:100vh;overflow:auto;font-size:14px}
nav ul{list-style:none;padding-left:0;margin:4px 0 12px}nav ul ul{padding-left:12px}nav a{text-decoration:none}
main{padding:24px 40px;max-width:1000px}h1{margin-top:0}h2{border-bottom:1px solid var(--line);padding-bottom:6px;margin-top:48px}
article{margin:28px 0;padding-top:8px}h3{margin-bottom:4px}
.method{display:inline-block;min-width:4.2em;text-align:center;font-size:12px;font-weight:700;color:#fff;border-radius:4px;padding:2px 6px;margin-right:6px;vertical-align:middle}
.cards td:first-child code{white-space:nowrap}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.get{background:#2b7a4b}.post{background:#2f5bd3}.delete{background:#b23b3b}.put,.patch{background:#9a6a12}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}th,td{border:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:var(--code)}.muted{color:var(--muted)}dl{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:2px 16px;margin:8px 0}dt{color:var(--muted)}dd{margin:0}
@media (max-width:800px){.layout{display:block}nav{position:static;height:auto;border-right:0;border-bottom:1px solid var(--line);padding:12px 16px}main{padding:16px}
nav details:not([open])>ul{display:none}h2{margin-top:32px}}
`;

/** A plain GET form: the search works without JavaScript (api-reference.search.ts). */
export const SEARCH_FORM = `<form role="search" action="/docs/search" method="get"><label for="q" class="visually-hidden">Search the reference</label><input id="q" name="q" type="search" placeholder="Search: refund, 4242, webhook..." maxlength="100"><button type="submit">Search</button></form>`;

/** The page's Content-Security-Policy: its own stylesheet (by hash) and nothing else. */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "base-uri 'none'",
  // The search box is a plain GET form to /docs/search (no JavaScript).
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const escape = (value: unknown): string =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Just enough Markdown for the descriptions: paragraphs, `- ` lists, `code` and **bold**. */
export function markdown(text: string | undefined): string {
  if (!text) return '';
  const inline = (line: string) =>
    escape(line)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith('- ')))
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('');
}

export const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const schemaLink = (name: string) => `<a href="#schema-${slug(name)}">${escape(name)}</a>`;

/** A short, human description of a schema's type. */
function typeOf(schema: JsonSchema): string {
  if (schema.$ref) return schemaLink(refName(schema.$ref));
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']).map(String);
  return types
    .map((type) => {
      if (type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
      if (type === 'object' && typeof schema.additionalProperties === 'object')
        return `map of ${typeOf(schema.additionalProperties)}`;
      return typeof schema.format === 'string' ? `${type} (${escape(schema.format)})` : type;
    })
    .join(' or ');
}

function constraintsOf(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.enum)
    parts.push(
      `one of ${schema.enum
        .filter((v) => v !== null)
        .map((v) => `<code>${escape(v)}</code>`)
        .join(', ')}`,
    );
  if (typeof schema.pattern === 'string') parts.push(`matches <code>${escape(schema.pattern)}</code>`);
  for (const [keyword, label] of [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['maxProperties', 'max keys'],
  ] as const) {
    if (schema[keyword] !== undefined) parts.push(`${label} ${escape(schema[keyword])}`);
  }
  return parts.join('; ');
}

/** Rows for an object's properties, nested inline objects as `parent.child`. */
function propertyRows(schema: JsonSchema, prefix = ''): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => {
      const row = `<tr><td><code>${escape(prefix + name)}</code></td><td>${typeOf(property)}</td><td>${
        required.has(name) ? 'yes' : '<span class="muted">no</span>'
      }</td><td>${markdown(property.description)}${constraintsOf(property)}</td></tr>`;
      return property.properties ? row + propertyRows(property, `${prefix}${name}.`) : row;
    })
    .join('');
}

function propertiesTable(schema: JsonSchema): string {
  if (!schema.properties || Object.keys(schema.properties).length === 0) return '';
  return `<div class="scroll" tabindex="0"><table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${propertyRows(schema)}</tbody></table></div>`;
}

function parametersTable(parameters: ParameterObject[]): string {
  if (!parameters.length) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escape(p.name)}</code></td><td>${p.in}</td><td>${typeOf(p.schema)}</td><td>${
          p.required ? 'yes' : '<span class="muted">no</span>'
        }</td><td>${markdown(p.description)}${constraintsOf(p.schema)}</td></tr>`,
    )
    .join('');
  return `<h4>Parameters</h4><div class="scroll" tabindex="0"><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function resolveParameter(doc: OpenApiDocument, p: ParameterObject | ReferenceObject): ParameterObject {
  return '$ref' in p ? doc.components.parameters[refName(p.$ref)] : p;
}

function resolveResponse(doc: OpenApiDocument, r: ResponseObject | ReferenceObject): ResponseObject {
  return '$ref' in r ? doc.components.responses[refName(r.$ref)] : r;
}

const pre = (text: string) => `<pre tabindex="0"><code>${escape(text)}</code></pre>`;

function examplesHtml(
  doc: OpenApiDocument,
  path: string,
  method: string,
  op: OperationObject,
  parameters: ParameterObject[],
  body: JsonSchema | undefined,
): string {
  const examples = examplesOf(doc, path, method, op, parameters, body);
  const response = examples.response
    ? `<details><summary>Response example (${examples.response.status})</summary>${pre(JSON.stringify(examples.response.body, null, 2))}</details>`
    : '';
  return `<h4>Example</h4><p class="muted">curl</p>${pre(examples.curl)}<details class="sdk"><summary>With <code>@paygrid/sdk</code></summary>${pre(examples.sdk)}</details>${response}`;
}

function operationHtml(doc: OpenApiDocument, path: string, method: string, op: OperationObject): string {
  const parameters = (op.parameters ?? []).map((p) => resolveParameter(doc, p));
  const body = op.requestBody?.content['application/json']?.schema;
  const bodyName = body?.$ref ? refName(body.$ref) : undefined;
  const bodySchema = bodyName ? doc.components.schemas[bodyName] : body;
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const response = resolveResponse(doc, r);
      const schema = response.content?.['application/json']?.schema;
      return `<tr><td>${status}</td><td>${markdown(response.description)}</td><td>${schema ? typeOf(schema) : ''}</td></tr>`;
    })
    .join('');
  const groupings = Array.isArray(op['x-groupings']) ? (op['x-groupings'] as string[]) : [];
  return `<article id="op-${slug(op.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span><code>${escape(path)}</code></h3>
<p><strong>${escape(op.summary)}</strong></p>${markdown(op.description)}
<dl><dt>Scope</dt><dd><code>${escape(op['x-required-scope'])}</code></dd>
<dt>Groupings</dt><dd>${groupings.map((g) => `<code>${escape(g)}</code>`).join(' or ')}</dd>
<dt>Operation id</dt><dd><code>${escape(op.operationId)}</code></dd></dl>
${parametersTable(parameters)}
${bodySchema ? `<h4>Request body ${bodyName ? `(${schemaLink(bodyName)})` : ''}</h4>${propertiesTable(bodySchema)}` : ''}
${examplesHtml(doc, path, method, op, parameters, bodySchema)}
<h4>Responses</h4><div class="scroll" tabindex="0"><table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${responses}</tbody></table></div>
</article>`;
}

export function renderApiReference(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
  const sections = doc.tags.map((tag) => {
    const ops = operations.filter((o) => o.op.tags.includes(tag.name));
    return {
      tag,
      ops,
      html: `<section id="tag-${slug(tag.name)}"><h2>${escape(tag.name)}</h2>${markdown(tag.description)}${ops
        .map((o) => operationHtml(doc, o.path, o.method, o.op))
        .join('')}</section>`,
    };
  });
  const schemas = Object.entries(doc.components.schemas)
    .map(
      ([name, schema]) =>
        `<article id="schema-${slug(name)}"><h3>${escape(name)}</h3>${markdown(schema.description)}${
          schema.properties ? propertiesTable(schema) : `<p>${typeOf(schema)} ${constraintsOf(schema)}</p>`
        }</article>`,
    )
    .join('');
  const errors = ERROR_CODES.map(
    (code) =>
      `<tr><td><code>${code}</code></td><td>${ERROR_CATALOGUE[code].status}</td><td><code>${
        ERROR_CATALOGUE[code].type
      }</code></td><td>${escape(ERROR_CATALOGUE[code].description)}</td></tr>`,
  ).join('');
  const headers = Object.entries(doc.components.headers)
    .map(([name, h]) => `<tr><td><code>${escape(name)}</code></td><td>${markdown(h.description)}</td></tr>`)
    .join('');
  const scheme = Object.values(doc.components.securitySchemes)[0];
  const guides = guidesOf(doc, escape);
  const nav = sections
    .map(
      (s) =>
        `<li><a href="#tag-${slug(s.tag.name)}">${escape(s.tag.name)}</a><ul>${s.ops
          .map((o) => `<li><a href="#op-${slug(o.op.operationId)}">${escape(o.op.summary)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} API reference</title><style>${CSS}</style></head>
<body><div class="layout"><nav aria-label="Contents"><strong>${escape(doc.info.title)} API ${escape(doc.info.version)}</strong>
${SEARCH_FORM}
<ul><li><a href="#introduction">Introduction</a></li>${guides.map((g) => `<li><a href="#${g.id}">${escape(g.title)}</a></li>`).join('')}<li><a href="#authentication">Authentication</a></li><li><a href="#headers">Headers</a></li><li><a href="#errors">Errors</a></li></ul>
<details open><summary>Operations</summary><ul>${nav}</ul></details><ul><li><a href="#objects">Objects</a></li><li><a href="/v1/openapi.json">OpenAPI document</a></li></ul></nav>
<main><h1 id="introduction">${escape(doc.info.title)} API reference</h1>
<p class="muted">Version ${escape(doc.info.version)} · base URL <code>${escape(doc.servers[0]?.url ?? '')}</code> · machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1)</p>
${markdown(doc.info.description)}
${guides.map((g) => `<h2 id="${g.id}">${escape(g.title)}</h2>${g.html}`).join('\n')}
<h2 id="authentication">Authentication</h2>${markdown(scheme?.description)}
<h2 id="headers">Headers</h2><div class="scroll" tabindex="0"><table><thead><tr><th>Header</th><th>Meaning</th></tr></thead><tbody>${headers}
<tr><td><code>Idempotency-Key</code> (request)</td><td>${markdown(doc.components.parameters.IdempotencyKey?.description)}</td></tr></tbody></table></div>
<h2 id="errors">Errors</h2><p>Every error is the envelope ${schemaLink('ErrorEnvelope')} with one of these codes.</p>
<div class="scroll" tabindex="0"><table><thead><tr><th>Code</th><th>HTTP</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${errors}</tbody></table></div>
${sections.map((s) => s.html).join('\n')}
<h2 id="objects">Objects</h2>${schemas}
</main></div></body></html>`;
}
