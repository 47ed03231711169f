import { z } from 'zod';
import { slugSchema } from './tenancy.js';

/** A brand accent colour: `#rrggbb`, stored lowercase. */
export const brandAccentSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour')
  .transform((s) => s.toLowerCase());

const nameSchema = z.string().trim().min(1).max(100);

export const createWorkspaceSchema = z.strictObject({
  slug: slugSchema,
  name: nameSchema,
  brandAccent: brandAccentSchema.nullable().optional(),
});
export type CreateWorkspaceInput = z.input<typeof createWorkspaceSchema>;

export const updateWorkspaceSchema = z
  .strictObject({
    name: nameSchema.optional(),
    brandAccent: brandAccentSchema.nullable().optional(),
  })
  .refine((v) => v.name !== undefined || v.brandAccent !== undefined, 'give name or brandAccent');
export type UpdateWorkspaceInput = z.input<typeof updateWorkspaceSchema>;
