/**
 * What `panya serve` prints once it listens: every address a newcomer needs (the API, its
 * reference, the admin app with a sign-in, the help center, the widget snippet, MCP) and, with
 * `--demo`, the demo's key — so the whole product is one click away from the terminal.
 */
export interface BannerInput {
  /** Where the API listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  workers?: number;
  /** The help host's origin (`PANYA_HELP_HOST`, or `http://help.localhost:<port>` on loopback). */
  helpOrigin?: string | null;
  demo?: {
    tenant: string;
    articles: number;
    apiKey: string;
    keyReused: boolean;
    /** The demo owner's sign-in; the password only when this server knows it. */
    signIn?: { email: string; password: string | null } | null;
    /** The help center's publishable key (read-only, published articles), for the widget snippet. */
    widgetKey?: string | null;
  } | null;
}

/** The banner's lines; every address in it answers on a server started this way. */
export function serveBanner(input: BannerInput): string[] {
  const { url, demo } = input;
  const lines = [`Panya listening on ${url}${input.workers && input.workers > 1 ? ` (${input.workers} workers)` : ''}`];
  const row = (label: string, value: string) => lines.push(`  ${label.padEnd(12)} ${value}`);
  row('API', `${url}/api  (OpenAPI document: ${url}/api/openapi.json)`);
  row('API docs', `${url}/docs`);
  const signIn = demo?.signIn ? `  (sign in: ${demo.signIn.email}${demo.signIn.password ? ` / ${demo.signIn.password}` : ''})` : '  (sign in with a user of `panya user create`)';
  row('Admin app', `${url}/admin/${signIn}`);
  if (input.helpOrigin) row('Help center', demo ? `${input.helpOrigin}/${encodeURIComponent(demo.tenant)}/` : `${input.helpOrigin}/{tenant}/`);
  row('MCP', `${url}/api/mcp  (Streamable HTTP; Authorization: Bearer <API key>)`);
  if (demo?.widgetKey) row('Widget', `<script src="${url}/widget.js" data-key="${demo.widgetKey}" async></script>`);
  if (demo) {
    lines.push(`Demo tenant "${demo.tenant}" with ${demo.articles} articles. API key (${demo.keyReused ? 'unchanged since the last start' : 'new'}):\n  ${demo.apiKey}`);
    lines.push(`Try: curl -s ${url}/api/docs -H "Authorization: Bearer ${demo.apiKey}"`);
  }
  return lines;
}
