import assert from 'node:assert/strict';
import type { TestEmulator } from './emulator.js';

// Reads through the emulator's control API (what the dashboard and the wallet app show), so
// tests can see money land without reaching into the store.

export async function userBalance(emu: TestEmulator, phone: string, environment: 'test' | 'live', currency: 'USD' | 'LRD'): Promise<number> {
  const res = await emu.request('GET', `/_emulator/users/${encodeURIComponent(phone)}`, { key: null });
  assert.equal(res.status, 200, res.text);
  return res.json.data.wallets[environment][currency] ?? 0;
}

/** Sum of every service user's balance in one environment and currency. */
export async function allUsersBalance(emu: TestEmulator, environment: 'test' | 'live', currency: 'USD' | 'LRD'): Promise<number> {
  const res = await emu.request('GET', '/_emulator/users', { key: null });
  assert.equal(res.status, 200, res.text);
  return (res.json.data.users as Array<{ wallets: Record<string, Record<string, number>> }>).reduce((sum, u) => sum + (u.wallets[environment][currency] ?? 0), 0);
}

export async function merchantBalance(emu: TestEmulator, merchantId: string, environment: 'test' | 'live', currency: 'USD' | 'LRD'): Promise<number> {
  const res = await emu.request('GET', `/_emulator/wallets?merchant_id=${merchantId}&environment=${environment}`, { key: null });
  assert.equal(res.status, 200, res.text);
  return (res.json.data.wallets as Array<{ currency: string; balance: number }>).find((w) => w.currency === currency)?.balance ?? 0;
}

/** Parsed bodies of the outbox's events of one type, oldest first. */
export async function eventsOfType(emu: TestEmulator, merchantId: string, environment: 'test' | 'live', type: string): Promise<any[]> {
  const res = await emu.request('GET', `/_emulator/events?merchant_id=${merchantId}&environment=${environment}&type=${type}`, { key: null });
  assert.equal(res.status, 200, res.text);
  return (res.json.data.events as Array<{ body: string }>).map((e) => JSON.parse(e.body));
}
