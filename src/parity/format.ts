import { z } from 'zod';
import { SHIPPED_SCENARIOS, shippedText } from '../../contract/assets.js';
import { oneAction, scenarioShape, stepShape, uniqueNames } from '../scenario/format.js';
import { loadScenario } from '../scenario/load.js';

// The parity suite is scenario files (scenarios/parity/*.yaml) in the scenario format with
// three keys of its own on a step and one at the top, run by the same engine:
//   auth   which key a step sends: the suite's own (main), another merchant's (other), a key of
//          the merchant without payments:create (restricted), none, or a literal header;
//   lists  arrays (JSON paths from the body root, $.data.payments) recorded and compared by their
//          first row's shape alone: their length and other rows depend on the host's history;
//   rules  facts about the answers, recorded as true/false: the ordering and replay rules the
//          spec states, which a shape cannot show (paths from the body root; ${this:…} is the step);
//   needs  what a scenario cannot run without (then it is recorded as skipped, with why).

const path = z.string().min(1);
const Rule = z.discriminatedUnion('kind', [
  z.strictObject({ name: z.string(), kind: z.literal('sorted'), path, order: z.enum(['asc', 'desc']) }),
  z.strictObject({ name: z.string(), kind: z.literal('equal'), a: z.string(), b: z.string() }),
  z.strictObject({ name: z.string(), kind: z.literal('all-before'), path, than: z.string() }),
  z.strictObject({ name: z.string(), kind: z.literal('all-equal'), path, value: z.string() }),
  z.strictObject({ name: z.string(), kind: z.literal('max-length'), path, max: z.int() }),
  z.strictObject({ name: z.string(), kind: z.enum(['contains', 'excludes']), path, value: z.string() }),
  z.strictObject({ name: z.string(), kind: z.literal('same-body'), as: z.string() }),
]);
export type Rule = z.infer<typeof Rule>;

const Auth = z.union([z.enum(['main', 'other', 'restricted', 'none']), z.strictObject({ header: z.string() })]);
export type Auth = z.infer<typeof Auth>;

const parityKeys = { auth: Auth.optional(), lists: z.array(z.string()).optional(), rules: z.array(Rule).optional() };
const ParityStep = z.strictObject({ ...stepShape, ...parityKeys }).superRefine(oneAction(Object.keys(parityKeys)));

export const ParityScenario = z
  .strictObject({ ...scenarioShape, description: z.string(), needs: z.array(z.enum(['other-key', 'restricted-key', 'webhook'])).optional(), steps: z.array(ParityStep).min(1) })
  .superRefine(uniqueNames);
export type ParityScenario = z.infer<typeof ParityScenario>;
export type ParityStep = z.infer<typeof ParityStep>;

/** The suite, in the order it runs (one merchant's history grows through it: pagination comes after the other payments). */
export const loadSuite = (): ParityScenario[] =>
  SHIPPED_SCENARIOS.parity.map((file) => loadScenario<ParityScenario>(file, shippedText(file), { format: ParityScenario, missingEnv: 'allow' }).scenario);
