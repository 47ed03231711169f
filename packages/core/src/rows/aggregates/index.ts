/**
 * Every aggregate the storage kit writes once, on one driver: a SQL store spreads these into its
 * `Store` and adds only the aggregates it still implements itself.
 */
import type { SqlDriver } from '../driver.js';
import { SqlAudit } from './audit.js';
import { SqlBilling } from './billing.js';
import { SqlCuratedAnswers } from './curated-answers.js';
import { SqlEvals } from './evaluation.js';
import { SqlFlows } from './flows.js';
import { SqlHostnames, SqlTombstones } from './hostnames.js';
import { SqlFeedback, SqlQuestionLog } from './insights.js';
import { SqlResolutions } from './resolutions.js';
import { SqlRetention } from './retention.js';
import { SqlCustomers, SqlPersonas, SqlTickets } from './support.js';
import { SqlConnectors, SqlIdempotency, SqlOrigins } from './sync.js';
import { SqlSso } from './sso.js';
import { SqlVerifiedVisitors, SqlVisitorKeys } from './visitor-keys.js';

export function kitAggregates(kit: SqlDriver) {
  return {
    audit: new SqlAudit(kit),
    retention: new SqlRetention(kit),
    hostnames: new SqlHostnames(kit),
    tombstones: new SqlTombstones(kit),
    curatedAnswers: new SqlCuratedAnswers(kit),
    evals: new SqlEvals(kit),
    visitorKeys: new SqlVisitorKeys(kit),
    verifiedVisitors: new SqlVerifiedVisitors(kit),
    billing: new SqlBilling(kit),
    resolutions: new SqlResolutions(kit),
    flows: new SqlFlows(kit),
    origins: new SqlOrigins(kit),
    connectors: new SqlConnectors(kit),
    idempotency: new SqlIdempotency(kit),
    tickets: new SqlTickets(kit),
    personas: new SqlPersonas(kit),
    customers: new SqlCustomers(kit),
    questions: new SqlQuestionLog(kit),
    feedback: new SqlFeedback(kit),
    sso: new SqlSso(kit),
  };
}
