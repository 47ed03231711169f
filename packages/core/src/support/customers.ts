import { err, ok, type Result } from 'neverthrow';
import { errors, isStoreConflict, type PanyaError } from '../errors.js';
import type { CustomerRecord } from './ports/support.js';
import type { List } from '../schemas/responses.js';
import type { RequestContext, ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { publicVisitor, type VisitorJson } from './visitors.js';

export type CustomerJson = Omit<CustomerRecord, 'tenantId'>;

export function publicCustomer({ tenantId: _tenant, ...c }: CustomerRecord): CustomerJson {
  return c;
}

export interface CustomerInput {
  name: string;
  domain: string | null;
  externalId: string | null;
  notes: string;
}

/** Visitors listed with a customer. */
const CUSTOMER_VISITORS = 100;

/** A unique domain or external id per workspace, met in the store. */
function conflict(e: unknown): PanyaError {
  if (isStoreConflict(e)) return errors.conflict('This workspace already has a customer with this domain or external id.');
  throw e;
}

/**
 * Customers: the organisations (or people) a tenant serves, per workspace. The e-mail domain is
 * how visitors belong to a customer — read at request time, so a visitor captured later, or a
 * domain changed later, needs no back-fill; the external id ties the record to the tenant's CRM.
 * Nothing is shared across workspaces or tenants.
 */
export function createCustomerService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  return {
    async list(ctx: RequestContext, query: { domain?: string | undefined; externalId?: string | undefined; cursor?: string | undefined; limit: number }): Promise<Result<List<CustomerJson>, PanyaError>> {
      const after = decodeCursor(query.cursor, 'cus_');
      if (after === false) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const page = await store.customers.list(ctx.scope, {
        limit: query.limit,
        ...(after ? { after } : {}),
        ...(query.domain ? { domain: query.domain } : {}),
        ...(query.externalId ? { externalId: query.externalId } : {}),
      });
      return ok({ data: page.items.map(publicCustomer), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    async create(ctx: RequestContext, input: CustomerInput): Promise<Result<CustomerJson, PanyaError>> {
      const now = clock.now().toISOString();
      const customer: CustomerRecord = { id: ids.next('cus'), tenantId: ctx.scope.tenantId, workspaceId: ctx.scope.workspaceId, ...input, createdAt: now, updatedAt: now };
      try {
        await store.customers.insert(customer);
      } catch (e) {
        return err(conflict(e));
      }
      return ok(publicCustomer(customer));
    },

    /** A customer with the workspace's visitors at its domain. */
    async get(ctx: RequestContext, id: string): Promise<Result<CustomerJson & { visitors: VisitorJson[] }, PanyaError>> {
      const customer = await store.customers.get(ctx.scope, id);
      if (!customer) return err(errors.notFound('Customer'));
      const visitors = customer.domain ? await store.visitors.listByDomain(ctx.scope, customer.domain, CUSTOMER_VISITORS) : [];
      return ok({ ...publicCustomer(customer), visitors: visitors.map(publicVisitor) });
    },

    async update(ctx: RequestContext, id: string, input: Partial<CustomerInput>): Promise<Result<CustomerJson, PanyaError>> {
      try {
        const updated = await store.customers.update(ctx.scope, id, { ...input, updatedAt: clock.now().toISOString() });
        return updated ? ok(publicCustomer(updated)) : err(errors.notFound('Customer'));
      } catch (e) {
        return err(conflict(e));
      }
    },

    async delete(ctx: RequestContext, id: string): Promise<Result<void, PanyaError>> {
      return (await store.customers.delete(ctx.scope, id)) ? ok(undefined) : err(errors.notFound('Customer'));
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
