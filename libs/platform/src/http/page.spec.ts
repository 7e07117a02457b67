import type { FastifyReply } from 'fastify';
import {
  escapeHtml,
  formField,
  formOf,
  renderMessagePage,
  renderPage,
  sendPage,
  sendSeeOther,
  sendStylesheet,
} from './page';

/** Records what a handler sets on the reply (status, headers, body). */
function recordingReply() {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body?: unknown) {
      sent.body = body;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

describe('page primitives', () => {
  it('escapes the five HTML-significant characters and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a> é 1`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt; é 1',
    );
  });

  it('renders the document shell byte for byte as the pages always have', () => {
    expect(renderPage({ title: 'Pay <A&B>', stylesheet: '/pay/assets/checkout.css' }, '<p>x</p>')).toBe(
      `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Pay &lt;A&amp;B&gt;</title>
<link rel="stylesheet" href="/pay/assets/checkout.css">
</head>
<body>
<main>
<p>x</p>
</main>
</body>
</html>
`,
    );
    const refreshing = renderPage({ title: 'T', stylesheet: '/i/assets/invoice.css', refreshSeconds: 2 }, '');
    expect(refreshing).toContain(
      '<meta name="robots" content="noindex">\n<meta http-equiv="refresh" content="2">\n<title>T</title>',
    );
    expect(renderPage({ title: 'T', stylesheet: '/s.css', refreshSeconds: undefined }, '')).not.toContain(
      'refresh',
    );
  });

  it('renders a message page as a heading and one escaped sentence', () => {
    const html = renderMessagePage({ stylesheet: '/q/assets/quote.css' }, 'Gone <now>', 'Ask "them".');
    expect(html).toContain('<title>Gone &lt;now&gt;</title>');
    expect(html).toContain('<main>\n<h1>Gone &lt;now&gt;</h1>\n<p>Ask &quot;them&quot;.</p>\n</main>');
  });

  it('sends a page with the security headers, forms posting only where told', () => {
    const { reply, sent } = recordingReply();
    sendPage(reply, 402, '<html>');
    expect(sent).toEqual({
      status: 402,
      body: '<html>',
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    });
    const none = recordingReply();
    sendPage(none.reply, 200, '', "'none'");
    expect(none.sent.headers['content-security-policy']).toMatch(/; form-action 'none'$/);
    expect(none.sent.headers['content-security-policy']).not.toContain('unsafe-inline');
  });

  it('sends a stylesheet cacheable for an hour and a 303 never cached', () => {
    const css = recordingReply();
    sendStylesheet(css.reply, 'body{}');
    expect(css.sent).toEqual({
      status: 200,
      body: 'body{}',
      headers: {
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      },
    });
    const redirect = recordingReply();
    sendSeeOther(redirect.reply, 'https://shop.example/done?x=1');
    expect(redirect.sent).toEqual({
      status: 303,
      body: undefined,
      headers: { location: 'https://shop.example/done?x=1', 'cache-control': 'no-store' },
    });
  });

  it('reads posted fields trimmed, anything else as empty', () => {
    expect(formOf(undefined)).toEqual({});
    expect(formOf('csrf_token=x')).toEqual({});
    const form = formOf({ a: '  1 ', b: 2, c: ['x'] });
    expect(formField(form, 'a')).toBe('1');
    expect(formField(form, 'b')).toBe('');
    expect(formField(form, 'c')).toBe('');
    expect(formField(form, 'missing')).toBe('');
  });
});
