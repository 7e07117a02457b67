// `GET /docs/search?q=`: the reference's search, answered by the server so it works without
// JavaScript (the page's CSP allows none). Every operation, object, guide and error code is
// an entry; an entry matches when it contains every word of the query. Bounded work: the
// query is cut to 100 characters and 8 words, the index is built once per document.

import { ERROR_CATALOGUE, ERROR_CODES } from '@paygrid/contracts';
import { HTTP_METHODS } from '@paygrid/platform';
import { guidesOf } from './api-reference.guides';
import { CSS, escape, SEARCH_FORM, slug } from './api-reference.page';
import type { OpenApiDocument } from './openapi.document';

export interface SearchEntry {
  href: string;
  title: string;
  kind: 'Guide' | 'Operation' | 'Object' | 'Error';
  /** Lower-cased text the words are looked up in. */
  text: string;
}

const MAX_RESULTS = 50;

export function searchIndex(doc: OpenApiDocument): SearchEntry[] {
  const entries: SearchEntry[] = guidesOf(doc, escape).map((g) => ({
    href: `/docs#${g.id}`,
    title: g.title,
    kind: 'Guide',
    text: `${g.title} ${g.text}`.toLowerCase(),
  }));
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      entries.push({
        href: `/docs#op-${slug(op.operationId)}`,
        title: `${method.toUpperCase()} ${path}: ${op.summary}`,
        kind: 'Operation',
        text: [method, path, op.summary, op.description, op.operationId, ...op.tags, op['x-required-scope']]
          .join(' ')
          .toLowerCase(),
      });
    }
  for (const [name, schema] of Object.entries(doc.components.schemas))
    entries.push({
      href: `/docs#schema-${slug(name)}`,
      title: name,
      kind: 'Object',
      text: [name, schema.description, ...Object.keys(schema.properties ?? {})].join(' ').toLowerCase(),
    });
  for (const code of ERROR_CODES)
    entries.push({
      href: '/docs#errors',
      title: `Error ${code}`,
      kind: 'Error',
      text: `${code} ${ERROR_CATALOGUE[code].description}`.toLowerCase(),
    });
  return entries;
}

export function search(index: readonly SearchEntry[], query: string): SearchEntry[] {
  const words = query.toLowerCase().slice(0, 100).split(/\s+/).filter(Boolean).slice(0, 8);
  if (!words.length) return [];
  const matches = index.filter((entry) => words.every((word) => entry.text.includes(word)));
  // Entries whose title has the words first (the operation before the objects that mention it).
  const inTitle = (entry: SearchEntry) => words.every((word) => entry.title.toLowerCase().includes(word));
  return [...matches.filter(inTitle), ...matches.filter((e) => !inTitle(e))].slice(0, MAX_RESULTS);
}

export function renderSearch(doc: OpenApiDocument, index: readonly SearchEntry[], query: string): string {
  const results = search(index, query);
  const shown = query.slice(0, 100);
  const list = results.length
    ? `<ol>${results.map((r) => `<li><a href="${r.href}">${escape(r.title)}</a> <span class="muted">${r.kind}</span></li>`).join('')}</ol>`
    : `<p>Nothing matches${shown ? ` “${escape(shown)}”` : ''}. Try one word: <code>refund</code>, <code>4242</code>, <code>webhook</code>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Search${shown ? `: ${escape(shown)}` : ''} · ${escape(doc.info.title)} API reference</title><style>${CSS}</style></head>
<body><main><p><a href="/docs">← ${escape(doc.info.title)} API reference</a></p>
<h1>Search the reference</h1>${SEARCH_FORM.replace('<input ', `<input value="${escape(shown)}" `)}
<p role="status">${results.length}${results.length === MAX_RESULTS ? '+' : ''} result${results.length === 1 ? '' : 's'}</p>
${list}</main></body></html>`;
}
