import { z } from 'zod';
import { brandAccentSchema, brandNameSchema as nameSchema, slugSchema } from './schemas.js';

export { brandAccentSchema };

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
