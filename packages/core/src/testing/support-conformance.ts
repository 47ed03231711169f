/** Tickets, personas, visitors, customers and the inbox: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import { isStoreConflict } from '../errors.js';
import type { NewConversation, NewMessage } from '../answers/ports/conversations.js';
import type { Scope, Store } from '../ports/store.js';
import type { CustomerRecord, PersonaRecord, TicketRecord, VisitorRecord } from '../support/ports/support.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute)).toISOString();

function ticket(scope: Scope, minute: number, overrides: Partial<TicketRecord> = {}): TicketRecord {
  return {
    id: ids.next('tkt'),
    tenantId: scope.tenantId,
    workspaceId: scope.workspaceId,
    subject: `Ticket at ${minute}`,
    body: 'Help',
    priority: 'normal',
    status: 'open',
    conversationId: null,
    visitorId: null,
    dueAt: at(minute + 60),
    breachedAt: null,
    closedAt: null,
    createdAt: at(minute),
    updatedAt: at(minute),
    ...overrides,
  };
}

function conversation(scope: Scope, minute: number, overrides: Partial<NewConversation> = {}): NewConversation {
  return { id: ids.next('conv'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, locale: 'en', hasGroundedAnswer: false, hasThumbsDown: false, handedOff: false, createdAt: at(minute), lastMessageAt: at(minute), ...overrides };
}

function question(scope: Scope, conversationId: string, minute: number, content: string): NewMessage {
  return { id: ids.next('msg'), conversationId, tenantId: scope.tenantId, workspaceId: scope.workspaceId, role: 'user', content, citations: [], grounded: null, createdAt: at(minute) };
}

function visitor(scope: Scope, email: string | null, name: string | null = null): VisitorRecord {
  return { id: ids.next('vis'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, name, email, createdAt: at(0), updatedAt: at(0) };
}

function customer(scope: Scope, name: string, overrides: Partial<CustomerRecord> = {}): CustomerRecord {
  return { id: ids.next('cus'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, name, domain: null, externalId: null, notes: '', createdAt: at(0), updatedAt: at(0), ...overrides };
}

export function supportSuite(getStore: () => Store): void {
  describe('tickets', () => {
    it('lists a workspace\'s tickets newest first with status and priority filters, and moves status only from the expected one', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const first = ticket(s.scopeA, 1, { priority: 'urgent' });
      const second = ticket(s.scopeA, 2);
      const third = ticket(s.scopeA, 3, { priority: 'urgent' });
      for (const t of [first, second, third]) await store.tickets.insert(t);
      await store.tickets.insert(ticket(s.scopeA2, 4));
      await store.tickets.insert(ticket(s.scopeB, 5));
      expect(await store.tickets.get(s.scopeA, first.id)).toEqual(first);
      expect(await store.tickets.get(s.scopeA2, first.id)).toBeNull();
      expect(await store.tickets.get(s.scopeB, first.id)).toBeNull();
      const page = await store.tickets.list(s.scopeA, {}, { limit: 2 });
      expect(page.items.map((t) => t.id)).toEqual([third.id, second.id]);
      expect((await store.tickets.list(s.scopeA, {}, { limit: 2, after: page.nextCursor! })).items.map((t) => t.id)).toEqual([first.id]);
      expect((await store.tickets.list(s.scopeA, { priority: 'urgent' }, { limit: 10 })).items.map((t) => t.id)).toEqual([third.id, first.id]);

      const closed = await store.tickets.transition(s.scopeA, first.id, 'open', { status: 'closed', closedAt: at(9), updatedAt: at(9) });
      expect(closed).toEqual({ ...first, status: 'closed', closedAt: at(9), updatedAt: at(9) });
      expect(await store.tickets.transition(s.scopeA, first.id, 'open', { status: 'closed', closedAt: at(10), updatedAt: at(10) })).toBeNull();
      expect(await store.tickets.transition(s.scopeB, second.id, 'open', { status: 'closed', closedAt: at(10), updatedAt: at(10) })).toBeNull();
      expect((await store.tickets.list(s.scopeA, { status: 'closed' }, { limit: 10 })).items.map((t) => t.id)).toEqual([first.id]);
      expect((await store.tickets.list(s.scopeA, { status: 'open', priority: 'urgent' }, { limit: 10 })).items.map((t) => t.id)).toEqual([third.id]);
      const reopened = await store.tickets.transition(s.scopeA, first.id, 'closed', { status: 'open', closedAt: null, dueAt: at(200), breachedAt: null, updatedAt: at(11) });
      expect(reopened).toMatchObject({ status: 'open', closedAt: null, dueAt: at(200), updatedAt: at(11) });
    });

    it('keeps comments with their ticket, in its workspace only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const t = ticket(s.scopeA, 1);
      await store.tickets.insert(t);
      const comment = (minute: number, scope: Scope = s.scopeA) => ({ id: ids.next('cmt'), ticketId: t.id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, body: `note ${minute}`, author: 'key_1', createdAt: at(minute) });
      const one = comment(2);
      const two = comment(3);
      await store.tickets.addComment(s.scopeA, one);
      await store.tickets.addComment(s.scopeA, two);
      await expect(store.tickets.addComment(s.scopeB, comment(4, s.scopeB))).rejects.toThrow();
      await expect(store.tickets.addComment(s.scopeA2, comment(4, s.scopeA2))).rejects.toThrow();
      expect(await store.tickets.comments(s.scopeA, t.id, 10)).toEqual([one, two]);
      expect(await store.tickets.comments(s.scopeA, t.id, 1)).toEqual([two]);
      expect(await store.tickets.comments(s.scopeA2, t.id, 10)).toEqual([]);
    });

    it('marks each open ticket past its due time as breached exactly once, across tenants, even when runs race', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const overdueA = ticket(s.scopeA, 1, { dueAt: at(30) });
      const overdueB = ticket(s.scopeB, 2, { dueAt: at(20) });
      const overdueA2 = ticket(s.scopeA2, 3, { dueAt: at(40) });
      const notDue = ticket(s.scopeA, 4, { dueAt: at(90) });
      const closed = ticket(s.scopeA, 5, { dueAt: at(10), status: 'closed', closedAt: at(6) });
      const already = ticket(s.scopeA, 6, { dueAt: at(10), breachedAt: at(11) });
      for (const t of [overdueA, overdueB, overdueA2, notDue, closed, already]) await store.tickets.insert(t);
      const runs = await Promise.all([store.tickets.markBreaches(at(50), 100), store.tickets.markBreaches(at(50), 100), store.tickets.markBreaches(at(50), 100)]);
      const marked = runs.flat().map((t) => t.id);
      expect(marked.sort()).toEqual([overdueA.id, overdueB.id, overdueA2.id].sort());
      expect(runs.flat().every((t) => t.breachedAt === at(50))).toBe(true);
      expect(await store.tickets.markBreaches(at(51), 100)).toEqual([]);
      expect(await store.tickets.get(s.scopeA, already.id)).toEqual(already);
      expect(await store.tickets.get(s.scopeA, closed.id)).toEqual(closed);
      expect((await store.tickets.get(s.scopeA, notDue.id))?.breachedAt).toBeNull();
      // A batch limit leaves the rest to the next run, oldest due first.
      const later = [ticket(s.scopeA, 7, { dueAt: at(95) }), ticket(s.scopeA, 8, { dueAt: at(96) })];
      for (const t of later) await store.tickets.insert(t);
      expect((await store.tickets.markBreaches(at(100), 2)).map((t) => t.id)).toEqual([notDue.id, later[0]!.id]);
      expect((await store.tickets.markBreaches(at(100), 2)).map((t) => t.id)).toEqual([later[1]!.id]);
    });
  });

  describe('personas', () => {
    it('creates, lists, updates and deletes personas per workspace', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const persona = (scope: Scope, name: string): PersonaRecord => ({ id: ids.next('per'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, name, tone: 'friendly', instructions: 'Be brief.', locale: null, createdAt: at(0), updatedAt: at(0) });
      const one = persona(s.scopeA, 'One');
      const two = persona(s.scopeA, 'Two');
      for (const p of [one, two, persona(s.scopeA2, 'Other'), persona(s.scopeB, 'Foreign')]) await store.personas.insert(p);
      expect(await store.personas.get(s.scopeA, one.id)).toEqual(one);
      expect(await store.personas.get(s.scopeA2, one.id)).toBeNull();
      expect((await store.personas.list(s.scopeA, { limit: 10 })).items.map((p) => p.id)).toEqual([two.id, one.id]);
      expect(await store.personas.update(s.scopeA, one.id, { locale: 'th', tone: 'formal', updatedAt: at(5) })).toEqual({ ...one, locale: 'th', tone: 'formal', updatedAt: at(5) });
      expect(await store.personas.update(s.scopeB, one.id, { name: 'x', updatedAt: at(6) })).toBeNull();
      expect(await store.personas.delete(s.scopeA2, one.id)).toBe(false);
      expect(await store.personas.delete(s.scopeA, one.id)).toBe(true);
      expect(await store.personas.get(s.scopeA, one.id)).toBeNull();
    });
  });

  describe('visitors', () => {
    it('keeps e-mails unique within a workspace only, and merges two visitors of one workspace', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const ann = visitor(s.scopeA, 'ann@example.com', 'Ann');
      await store.visitors.insert(ann);
      const dup = await store.visitors.insert(visitor(s.scopeA, 'ann@example.com')).catch((e: unknown) => e);
      expect(isStoreConflict(dup)).toBe(true);
      const annElsewhere = visitor(s.scopeA2, 'ann@example.com');
      const annForeign = visitor(s.scopeB, 'ann@example.com');
      await store.visitors.insert(annElsewhere);
      await store.visitors.insert(annForeign);
      const anonymous = [visitor(s.scopeA, null), visitor(s.scopeA, null)];
      for (const v of anonymous) await store.visitors.insert(v);
      expect(await store.visitors.findByEmail(s.scopeA, 'ann@example.com')).toEqual(ann);
      expect(await store.visitors.findByEmail(s.scopeA2, 'ann@example.com')).toEqual(annElsewhere);
      expect((await store.visitors.list(s.scopeA, { limit: 10 })).items.map((v) => v.id)).toEqual([anonymous[1]!.id, anonymous[0]!.id, ann.id]);
      expect((await store.visitors.list(s.scopeA, { limit: 10, email: 'ann@example.com' })).items.map((v) => v.id)).toEqual([ann.id]);
      const taken = await store.visitors.update(s.scopeA, anonymous[0]!.id, { email: 'ann@example.com', updatedAt: at(1) }).catch((e: unknown) => e);
      expect(isStoreConflict(taken)).toBe(true);
      expect(await store.visitors.update(s.scopeA, anonymous[0]!.id, { name: 'Bob', email: 'bob@example.com', updatedAt: at(1) })).toMatchObject({ name: 'Bob', email: 'bob@example.com' });

      const c = conversation(s.scopeA, 1);
      await store.conversations.insert(c);
      await store.conversations.setVisitor(s.scopeA, c.id, anonymous[1]!.id);
      const t = ticket(s.scopeA, 2, { visitorId: anonymous[1]!.id, conversationId: c.id });
      await store.tickets.insert(t);
      await store.visitors.merge(s.scopeA, anonymous[1]!.id, ann.id);
      expect(await store.visitors.get(s.scopeA, anonymous[1]!.id)).toBeNull();
      expect((await store.conversations.get(s.scopeA, c.id))?.visitorId).toBe(ann.id);
      expect((await store.tickets.get(s.scopeA, t.id))?.visitorId).toBe(ann.id);
      expect((await store.conversations.list(s.scopeA, { visitorId: ann.id }, { limit: 10 })).items.map((x) => x.id)).toEqual([c.id]);
      // Never across workspaces or tenants.
      await expect(store.visitors.merge(s.scopeA, annElsewhere.id, ann.id)).rejects.toThrow();
      await expect(store.visitors.merge(s.scopeA, ann.id, annForeign.id)).rejects.toThrow();
      expect(await store.visitors.get(s.scopeA2, annElsewhere.id)).toEqual(annElsewhere);
      expect(await store.visitors.get(s.scopeA, ann.id)).toEqual(ann);
    });
  });

  describe('customers', () => {
    it('keeps domain and external id unique within a workspace only, filters, pages, updates and deletes in scope', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const acme = customer(s.scopeA, 'Acme', { domain: 'acme.co.th', externalId: 'crm-1', notes: 'Gold' });
      const globex = customer(s.scopeA, 'Globex', { domain: 'globex.com' });
      const person = customer(s.scopeA, 'Somchai');
      const unnamed = customer(s.scopeA, 'Initech');
      for (const c of [acme, globex, person, unnamed]) await store.customers.insert(c);
      // Two customers without a domain or external id are fine; a second with a taken one is not.
      for (const clash of [{ domain: 'acme.co.th' }, { externalId: 'crm-1' }]) {
        const refused = await store.customers.insert(customer(s.scopeA, 'Copy', clash)).catch((e: unknown) => e);
        expect(isStoreConflict(refused), JSON.stringify(clash)).toBe(true);
      }
      const elsewhere = customer(s.scopeA2, 'Acme', { domain: 'acme.co.th', externalId: 'crm-1' });
      const foreign = customer(s.scopeB, 'Acme', { domain: 'acme.co.th', externalId: 'crm-1' });
      await store.customers.insert(elsewhere);
      await store.customers.insert(foreign);

      expect(await store.customers.get(s.scopeA, acme.id)).toEqual(acme);
      expect(await store.customers.get(s.scopeA2, acme.id)).toBeNull();
      expect(await store.customers.get(s.scopeB, acme.id)).toBeNull();
      const first = await store.customers.list(s.scopeA, { limit: 3 });
      expect(first.items.map((c) => c.id)).toEqual([unnamed.id, person.id, globex.id]);
      expect((await store.customers.list(s.scopeA, { limit: 3, after: first.nextCursor! })).items.map((c) => c.id)).toEqual([acme.id]);
      expect((await store.customers.list(s.scopeA, { limit: 10, domain: 'acme.co.th' })).items).toEqual([acme]);
      expect((await store.customers.list(s.scopeA, { limit: 10, externalId: 'crm-1' })).items).toEqual([acme]);
      expect((await store.customers.list(s.scopeB, { limit: 10 })).items).toEqual([foreign]);

      const taken = await store.customers.update(s.scopeA, globex.id, { domain: 'acme.co.th', updatedAt: at(1) }).catch((e: unknown) => e);
      expect(isStoreConflict(taken)).toBe(true);
      expect(await store.customers.update(s.scopeA, globex.id, { name: 'Globex Corp', domain: null, notes: 'moved', updatedAt: at(1) })).toEqual({ ...globex, name: 'Globex Corp', domain: null, notes: 'moved', updatedAt: at(1) });
      expect(await store.customers.update(s.scopeB, acme.id, { name: 'Hijacked', updatedAt: at(2) })).toBeNull();
      expect(await store.customers.delete(s.scopeB, acme.id)).toBe(false);
      expect(await store.customers.delete(s.scopeA2, acme.id)).toBe(false);
      expect(await store.customers.delete(s.scopeA, acme.id)).toBe(true);
      expect(await store.customers.get(s.scopeA, acme.id)).toBeNull();
      expect(await store.customers.get(s.scopeA2, elsewhere.id)).toEqual(elsewhere);
      expect(await store.customers.get(s.scopeB, foreign.id)).toEqual(foreign);
    });

    it('finds a workspace\'s visitors by the domain of their e-mail, exactly, newest first', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const ann = visitor(s.scopeA, 'ann@acme.co.th');
      const bob = visitor(s.scopeA, 'bob@acme.co.th');
      for (const v of [ann, bob, visitor(s.scopeA, 'eve@notacme.co.th'), visitor(s.scopeA, 'sub@mail.acme.co.th'), visitor(s.scopeA, null), visitor(s.scopeA2, 'ann@acme.co.th'), visitor(s.scopeB, 'ann@acme.co.th')]) {
        await store.visitors.insert(v);
      }
      expect((await store.visitors.listByDomain(s.scopeA, 'acme.co.th', 10)).map((v) => v.id)).toEqual([bob.id, ann.id]);
      expect((await store.visitors.listByDomain(s.scopeA, 'acme.co.th', 1)).map((v) => v.id)).toEqual([bob.id]);
      expect(await store.visitors.listByDomain(s.scopeA, 'co.th', 10)).toEqual([]);
    });
  });

  describe('inbox', () => {
    it('lists what needs a human, newest first, by reason, with a cursor, in the workspace only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const disliked = conversation(s.scopeA, 1, { hasThumbsDown: true });
      const ungrounded = conversation(s.scopeA, 2);
      const handedOff = conversation(s.scopeA, 3, { hasThumbsDown: true, handedOff: true });
      const fine = conversation(s.scopeA, 4, { hasGroundedAnswer: true });
      for (const c of [disliked, ungrounded, handedOff, fine]) await store.conversations.insert(c);
      await store.conversations.appendMessage(s.scopeA, question(s.scopeA, disliked.id, 5, 'Where is my order?'));
      await store.conversations.appendMessage(s.scopeA, { ...question(s.scopeA, ungrounded.id, 6, 'Do you ship to Mars?'), role: 'assistant', content: 'I could not find that.', grounded: false });
      const open = ticket(s.scopeA, 7, { conversationId: handedOff.id, priority: 'high' });
      const breached = ticket(s.scopeA, 0, { dueAt: at(1), breachedAt: at(8) });
      const closed = ticket(s.scopeA, 9, { status: 'closed', closedAt: at(9) });
      for (const t of [open, breached, closed]) await store.tickets.insert(t);
      await store.tickets.insert(ticket(s.scopeA2, 10));
      await store.conversations.insert(conversation(s.scopeB, 11, { hasThumbsDown: true }));

      const all = await store.inbox.list(s.scopeA, { reasons: ['sla_breach', 'open_ticket', 'thumbs_down', 'ungrounded'] }, { limit: 10 });
      expect(all.items.map((i) => [i.reason, i.id])).toEqual([
        ['sla_breach', breached.id],
        ['open_ticket', open.id],
        ['ungrounded', ungrounded.id],
        ['thumbs_down', disliked.id],
      ]);
      expect(all.items[1]).toEqual({ reason: 'open_ticket', kind: 'ticket', id: open.id, conversationId: handedOff.id, ticketId: open.id, title: open.subject, priority: 'high', at: at(7) });
      expect(all.items[3]).toEqual({ reason: 'thumbs_down', kind: 'conversation', id: disliked.id, conversationId: disliked.id, ticketId: null, title: 'Where is my order?', priority: null, at: at(5) });
      expect(all.items[2]!.title).toBe('');
      const first = await store.inbox.list(s.scopeA, { reasons: ['sla_breach', 'open_ticket', 'thumbs_down', 'ungrounded'] }, { limit: 3 });
      expect(first.nextCursor).not.toBeNull();
      const last = first.items.at(-1)!;
      const rest = await store.inbox.list(s.scopeA, { reasons: ['sla_breach', 'open_ticket', 'thumbs_down', 'ungrounded'] }, { limit: 3, after: { at: last.at, id: last.id } });
      expect(rest).toEqual({ items: [all.items[3]], nextCursor: null });
      expect((await store.inbox.list(s.scopeA, { reasons: ['thumbs_down'] }, { limit: 10 })).items.map((i) => i.id)).toEqual([disliked.id]);
      expect((await store.inbox.list(s.scopeA, { reasons: ['ungrounded', 'sla_breach'] }, { limit: 10 })).items.map((i) => i.id)).toEqual([breached.id, ungrounded.id]);
      expect((await store.inbox.list(s.scopeA2, { reasons: ['open_ticket', 'thumbs_down'] }, { limit: 10 })).items).toHaveLength(1);
    });
  });
}
