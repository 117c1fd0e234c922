import type { Response } from 'express';
import { html, raw, type Html } from './html.js';
import { STYLESHEET } from './style.js';

// The frame every page shares, and the one way pages are sent.

export interface PageOptions {
  title: string;
  /** Shown above the heading: who is asking for money or approval. */
  merchantName?: string;
  environment?: 'test' | 'live';
  /** A `<meta http-equiv="refresh">`: works without JavaScript. */
  refresh?: { seconds: number; url: string };
}

/** A whole HTML document: what every head holds, then `head` (title, styles, the rest), around `body`. */
export const htmlDocument = (head: Html, body: Html): Html => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head}
</head>
<body>
${body}
</body>
</html>
`;

export function layout(options: PageOptions, body: Html): Html {
  const env = options.environment;
  return htmlDocument(
    html`${options.refresh ? html`<meta http-equiv="refresh" content="${options.refresh.seconds};url=${options.refresh.url}">` : ''}
<title>${options.title}</title>
<style>${raw(STYLESHEET)}</style>`,
    html`<main>
${
  options.merchantName || env
    ? html`<header class="brand"><span>${options.merchantName ?? ''}</span>${env ? html`<span class="badge ${env}">${env === 'test' ? 'Test mode' : 'Live'}</span>` : ''}</header>`
    : ''
}
${body}
</main>
<footer>svc emulator · hosted checkout</footer>`,
  );
}

/**
 * Pages are private and change with every payment: never cached (a Back button must not
 * show a stale form with a spent token), never framed, and limited to inline styles.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function sendPage(res: Response, status: number, page: Html, csp = PAGE_CSP): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    })
    .send(page.text);
}

/** A page that only says something (not found, expired, locked). */
export function messagePage(options: PageOptions, heading: string, message: string | Html, extra?: Html): Html {
  return layout(options, html`<h1>${heading}</h1><p>${message}</p>${extra ?? ''}`);
}
