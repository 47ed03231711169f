/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import { createTable, type KitStatements } from './ddl.js';
import { FEEDBACK, FEEDBACK_CITATIONS, GAP_SNAPSHOTS, QUESTION_LOG } from './tables.js';

export interface KitMigration {
  /** Stable and unique: `<table>-<what>`. */
  id: string;
  statements: KitStatements;
}

/** The gap questions: refused, weakly grounded, thumbed down or handed off (a predicate both dialects read). */
export const GAP_QUESTION = "(outcome <> 'answered' OR thumbs_down OR handed_off)";

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  {
    id: 'question-log-v1',
    statements: (ctx) => [
      ...createTable(QUESTION_LOG, {
        primaryKey: ['id'],
        indexes: [
          { name: 'question_log_gaps', fields: ['tenantId', 'workspaceId', 'createdAt', 'id'], where: GAP_QUESTION },
          { name: 'question_log_message', fields: ['tenantId', 'workspaceId', 'messageId'], where: 'message_id IS NOT NULL' },
          { name: 'question_log_conversation', fields: ['tenantId', 'workspaceId', 'conversationId'], where: 'conversation_id IS NOT NULL' },
        ],
      })(ctx),
      ...createTable(GAP_SNAPSHOTS, { primaryKey: ['tenantId', 'workspaceId', 'period'], indexes: [{ name: 'gap_snapshots_requested', fields: ['requestedAt'], where: 'requested_at IS NOT NULL' }] })(ctx),
    ],
  },
  {
    id: 'feedback-v1',
    statements: (ctx) => [
      ...createTable(FEEDBACK, { primaryKey: ['id'], indexes: [{ name: 'feedback_message', fields: ['tenantId', 'workspaceId', 'messageId'], unique: true }] })(ctx),
      ...createTable(FEEDBACK_CITATIONS, { primaryKey: ['feedbackId', 'position'], indexes: [{ name: 'feedback_citations_document', fields: ['tenantId', 'workspaceId', 'documentId'] }] })(ctx),
    ],
  },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
