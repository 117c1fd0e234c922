import { apiContext } from '../../context.js';
import { updateProfile } from '../../config/file.js';
import { UsageError } from '../../errors.js';
import { maskSecret } from '../../mask.js';
import type { CommonFlags } from '../../flags.js';
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

/**
 * `--api-key -`: the key piped on stdin (`pass show svc/live | svc login --api-key -`), so it
 * never sits in the shell's history or the process list. One trailing newline is what `echo`
 * and password managers add: it goes; anything else around or inside the key is refused, and
 * no message ever repeats what was read.
 */
async function keyFromStdin(io: CliIO): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  const key = text.replace(/\r?\n$/, '');
  if (key === '') throw new UsageError('--api-key -: stdin was empty; pipe the key in (e.g. `pass show svc/key | svc login --api-key -`).');
  if (/\s/.test(key)) throw new UsageError('--api-key -: stdin holds more than one key (spaces or several lines); pipe the key alone.');
  return key;
}

export async function run(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ask = () => askSecret(io, flags, '--api-key', 'API key (svc_test_… or svc_live_…)');
  if (flags.apiKey === '-') flags.apiKey = io.stdin.isTTY ? await ask() : await keyFromStdin(io);
  else if (!flags.apiKey && !io.env.SVC_API_KEY) flags.apiKey = await ask();
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
