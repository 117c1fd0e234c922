import type { StartOptions, TestEmulator } from './emulator.js';

// The testing API: a test owns its emulator, in its own process, the way Miniflare or
// testcontainers let a test own its dependency. Nothing is spawned and (by default) nothing is
// written to disk, so every test file, or every test, can have a fresh world:
//
//   const emu = await startEmulator();            // memory store, free port, bundled fixtures
//   const res = await fetch(`${emu.baseUrl}/v1/api/payment-links`, { headers: { authorization: `Bearer ${emu.key('acme_test')}` }, … });
//   await emu.reset();                             // back to the fixtures: same port, same keys
//   await emu.close();
//
// This entry holds no emulator: jest and vitest import it afresh in every test file's worker, so
// the emulator (express, zod, the store: emulator.ts and what it loads, a bundle of ~1.2 MB) is
// loaded by the first startEmulator() of a file, not by the import.

export type {
  CheckedRequest,
  CheckResult,
  CoverageReport,
  DeliveryRecord,
  EmulatorKey,
  EventRecord,
  Fault,
  FaultInput,
  FaultLogEntry,
  ReceiverReport,
  RequestLogEntry,
  RequestLogFilter,
  ScenarioOptions,
  ScenarioReport,
  StartOptions,
  TestEmulator,
  WaitOptions,
  WorldSnapshot,
} from './emulator.js';

export async function startEmulator(options: StartOptions = {}): Promise<TestEmulator> {
  return (await import('./emulator.js')).startEmulator(options);
}
