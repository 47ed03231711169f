import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import type { Scope, Store } from '../ports/store.js';
import type { PersonaInstructions } from './ports/generator.js';
import type { PersonaRecord } from '../support/ports/support.js';
import { detectLocale, type Locale } from './schemas.js';
import type { List } from '../schemas/responses.js';
import type { RequestContext, ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';

export type PersonaJson = Omit<PersonaRecord, 'tenantId'>;

export function publicPersona({ tenantId: _tenant, ...p }: PersonaRecord): PersonaJson {
  return p;
}

/** The locale of an answer: the caller's, else the persona's, else the question's own. */
export function answerLocale(input: { query: string; locale?: Locale | undefined }, persona: PersonaRecord | null): Locale {
  return input.locale ?? persona?.locale ?? detectLocale(input.query);
}

/** What the generator is told of a persona (nothing without one). */
export function personaRequest(persona: PersonaRecord | null): { persona?: PersonaInstructions } {
  return persona ? { persona: { name: persona.name, tone: persona.tone, instructions: persona.instructions } } : {};
}

/** The persona an answer or chat turn asked for, in the request's workspace. */
export async function findPersona(store: Store, scope: Scope, personaId: string | undefined): Promise<Result<PersonaRecord | null, PanyaError>> {
  if (personaId === undefined) return ok(null);
  const persona = await store.personas.get(scope, personaId);
  return persona ? ok(persona) : err(errors.notFound('Persona'));
}

/**
 * Personas: a name, a tone, instructions and a locale that answers, chat and `svc_answer` take
 * with `personaId`. Workspace-scoped; a new workspace has none.
 */
export function createPersonaService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  return {
    async list(ctx: RequestContext, query: { cursor?: string | undefined; limit: number }): Promise<Result<List<PersonaJson>, PanyaError>> {
      const after = decodeCursor(query.cursor, 'per_');
      if (after === false) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const page = await store.personas.list(ctx.scope, { limit: query.limit, ...(after ? { after } : {}) });
      return ok({ data: page.items.map(publicPersona), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    async create(ctx: RequestContext, input: { name: string; tone: string; instructions: string; locale: 'th' | 'en' | null }): Promise<Result<PersonaJson, PanyaError>> {
      const now = clock.now().toISOString();
      const persona: PersonaRecord = { id: ids.next('per'), tenantId: ctx.scope.tenantId, workspaceId: ctx.scope.workspaceId, ...input, createdAt: now, updatedAt: now };
      await store.personas.insert(persona);
      return ok(publicPersona(persona));
    },

    async get(ctx: RequestContext, id: string): Promise<Result<PersonaJson, PanyaError>> {
      const persona = await store.personas.get(ctx.scope, id);
      return persona ? ok(publicPersona(persona)) : err(errors.notFound('Persona'));
    },

    async update(ctx: RequestContext, id: string, input: Partial<Pick<PersonaRecord, 'name' | 'tone' | 'instructions' | 'locale'>>): Promise<Result<PersonaJson, PanyaError>> {
      const updated = await store.personas.update(ctx.scope, id, { ...input, updatedAt: clock.now().toISOString() });
      return updated ? ok(publicPersona(updated)) : err(errors.notFound('Persona'));
    },

    async delete(ctx: RequestContext, id: string): Promise<Result<void, PanyaError>> {
      return (await store.personas.delete(ctx.scope, id)) ? ok(undefined) : err(errors.notFound('Persona'));
    },
  };
}

export type PersonaService = ReturnType<typeof createPersonaService>;
