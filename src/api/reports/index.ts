import { cashflowReports } from './cashflow.js';
import { churnReports } from './churn.js';
import { cohortReports } from './cohort.js';
import { customVariableReports } from './custom-variables.js';
import { leadsReports } from './leads.js';
import { mapRetentionReports } from './map-retention.js';
import type { ReportDefinition } from './registry.js';
import { mrrReports } from './mrr.js';
import { scheduledReports } from './scheduled.js';
import { tableReports } from './tables.js';

/** Every report the API serves, grouped as the docs list them (docs/api.md, "Reports"). */
export const REPORTS: readonly ReportDefinition[] = [
  ...mrrReports,
  ...scheduledReports,
  ...churnReports,
  ...leadsReports,
  ...cohortReports,
  ...mapRetentionReports,
  ...cashflowReports,
  ...customVariableReports,
  ...tableReports,
];
