import { err, ok } from 'neverthrow';
import { z } from 'zod';
import { listSchema } from '../schemas/responses.js';
import {
  commentSchema,
  createCustomerSchema,
  customerSchema,
  customerWithVisitorsSchema,
  listCustomersSchema,
  updateCustomerSchema,
  createPersonaSchema,
  createTicketSchema,
  inboxItemSchema,
  inboxQuerySchema,
  listPageSchema,
  listTicketsSchema,
  listVisitorsSchema,
  personaSchema,
  ticketCommentSchema,
  ticketSchema,
  ticketWithCommentsSchema,
  updatePersonaSchema,
  visitorDetailsSchema,
  visitorSchema,
} from './schemas.js';
import { defineOperation } from '../operations/types.js';

/*
 * Tickets (the hand-off to a human), personas, visitors, customers and the inbox. Reading needs `read`;
 * changing needs `write`.
 */

const idParams = z.looseObject({ id: z.string() });

// Tickets

export const createTicket = defineOperation({
  id: 'tickets.create',
  http: { method: 'POST', path: '/tickets', status: 201, location: (t) => `/tickets/${t.id}` },
  scope: 'write',
  counted: false,
  input: { body: createTicketSchema },
  output: ticketSchema,
  run: ({ request, services }, { body }) => services.tickets.create(request, body),
});

export const listTickets = defineOperation({
  id: 'tickets.list',
  http: { method: 'GET', path: '/tickets' },
  scope: 'read',
  counted: false,
  input: { query: listTicketsSchema },
  output: listSchema(ticketSchema),
  run: ({ request, services }, { query }) => services.tickets.list(request, query),
});

export const getTicket = defineOperation({
  id: 'tickets.get',
  http: { method: 'GET', path: '/tickets/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: ticketWithCommentsSchema,
  run: ({ request, services }, { params }) => services.tickets.get(request, params.id),
});

export const closeTicket = defineOperation({
  id: 'tickets.close',
  http: { method: 'POST', path: '/tickets/:id/close' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: ticketWithCommentsSchema,
  run: ({ request, services }, { params }) => services.tickets.close(request, params.id),
});

export const reopenTicket = defineOperation({
  id: 'tickets.reopen',
  http: { method: 'POST', path: '/tickets/:id/reopen' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: ticketWithCommentsSchema,
  run: ({ request, services }, { params }) => services.tickets.reopen(request, params.id),
});

export const commentTicket = defineOperation({
  id: 'tickets.comment',
  http: { method: 'POST', path: '/tickets/:id/comment', status: 201 },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: ticketCommentSchema },
  output: commentSchema,
  run: ({ request, services }, { params, body }) => services.tickets.comment(request, params.id, body),
});

// Personas

export const listPersonas = defineOperation({
  id: 'personas.list',
  http: { method: 'GET', path: '/personas' },
  scope: 'read',
  counted: false,
  input: { query: listPageSchema },
  output: listSchema(personaSchema),
  run: ({ request, services }, { query }) => services.personas.list(request, query),
});

export const createPersona = defineOperation({
  id: 'personas.create',
  http: { method: 'POST', path: '/personas', status: 201, location: (p) => `/personas/${p.id}` },
  scope: 'write',
  counted: false,
  input: { body: createPersonaSchema },
  output: personaSchema,
  run: ({ request, services }, { body }) => services.personas.create(request, body),
});

export const getPersona = defineOperation({
  id: 'personas.get',
  http: { method: 'GET', path: '/personas/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: personaSchema,
  run: ({ request, services }, { params }) => services.personas.get(request, params.id),
});

export const updatePersona = defineOperation({
  id: 'personas.update',
  http: { method: 'PATCH', path: '/personas/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: updatePersonaSchema },
  output: personaSchema,
  run: ({ request, services }, { params, body }) => services.personas.update(request, params.id, body),
});

export const deletePersona = defineOperation({
  id: 'personas.delete',
  http: { method: 'DELETE', path: '/personas/:id', status: 204 },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.void(),
  async run({ request, services }, { params }) {
    const done = await services.personas.delete(request, params.id);
    return done.isOk() ? ok(undefined) : err(done.error);
  },
});

// Visitors

export const captureVisitor = defineOperation({
  id: 'conversations.visitor',
  // Contact details given during a conversation; an e-mail known in the workspace merges.
  http: { method: 'POST', path: '/conversations/:id/visitor' },
  scope: 'read',
  counted: false,
  input: { params: idParams, body: visitorDetailsSchema },
  output: visitorSchema,
  run: ({ request, services }, { params, body }) => services.visitors.capture(request, params.id, body),
});

export const listVisitors = defineOperation({
  id: 'visitors.list',
  http: { method: 'GET', path: '/visitors' },
  scope: 'read',
  counted: false,
  input: { query: listVisitorsSchema },
  output: listSchema(visitorSchema),
  run: ({ request, services }, { query }) => services.visitors.list(request, query),
});

export const getVisitor = defineOperation({
  id: 'visitors.get',
  http: { method: 'GET', path: '/visitors/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: visitorSchema.extend({ conversationIds: z.array(z.string()).describe('Latest first, at most 100.') }),
  run: ({ request, services }, { params }) => services.visitors.get(request, params.id),
});

// Customers

export const listCustomers = defineOperation({
  id: 'customers.list',
  http: { method: 'GET', path: '/customers' },
  scope: 'read',
  counted: false,
  input: { query: listCustomersSchema },
  output: listSchema(customerSchema),
  run: ({ request, services }, { query }) => services.customers.list(request, query),
});

export const createCustomer = defineOperation({
  id: 'customers.create',
  http: { method: 'POST', path: '/customers', status: 201, location: (c) => `/customers/${c.id}` },
  scope: 'write',
  counted: false,
  input: { body: createCustomerSchema },
  output: customerSchema,
  run: ({ request, services }, { body }) => services.customers.create(request, body),
});

export const getCustomer = defineOperation({
  id: 'customers.get',
  http: { method: 'GET', path: '/customers/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: customerWithVisitorsSchema,
  run: ({ request, services }, { params }) => services.customers.get(request, params.id),
});

export const updateCustomer = defineOperation({
  id: 'customers.update',
  http: { method: 'PATCH', path: '/customers/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: updateCustomerSchema },
  output: customerSchema,
  run: ({ request, services }, { params, body }) => services.customers.update(request, params.id, body),
});

export const deleteCustomer = defineOperation({
  id: 'customers.delete',
  http: { method: 'DELETE', path: '/customers/:id', status: 204 },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.void(),
  async run({ request, services }, { params }) {
    const done = await services.customers.delete(request, params.id);
    return done.isOk() ? ok(undefined) : err(done.error);
  },
});

// Inbox

export const inbox = defineOperation({
  id: 'inbox.list',
  http: { method: 'GET', path: '/inbox' },
  scope: 'read',
  counted: false,
  input: { query: inboxQuerySchema },
  output: listSchema(inboxItemSchema),
  run: ({ request, services }, { query }) => services.inbox.list(request, query),
});

export const SUPPORT_OPERATIONS = [
  createTicket,
  listTickets,
  getTicket,
  closeTicket,
  reopenTicket,
  commentTicket,
  listPersonas,
  createPersona,
  getPersona,
  updatePersona,
  deletePersona,
  captureVisitor,
  listVisitors,
  getVisitor,
  listCustomers,
  createCustomer,
  getCustomer,
  updateCustomer,
  deleteCustomer,
  inbox,
];
