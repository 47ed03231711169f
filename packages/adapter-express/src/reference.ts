import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { etagOf } from './etag.js';

/**
 * Scalar's standalone bundle, from the installed `@scalar/api-reference` (its `exports` do not
 * list the browser build, so it is found on the package's resolution paths). Served locally: the
 * reference page loads nothing from a CDN.
 */
function scalarBundle(): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('@scalar/api-reference') ?? []) {
    const file = join(dir, '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
    if (existsSync(file)) return file;
  }
  throw new Error('@scalar/api-reference is not installed: the /docs reference page needs its standalone bundle.');
}

/** Fonts are the system's (Scalar's default fonts come from its CDN). */
const CONFIGURATION = JSON.stringify({ withDefaultFonts: false, metaData: { title: 'Panya API reference' } });

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Panya API reference</title>
</head>
<body>
<script id="api-reference" data-url="/api/openapi.json" data-configuration='${CONFIGURATION}'></script>
<script src="/docs/scalar.js"></script>
</body>
</html>
`;

const PAGE_ETAG = etagOf(PAGE);

/** `GET /docs`: the API reference rendered by Scalar from `/api/openapi.json`; `GET /docs/scalar.js`: the renderer. */
export function referenceRoutes(): { page: RequestHandler; bundle: RequestHandler } {
  const bundle = scalarBundle();
  return {
    page: (_req, res) => {
      res.type('html').set({ 'Cache-Control': 'no-cache', ETag: PAGE_ETAG }).send(PAGE);
    },
    bundle: (_req, res, next) => {
      res.sendFile(bundle, { maxAge: '1d', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } }, (error) => error && next(error));
    },
  };
}
