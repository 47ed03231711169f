import { join } from 'node:path';
import { adminAssetsBuilt, adminAssetsDir } from '@panya/admin';
import { errors, panyaError } from '@panya/core';
import express, { Router } from 'express';
import { sendProblem } from './problem.js';

export interface AdminAppOptions {
  /** The built app (index.html and assets/); default the `@panya/admin` package's `dist`. */
  assetsDir?: string;
}

/**
 * `/admin`: the static admin app, from the same origin as the API it calls with the session
 * cookie. Hashed assets are cached for a year; index.html is revalidated on every load. Its
 * strict Content-Security-Policy is set with the other security headers (`security-headers.ts`).
 */
export function adminRouter(options: AdminAppOptions = {}): Router {
  const dir = options.assetsDir ?? adminAssetsDir;
  const built = options.assetsDir ? true : adminAssetsBuilt();
  const router = Router({ strict: true });
  router.use((req, res, next) => {
    if (!built) return sendProblem(req, res, panyaError('unavailable', { message: 'The admin app is not built: run "pnpm --filter @panya/admin build" (pnpm install and pnpm build do).' }));
    next();
  });
  router.get('/', (req, res, next) => {
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'), (error) => error && next(error));
  });
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }));
  router.use((req, res) => sendProblem(req, res, errors.notFound(`Route ${req.method} ${req.originalUrl.split('?')[0]}`)));
  return router;
}
