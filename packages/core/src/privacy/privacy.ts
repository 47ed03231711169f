import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { privacyOf, updatePrivacySchema, type UpdatePrivacyInput, type WorkspacePrivacy } from '../privacy/settings.js';
import { parseInput } from '../schemas/validate.js';
import { appendAudit, auditActor } from '../audit/audit.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';

/** The request's workspace's privacy settings (redaction, patterns, retention), for its admins. */
export function createPrivacyService(deps: ServiceDeps) {
  const { store, clock } = deps;
  return {
    async get(ctx: RequestContext): Promise<Result<WorkspacePrivacy, PanyaError>> {
      const allowed = requireScope(ctx, 'admin');
      if (allowed.isErr()) return err(allowed.error);
      return ok(privacyOf(ctx.workspace));
    },

    /** Changes the given fields; the audit log keeps the settings before and after. */
    async update(ctx: RequestContext, input: UpdatePrivacyInput): Promise<Result<WorkspacePrivacy, PanyaError>> {
      const allowed = requireScope(ctx, 'admin');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(updatePrivacySchema, input);
      if (parsed.isErr()) return err(parsed.error);
      return runInTransaction(store, async (tx) => {
        const current = await tx.workspaces.get(ctx.tenant.id, ctx.workspace.id);
        if (!current || current.deletedAt) return err(errors.notFound('Workspace'));
        const before = privacyOf(current);
        const after: WorkspacePrivacy = {
          redactPii: parsed.value.redactPii ?? before.redactPii,
          patterns: parsed.value.patterns ?? before.patterns,
          retentionDays: parsed.value.retentionDays !== undefined ? parsed.value.retentionDays : before.retentionDays,
        };
        await tx.workspaces.update(ctx.tenant.id, current.id, { privacy: after, updatedAt: clock.now().toISOString() });
        await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'workspace.privacy_updated', workspaceId: current.id, subjectId: current.id, before: { ...before }, after: { ...after } });
        return ok(after);
      });
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
