import { ok } from 'neverthrow';
import { z } from 'zod';
import { defineOperation } from '../operations/types.js';

/** The chat widget's settings, readable with the publishable key the widget is embedded with. */
export const widgetConfig = defineOperation({
  id: 'widget.config',
  http: { method: 'GET', path: '/widget' },
  scope: 'read',
  acceptsPublishable: true,
  counted: false,
  input: {},
  output: z.strictObject({
    name: z.string().describe("The workspace's name (the widget's title)."),
    brandAccent: z.string().nullable().describe("The workspace's brand accent colour, e.g. #2f6feb."),
    helpCenterUrl: z.string().nullable().describe('The help center home page, when citations link to it.'),
    articleUrl: z.string().nullable().describe("A cited article's page with {documentId} to replace; null for a key that may read unpublished documents (a secret key or a session), which have no public page."),
  }),
  async run({ request, services }) {
    return ok(await services.helpCenter.widget(request));
  },
});

export const WIDGET_OPERATIONS = [widgetConfig];
