// A readable diff of two snapshot files for the published-snapshot test: each value that differs,
// as `scenario/step $.path: published X, now Y`. What varies by design between two recordings of
// the same emulator (when, at which port) is left out.

type Json = unknown;

function leaves(prefix: string, a: Json, b: Json, out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    out.push(`${prefix}: published ${JSON.stringify(a) ?? 'absent'}, now ${JSON.stringify(b) ?? 'absent'}`);
    return;
  }
  if (Array.isArray(a)) {
    const bb = b as Json[];
    for (let i = 0; i < Math.max(a.length, bb.length); i++) leaves(`${prefix}[${i}]`, a[i], bb[i], out);
    return;
  }
  const [ao, bo] = [a as Record<string, Json>, b as Record<string, Json>];
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) leaves(`${prefix}.${k}`, ao[k], bo[k], out);
}

interface Snap {
  scenarios: { name: string; steps: { name: string }[] }[];
  [k: string]: Json;
}

export function snapshotDiff(published: Snap, now: Snap): string[] {
  const out: string[] = [];
  const strip = (s: Snap) => ({ ...s, recorded_at: undefined, host: { ...(s.host as object), base_url: undefined }, scenarios: undefined, ignore: undefined });
  leaves('$', strip(published), strip(now), out);
  const nowByName = new Map(now.scenarios.map((s) => [s.name, s]));
  for (const scenario of published.scenarios) {
    const current = nowByName.get(scenario.name);
    if (!current) {
      out.push(`${scenario.name}: published, no longer recorded`);
      continue;
    }
    const steps = new Map(current.steps.map((s) => [s.name, s]));
    for (const step of scenario.steps) {
      const c = steps.get(step.name);
      if (!c) out.push(`${scenario.name}/${step.name}: published, no longer recorded`);
      else leaves(`${scenario.name}/${step.name} $`, step, c, out);
    }
    for (const step of current.steps) if (!scenario.steps.some((s) => s.name === step.name)) out.push(`${scenario.name}/${step.name}: new, not in the published snapshot`);
    leaves(`${scenario.name} $`, { ...scenario, steps: undefined }, { ...current, steps: undefined }, out);
  }
  for (const s of now.scenarios) if (!published.scenarios.some((p) => p.name === s.name)) out.push(`${s.name}: new, not in the published snapshot`);
  return out;
}
