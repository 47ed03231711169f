import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { WIDGET_SCRIPT } from './script.js';

const body = Buffer.from(WIDGET_SCRIPT);
const gzipped = gzipSync(body, { level: 9 });
const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * `GET /widget.js`: the script, gzipped when the browser accepts it. Browsers and CDNs keep it
 * an hour and then revalidate with the ETag, so a new release reaches pages within the hour.
 * Pages on any site may load it (the key, not the script, decides what it can do).
 */
export const widgetScript: RequestHandler = (req, res) => {
  res.set({
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=3600',
    ETag: etag,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (req.fresh) return void res.status(304).end();
  if (req.acceptsEncodings('gzip') === 'gzip') return void res.set('Content-Encoding', 'gzip').send(gzipped);
  res.send(body);
};

/** Sizes of the served script, in bytes (raw and gzipped). */
export const WIDGET_SIZE = { raw: body.length, gzip: gzipped.length };
