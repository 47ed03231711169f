/* The API's JSON shapes the app reads (the server's zod schemas are the source of truth). */

export type ApiKeyScope = 'read' | 'write' | 'mcp' | 'admin';
export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export interface Session {
  user: { id: string; email: string };
  memberships: { tenantSlug: string; workspaceSlug: string | null; role: Role }[];
}

export interface Me {
  kind: string;
  role: Role | null;
  scopes: ApiKeyScope[];
  tenantWide: boolean;
  tenant: { slug: string; plan: string };
  workspace: { id: string; slug: string; name: string; brandAccent: string | null; isDefault: boolean };
}

export interface WorkspaceJson {
  id: string;
  slug: string;
  name: string;
  brandAccent: string | null;
  isDefault: boolean;
  deletedAt: string | null;
  /** Set while a downgrade keeps it over the plan cap: nothing served, data kept. */
  suspendedAt?: string | null;
  recoverUntil: string | null;
  daysLeft: number | null;
}

export interface ApiKeyJson {
  id: string;
  kind: 'secret' | 'publishable';
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  workspaceSlug: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  key?: string;
}

export type DocStatus = 'pending' | 'indexing' | 'indexed' | 'failed';

export interface DocJson {
  id: string;
  title: string;
  contentMd?: string;
  status: DocStatus;
  error: string | null;
  publicSurfaces: string[];
  updatedAt: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
