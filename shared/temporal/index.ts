export type { TemporalConfig, TemporalTlsConfig } from './config.js';
export { closeTemporalConnection, connectTemporal, temporalReachable, type TemporalHandle } from './connect.js';
export { freePort, startDevServer, type DevServer, type DevServerLog, type DevServerOptions } from './dev-server.js';
export { temporalTlsOptions } from './tls.js';
export { temporalWorkflowUrl } from './ui.js';
