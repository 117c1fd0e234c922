import { storedCollection, type RecordOf } from '../store/collection.js';
import type { Store, Transaction } from '../store/store.js';
import type { ClockPosition, EmulatorClock } from '../clock.js';
import { messageOf } from '../../contract/errors.js';

// The clock's position as a store record: journaled like any write (so it is in the data dir
// and survives kill -9), and in every snapshot and export (the world's records and the time they
// were made at travel together). One record, written when the clock moves: each step of an
// advance, at start, at a clean stop, after a world is replaced.

type ClockRecord = RecordOf<'emulator_clock'>;

export const CLOCK_STATE = storedCollection('emulator_clock');
const CLOCK_ID = 'clock';

/** The stored position, if one is stored and well-formed (a hand-edited snapshot may hold anything). */
export function storedClock(store: Pick<Store, 'get'>): ClockPosition | undefined {
  const r = store.get(CLOCK_STATE, CLOCK_ID);
  if (!r || (r.mode !== 'manual' && r.mode !== 'system') || !Number.isSafeInteger(r.now_ms) || !Number.isFinite(r.offset_ms)) return undefined;
  return { mode: r.mode, now_ms: r.now_ms, offset_ms: r.offset_ms };
}

/** The record of the clock's position now (a snapshot carries this one, not the last stored). */
export const clockRecord = (clock: EmulatorClock): ClockRecord => ({ id: CLOCK_ID, ...clock.position() });

/** Writes the clock's position inside `tx`. */
export function putClock(tx: Transaction, clock: EmulatorClock): void {
  const position = clock.position();
  tx.put(CLOCK_STATE, { id: CLOCK_ID, ...position });
  clock.stored(position);
}

/** Writes the clock's position in a transaction of its own (a refused write is only logged: the next one tries again). */
export function saveClock(services: { store: Store; clock: EmulatorClock; log: { warn(m: string): void } }): void {
  try {
    services.store.transaction((tx) => putClock(tx, services.clock));
  } catch (err) {
    services.log.warn(`could not store the clock's position: ${messageOf(err)}`);
  }
}
