import { z } from 'zod';
import { INBOX_REASONS, TICKET_PRIORITIES, TICKET_STATUSES } from './ports/support.js';
import { parseHostname } from '../hostnames/validate.js';
import { LOCALES } from '../messages.js';

/*
 * Support records: what the ticket, persona, visitor, customer and inbox routes accept and
 * answer. Inputs are strict (an unknown field is a mistake worth a 400); outputs are open like
 * every response schema.
 */

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(100).default(20);

export const ticketPrioritySchema = z.enum(TICKET_PRIORITIES);
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export const inboxReasonSchema = z.enum(INBOX_REASONS);

// Tickets (human hand-off)

const conversationId = z.string().regex(/^conv_[0-9A-Za-z]{22}$/, 'not a conversation id');
const visitorId = z.string().regex(/^vis_[0-9A-Za-z]{22}$/, 'not a visitor id');

export const createTicketSchema = z.strictObject({
  subject: z.string().trim().min(1).max(300),
  body: z.string().trim().min(1).max(20_000),
  priority: ticketPrioritySchema.default('normal'),
  conversationId: conversationId.optional(),
  visitorId: visitorId.optional(),
});

export const listTicketsSchema = z.strictObject({ status: ticketStatusSchema.optional(), priority: ticketPrioritySchema.optional(), cursor, limit });

export const ticketCommentSchema = z.strictObject({ body: z.string().trim().min(1).max(20_000) });

export const commentSchema = z.looseObject({ id: z.string(), ticketId: z.string(), body: z.string(), author: z.string(), createdAt: z.string() });

export const ticketSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  subject: z.string(),
  body: z.string(),
  priority: ticketPrioritySchema,
  status: ticketStatusSchema,
  conversationId: z.string().nullable(),
  visitorId: z.string().nullable(),
  dueAt: z.string().describe('When the SLA of its priority runs out (from creation, or the last reopen).'),
  breachedAt: z.string().nullable().describe('When the SLA check found it open past `dueAt`; null while within SLA.'),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const ticketWithCommentsSchema = ticketSchema.extend({ comments: z.array(commentSchema).describe('Oldest first.') });

// Personas

const personaLocale = z.enum(LOCALES).nullable();
export const createPersonaSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  tone: z.string().trim().max(100).default(''),
  instructions: z.string().trim().max(4_000).default(''),
  locale: personaLocale.default(null),
});
export const updatePersonaSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    tone: z.string().trim().max(100).optional(),
    instructions: z.string().trim().max(4_000).optional(),
    locale: personaLocale.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'at least one field to change is required');
export const listPageSchema = z.strictObject({ cursor, limit });

export const personaSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  tone: z.string(),
  instructions: z.string(),
  locale: z.enum(LOCALES).nullable().describe('Answers are written in this locale; null: the question’s own.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const personaIdSchema = z.string().regex(/^per_[0-9A-Za-z]{22}$/, 'not a persona id');

// Visitors

const email = z.string().trim().max(254).pipe(z.email()).transform((e) => e.toLowerCase());
export const visitorDetailsSchema = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), email: email.optional() })
  .refine((v) => v.name !== undefined || v.email !== undefined, 'name or email is required');
export const listVisitorsSchema = z.strictObject({ email: email.optional(), cursor, limit });
export const visitorSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

// Customers

/** An e-mail domain as typed ("acme.co.th", "@Acme.co.th", IDN): lower-case ASCII, never a public suffix. */
const customerDomain = z
  .string()
  .trim()
  .max(254)
  .transform((raw, ctx) => {
    const parsed = parseHostname(raw.replace(/^@/, ''));
    if (parsed.isOk()) return parsed.value.hostname;
    ctx.addIssue({ code: 'custom', message: parsed.error.message.replaceAll('hostname', 'domain') });
    return z.NEVER;
  });
const externalId = z.string().trim().min(1).max(200);
export const createCustomerSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  domain: customerDomain.nullable().default(null).describe('E-mail domain: visitors at this domain belong to the customer.'),
  externalId: externalId.nullable().default(null).describe('The customer\'s id in your own systems (a CRM).'),
  notes: z.string().trim().max(4_000).default(''),
});
export const updateCustomerSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    domain: customerDomain.nullable().optional(),
    externalId: externalId.nullable().optional(),
    notes: z.string().trim().max(4_000).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'at least one field to change is required');
export const listCustomersSchema = z.strictObject({ domain: customerDomain.optional(), externalId: externalId.optional(), cursor, limit });
export const customerSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  externalId: z.string().nullable(),
  notes: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const customerWithVisitorsSchema = customerSchema.extend({
  visitors: z.array(visitorSchema).describe('Visitors of the workspace whose e-mail is at the customer\'s domain, newest first, at most 100.'),
});

// Inbox

export const inboxQuerySchema = z.strictObject({
  reason: z
    .string()
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(inboxReasonSchema).min(1))
    .optional()
    .describe('Comma-separated reasons to include; default all.'),
  cursor,
  limit,
});
export const inboxItemSchema = z.looseObject({
  reason: inboxReasonSchema,
  kind: z.enum(['ticket', 'conversation']),
  id: z.string(),
  conversationId: z.string().nullable(),
  ticketId: z.string().nullable(),
  title: z.string(),
  priority: ticketPrioritySchema.nullable(),
  at: z.string(),
});
