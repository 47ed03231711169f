// Builds the admin app into dist/: one hashed script and stylesheet, and index.html naming them.
// esbuild only (no CDN, nothing fetched): the build works offline once dependencies are installed.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const out = join(root, 'dist');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [join(root, 'src/main.tsx'), join(root, 'src/app.css')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: join(out, 'assets'),
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((f) => f.endsWith('.js'));
const style = outputs.find((f) => f.endsWith('.css') && f.startsWith('app-'));
// No inline script or style: the page works under `Content-Security-Policy: default-src 'self'`.
const html = readFileSync(join(root, 'src/index.html'), 'utf8').replace('%SCRIPT%', `assets/${script}`).replace('%STYLE%', `assets/${style}`);
writeFileSync(join(out, 'index.html'), html);
console.log(`admin app built: dist/index.html, assets/${script}, assets/${style}`);
