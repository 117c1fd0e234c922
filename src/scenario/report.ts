import type { StepResult } from './runner.js';

// What a run says: one line a step while it runs, the report (`--json`, the testing API's
// runScenario), and JUnit XML (`--junit`, one testcase a step) for CI.

export interface StepReport {
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  ms: number;
  did: string;
  reason?: string;
  failure?: { where: string; expected: string; received: string };
  request?: { method: string; path: string; body?: unknown };
}

export interface ScenarioReport {
  name: string;
  file: string;
  ok: boolean;
  steps: StepReport[];
}

export interface Report {
  ok: boolean;
  target: string;
  environment: 'test' | 'live';
  totals: { scenarios: number; steps: number; passed: number; failed: number; skipped: number };
  scenarios: ScenarioReport[];
}

export function scenarioReport(name: string, file: string, results: StepResult[]): ScenarioReport {
  const steps = results.map(({ name, outcome, ms, did, reason, failure, request }) => ({ name, outcome, ms, did, ...(reason !== undefined && { reason }), ...(failure && { failure }), ...(outcome === 'fail' && request && { request: { method: request.method, path: request.path, ...(request.body !== undefined && { body: request.body }) } }) }));
  return { name, file, ok: steps.every((s) => s.outcome !== 'fail'), steps };
}

export function fullReport(target: string, environment: 'test' | 'live', scenarios: ScenarioReport[]): Report {
  const steps = scenarios.flatMap((s) => s.steps);
  const count = (o: StepReport['outcome']) => steps.filter((s) => s.outcome === o).length;
  return { ok: scenarios.every((s) => s.ok), target, environment, totals: { scenarios: scenarios.length, steps: steps.length, passed: count('pass'), failed: count('fail'), skipped: count('skip') }, scenarios };
}

const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms} ms`);

/** One step's line (and, for a failure, what differed and the request that got it). */
export function stepLines(s: StepReport, width: number): string[] {
  const head = `  ${s.outcome.toUpperCase()}  ${s.name.padEnd(width)}  `;
  if (s.outcome === 'skip') return [`${head}${s.reason}`];
  const lines = [`${head}${s.did}  ${time(s.ms)}`];
  if (s.outcome === 'fail') {
    lines.push(`        ${s.reason}`);
    if (s.request) lines.push(`        request: ${s.request.method} ${s.request.path}${s.request.body === undefined ? '' : ` ${JSON.stringify(s.request.body).slice(0, 300)}`}`);
  }
  return lines;
}

export const totalsLine = (r: Report): string =>
  `${r.totals.scenarios} scenario(s), ${r.totals.steps} step(s): ${r.totals.passed} passed, ${r.totals.failed} failed, ${r.totals.skipped} skipped`;

const xml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JUnit XML: a testsuite a scenario, a testcase a step (failure with what differed, skipped with why). */
export function junit(r: Report): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="svc scenario" tests="${r.totals.steps}" failures="${r.totals.failed}" skipped="${r.totals.skipped}" errors="0" time="${seconds(r.scenarios.flatMap((s) => s.steps).reduce((n, s) => n + s.ms, 0))}">`];
  for (const s of r.scenarios) {
    const count = (o: StepReport['outcome']) => s.steps.filter((x) => x.outcome === o).length;
    out.push(`  <testsuite name="${xml(s.name)}" file="${xml(s.file)}" tests="${s.steps.length}" failures="${count('fail')}" skipped="${count('skip')}" errors="0" time="${seconds(s.steps.reduce((n, x) => n + x.ms, 0))}">`);
    for (const step of s.steps) {
      const open = `    <testcase name="${xml(step.name)}" classname="${xml(s.name)}" time="${seconds(step.ms)}"`;
      if (step.outcome === 'pass') out.push(`${open}/>`);
      else if (step.outcome === 'skip') out.push(`${open}>`, `      <skipped message="${xml(step.reason ?? '')}"/>`, '    </testcase>');
      else out.push(`${open}>`, `      <failure message="${xml(step.reason ?? '')}" type="${step.failure ? xml(step.failure.where) : 'error'}">${xml(stepLines(step, 0).join('\n'))}</failure>`, '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
