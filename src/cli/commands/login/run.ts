import { apiContext } from '../../context.js';
import { updateProfile } from '../../config/file.js';
import { UsageError } from '../../errors.js';
import { maskSecret } from '../../mask.js';
import type { CommonFlags } from '../../options.js';
import { askSecret } from '../../prompt.js';
import type { CliIO } from '../../io.js';

// Saves a key only after the service accepted it: a read call (GET /v1/api/payments?limit=1)
// must answer 200. A key without payments:read gets 403 and is not saved.

/** Only a loopback host can be the emulator (it listens on 127.0.0.1); ask it to be sure. */
async function isEmulator(baseUrl: string, flags: CommonFlags, io: CliIO): Promise<boolean> {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') return false;
  const { ControlApi } = await import('../../../client/control.js');
  return new ControlApi({ baseUrl, timeoutMs: flags.timeout, sleep: io.sleep }).identify().then(
    () => true,
    () => false,
  );
}

export async function run(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  if (!flags.apiKey && !io.env.SVC_API_KEY) flags.apiKey = await askSecret(io, flags, '--api-key', 'API key (svc_test_… or svc_live_…)');
  const ctx = apiContext(flags, io, { newProfile: true });
  if (ctx.target.apiKeySource === 'profile' || ctx.target.apiKeySource === 'emulator') throw new UsageError('missing --api-key: the key to log in with.');
  ctx.traced(await ctx.api.listPayments({ limit: 1 }));
  const path = updateProfile(
    ctx.target.profile,
    (p) => {
      p.api_key = ctx.target.apiKey;
      p.base_url = ctx.target.baseUrl;
    },
    io.env,
  );
  if (await isEmulator(ctx.target.baseUrl, flags, io)) {
    ctx.out.status(
      `warning: ${ctx.target.baseUrl} is an svc emulator; its port is temporary (a restart, or --port 0, picks another). ` +
        'Instead of a saved base URL, run commands from the folder you started it in (svc finds it through .svc/emulator.json), or start it with a fixed --port.',
    );
  }
  const data = { profile: ctx.target.profile, environment: ctx.target.environment, api_key: maskSecret(ctx.target.apiKey), base_url: ctx.target.baseUrl, config_file: path };
  ctx.out.result(data, `Logged in: profile "${data.profile}"`, () =>
    ctx.out.kv([['api key', data.api_key], ['base url', data.base_url], ['config file', data.config_file]]),
  );
}
