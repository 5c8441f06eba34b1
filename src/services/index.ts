import { type ConnectorRegistry, connectorRegistry } from '../connectors/connector.js';
import { createImportControl } from '../connectors/import-control.js';
import { createOAuthControl } from '../connectors/oauth-control.js';
import type { JobSender, RetryPolicy } from '../jobs/job-queue.js';
import type { Store } from '../store/open-store.js';
import { createAccountsService } from './accounts-service.js';
import { createApiKeysService } from './api-keys-service.js';
import type { Clock } from './clock.js';
import { createCustomersService } from './customers-service.js';
import { createDataSourcesService } from './data-sources-service.js';
import { createFxService } from './fx-service.js';
import { createInvoicesService } from './invoices-service.js';
import { createLeadsService } from './leads-service.js';
import { createMailer, type SmtpSettings } from './mailer.js';
import { createMetricsService, type MetricsOptions } from './metrics-service.js';
import { createNotificationsService } from './notifications-service.js';
import { createQueryContexts, createReportQueries } from './report-context.js';
import { createSegmentsService } from './segments-service.js';
import { createReportAnswers } from './report-answers.js';
import { createReportInputs } from './report-inputs.js';
import { createReportsService } from './reports-service.js';
import { createExportsService } from './exports-service.js';
import { createActivityService } from './activity-service.js';
import { createCashflowTables } from './cashflow-tables.js';
import { createCashflowService } from './cashflow-service.js';
import { createChurnService } from './churn-service.js';
import { createCohortService } from './cohort-service.js';
import { createMapRetentionService } from './map-retention-service.js';
import { createScheduledReportsService } from './scheduled-reports-service.js';
import { createCustomVariablesService } from './custom-variables-service.js';
import { createCustomerMetricsService } from './customer-metrics-service.js';
import { createPlanGroupsService } from './plan-groups-service.js';
import { createPlansService } from './plans-service.js';
import { createProfileService } from './profile-service.js';
import { createConnectorPages } from './connector-pages.js';
import { secretBox } from './secret-box.js';
import { createSettingsService } from './settings-service.js';
import { createSubscriptionsService } from './subscriptions-service.js';
import { createTeamService } from './team-service.js';
import { createUploadsService } from './uploads-service.js';
import {
  createSpreadsheetSync,
  DEFAULT_SPREADSHEET_BASE_URL,
  type SpreadsheetSettings,
} from './spreadsheet-sync.js';
import { createWebAuthService } from './web-auth-service.js';
import { createJobsService, NO_JOB_RUNNER } from './jobs-service.js';
import { createWebhooksService } from './webhooks-service.js';
import { type OutboundPolicy, STRICT_OUTBOUND } from './outbound-http.js';

export interface ServiceOptions {
  /** The billing-system connectors by data-source type; none by default. */
  connectors?: ConnectorRegistry;
  /** The key that seals stored billing-system secrets (SECRETS_KEY); without it none can be stored. */
  secretsKey?: Buffer | undefined;
  /** PUBLIC_URL, the address browsers reach the server at: OAuth redirect URIs are built on it. */
  publicUrl?: string | undefined;
  /** Where spreadsheet sources may read sheets from, and how big one may be. */
  spreadsheets?: Partial<Omit<SpreadsheetSettings, 'policy'>>;
  /**
   * Which addresses the server calls on users' behalf (webhooks, chat, sheets): private ones
   * only when allowed (OUTBOUND_ALLOW_PRIVATE); refused by default.
   */
  outbound?: OutboundPolicy;
  /** Outgoing mail (digests, alerts); without it no email is sent. */
  smtp?: SmtpSettings | undefined;
  /** The job runner's sender (src/jobs); without one, nothing that needs a job can be queued. */
  jobs?: JobSender;
  /** How reports wait for a newer snapshot, and where background refreshes report failures. */
  metrics?: MetricsOptions;
  /**
   * Outbound webhooks' retries, time limit per attempt, and where an event that could not be
   * queued is reported; defaults in webhooks-service.ts.
   */
  webhooks?: { retry?: RetryPolicy; timeoutMs?: number; report?: (error: unknown) => void };
}

const DEFAULT_SHEET_BYTES = 64 * 1024 * 1024;

/** Built once at start-up and handed to the API, the CLI and the jobs alike. */
export function createServices(store: Store, clock: Clock, options: ServiceOptions = {}) {
  const apiKeys = createApiKeysService(store, clock);
  const fx = createFxService(store, clock);
  // One cache of the invoices for every report that reads them, kept in step with the
  // snapshots built ahead of their readers.
  const cashflowTables = createCashflowTables(store);
  const metrics = createMetricsService(store, fx, clock, {
    ...options.metrics,
    builtAhead: (accountId, snapshot) => cashflowTables.ahead(accountId, snapshot),
    dropped: (accountId) => cashflowTables.forget(accountId),
  });
  const queryContext = createQueryContexts(store, clock, fx);
  const reportQuery = createReportQueries(queryContext);
  const reportAnswers = createReportAnswers();
  const reportInputs = createReportInputs(metrics, fx, reportQuery, reportAnswers);
  const reports = createReportsService(reportInputs);
  // Reports over the cashflow table answer from the previous snapshot only when its table is
  // held: building one for a snapshot about to be replaced reads every invoice for nothing.
  const cashflowInputs = createReportInputs(metrics, fx, reportQuery, reportAnswers, (accountId, held) =>
    cashflowTables.holds(accountId, held.version),
  );
  const cashflow = createCashflowService(cashflowTables, store, cashflowInputs);
  const outbound = options.outbound ?? STRICT_OUTBOUND;
  const webhooks = createWebhooksService(store, clock, {
    jobs: options.jobs ?? NO_JOB_RUNNER,
    ...options.webhooks,
    policy: outbound,
  });
  // Writes of one record through the API are told to webhooks (docs/webhooks.md).
  const customers = createCustomersService(store, clock, fx, metrics, webhooks);
  const plans = createPlansService(store, fx, webhooks);
  const invoices = createInvoicesService(store, fx, webhooks);
  const subscriptions = createSubscriptionsService(store, fx);
  const pages = createConnectorPages(
    store,
    fx,
    clock,
    { customers, plans, subscriptions, invoices },
    (accountId) => metrics.refreshSoon(accountId),
  );
  const connectors = options.connectors ?? connectorRegistry([]);
  const settings = createSettingsService(store, outbound);
  const notifications = createNotificationsService({
    store,
    clock,
    metrics,
    fx,
    reports,
    settings,
    mailer: createMailer(options.smtp),
    publishers: [webhooks],
    jobs: options.jobs,
    outbound,
  });
  const imports = createImportControl({
    store,
    clock,
    connectors,
    secrets: secretBox(options.secretsKey),
    pages,
    onImportCompleted: (accountId, source) => webhooks.importCompleted(accountId, source),
  });
  const uploads = createUploadsService(
    store,
    clock,
    fx,
    { customers, plans, subscriptions, invoices },
    (accountId) => metrics.refreshSoon(accountId),
  );
  const spreadsheets = createSpreadsheetSync(store, clock, uploads, {
    baseUrl: options.spreadsheets?.baseUrl ?? DEFAULT_SPREADSHEET_BASE_URL,
    maxBytes: options.spreadsheets?.maxBytes ?? DEFAULT_SHEET_BYTES,
    policy: outbound,
  });
  return {
    store,
    clock,
    apiKeys,
    accounts: createAccountsService(store, apiKeys, fx),
    team: createTeamService(store, clock),
    profile: createProfileService(store),
    webAuth: createWebAuthService(store, clock),
    dataSources: createDataSourcesService(store),
    settings,
    notifications,
    fx,
    metrics,
    reportQuery,
    reportAnswers,
    customerMetrics: createCustomerMetricsService(store, metrics, fx, reportQuery),
    reports,
    cashflow,
    /** The invoices as the cashflow engine reads them, per snapshot (tests compare patched and whole). */
    cashflowTables,
    activity: createActivityService(reports, cashflow, clock),
    scheduledReports: createScheduledReportsService(reportInputs),
    churn: createChurnService(reportInputs, clock),
    leads: createLeadsService(reportInputs),
    cohort: createCohortService(reportInputs),
    mapRetention: createMapRetentionService(reportInputs, cashflowInputs, cashflowTables),
    exports: createExportsService(reportInputs),
    customVariables: createCustomVariablesService(metrics, clock),
    customers,
    plans,
    planGroups: createPlanGroupsService(store),
    segments: createSegmentsService(store, queryContext),
    invoices,
    subscriptions,
    imports,
    webhooks,
    jobs: createJobsService(store),
    uploads,
    spreadsheets,
    oauth: createOAuthControl({ store, clock, connectors, imports, publicUrl: options.publicUrl }),
  };
}

export type Services = ReturnType<typeof createServices>;
