/**
 * Guided flows: a workspace's scripted procedures (name, steps) and their runs. A run is
 * billed once it is completed, which needs a delivered draft first (spec "Guided flow").
 */
import type { Scope } from '../../ports/scope.js';

export type FlowStep = {
  title: string;
  instructions: string | null;
};

export interface FlowRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  name: string;
  steps: FlowStep[];
  createdAt: string;
  updatedAt: string;
}

export const FLOW_RUN_STATUSES = ['started', 'drafted', 'completed'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];

/**
 * The statuses a run may be in for each move, checked in the same statement as the write: a
 * draft never reopens a completed run, and only a drafted run completes (once).
 */
export const FLOW_RUN_MOVES = {
  draft: ['started', 'drafted'],
  complete: ['drafted'],
} as const satisfies Record<string, readonly FlowRunStatus[]>;

export interface FlowRunRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  flowId: string;
  /** The conversation the run serves, if any. */
  conversationId: string | null;
  status: FlowRunStatus;
  /** The draft last delivered; null before the first. */
  draft: string | null;
  createdAt: string;
  draftedAt: string | null;
  completedAt: string | null;
}

export interface FlowStore {
  insert(flow: FlowRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<FlowRecord | null>;
  /** The workspace's flows, oldest first. */
  list(scope: Scope): Promise<FlowRecord[]>;
  /** Null when the workspace has no such flow. */
  update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }): Promise<FlowRecord | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
  insertRun(run: FlowRunRecord): Promise<void>;
  getRun(scope: Scope, id: string): Promise<FlowRunRecord | null>;
  /** Records a delivered draft unless the run is completed; returns the run as it now is. */
  draftRun(scope: Scope, id: string, draft: string, at: string): Promise<FlowRunRecord | null>;
  /**
   * Moves a drafted run to completed, atomically: true only for the one call that did it (a
   * retry, or a concurrent call, finds it completed already).
   */
  completeRun(scope: Scope, id: string, at: string): Promise<boolean>;
}
