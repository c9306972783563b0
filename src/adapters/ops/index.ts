/** Operations: metrics, alerts (log + webhook), the ops HTTP endpoint and its control API, the ctl client. */
export { DaemonMetrics } from './metrics.js';
export type { MetricsOptions } from './metrics.js';
export { Alerter, AlertCode } from './alerter.js';
export type { AlerterOptions } from './alerter.js';
export { WebhookNotifier, DEFAULT_WEBHOOK_RETRY } from './webhook.js';
export type { WebhookOptions, WebhookRetryPolicy, WebhookBody } from './webhook.js';
export { OpsServer, OpsServerError, HealthStatus } from './server.js';
export type { OpsServerOptions, HealthReport, ControlHandler } from './server.js';
export { loadOrCreateControlToken, readControlToken, validateControlToken, ControlTokenError } from './control-token.js';
export { sendControl, ControlCommand, ControlClientError } from './ctl-client.js';
export type { ControlRequest } from './ctl-client.js';
