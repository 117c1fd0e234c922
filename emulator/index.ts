// The emulator's public face: what starts it and the types a starter sees. Code outside
// emulator/ (the CLI's `emulator start` and `exec`, the testing API) imports this file and
// nothing else under emulator/ — test/architecture.test.ts keeps it so.

export { startEmulator, consoleLogger, DEFAULT_PORT, DEFAULT_HOST, DEFAULT_DATA_DIR, type EmulatorOptions, type RunningEmulator, type ReadyInfo } from './server.js';
export type { ClockMode } from './clock.js';
export type { Logger } from './services.js';
export type { StoredRecord } from './store/store.js';
export type { WorldSnapshot } from './world.js';
export type { Fault, FaultLogEntry } from './faults/set.js';
export { EVENTS, type EventRecord } from './resources/events/outbox.js';
export { DELIVERIES, type DeliveryRecord } from './webhooks/records.js';
export type { Collection } from './store/collection.js';
export { waitForRecord } from './store/wait.js';
export { requestsOf, waitForRequest, type RequestLogFilter } from './request-log/control.js';
export type { RequestLogEntry } from './request-log/records.js';
export { coverageHtml } from './dashboard/coverage.js';
// The console's redaction, for the lines the CLI's start and exec write about the emulator.
export { clean as redactText } from '../contract/redact.js';

