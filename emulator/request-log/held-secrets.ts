import type { EmulatorConfig, Logger } from '../services.js';
import type { Store } from '../store/store.js';
import { SECRET_LENGTH, WEBHOOK_ENDPOINTS } from '../resources/webhook-endpoints/domain.js';
import { clean, type HeldSecrets } from '../../contract/redact.js';

// The secrets of one emulator that no pattern finds (redact.ts): its endpoints' signing secrets
// (43 base64url characters, no prefix: the spec's format) and its control token (any 32-256
// characters of A-Z a-z 0-9 _ -). Read when asked, so a new endpoint or a made-up token counts
// from its first moment.

/** The longest run of base64url characters looked through for a signing secret glued to others. */
const LONGEST_SEARCHED = 256;

export function heldSecrets(store: Store, config: Pick<EmulatorConfig, 'controlToken'>): HeldSecrets {
  return {
    holds(token: string): boolean {
      if (config.controlToken !== null && token.includes(config.controlToken)) return true;
      if (token.length > LONGEST_SEARCHED) return false;
      for (let i = 0; i + SECRET_LENGTH <= token.length; i++) {
        if (store.viewIndex(WEBHOOK_ENDPOINTS, 'by_secret', token.slice(i, i + SECRET_LENGTH)).length > 0) return true;
      }
      return false;
    },
  };
}

/** Every line the emulator writes through `log` cleaned first: the console is no place for a secret either. */
export const redactingLogger = (log: Logger, held: HeldSecrets): Logger => ({
  info: (m) => log.info(clean(m, held)),
  warn: (m) => log.warn(clean(m, held)),
  notice: (m) => log.notice(clean(m, held)),
});
