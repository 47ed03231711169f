import type { Engine, MembershipRole } from '@panya/core';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

export async function createUserCommand(engine: Engine, io: Io, opts: { email: string; password: string; tenant: string; workspace?: string; role: string; json?: boolean }) {
  const created = await engine.users.createUser({
    email: opts.email,
    password: opts.password,
    tenantSlug: opts.tenant,
    role: opts.role as MembershipRole, // validated by the service
    ...(opts.workspace ? { workspaceSlug: opts.workspace } : {}),
  });
  if (created.isErr()) fail(created.error);
  if (opts.json) io.out(JSON.stringify({ ...created.value.user, membershipId: created.value.membershipId, tenant: opts.tenant, workspace: opts.workspace ?? null, role: opts.role }, null, 2));
  else io.out(`User ${created.value.user.email} is ${opts.role} of ${opts.tenant}${opts.workspace ? ` (workspace ${opts.workspace})` : ' (all workspaces)'}.`);
}
