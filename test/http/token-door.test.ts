import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_LIFETIME_MS, THROTTLE_FAILURES, THROTTLE_WINDOW_MS, TokenDoor } from '../../emulator/http/token-door.js';

// The door's memory (emulator/http/token-door.ts) on a time the test moves: a session lasts 12 h
// and ends at log out; a peer's wrong tokens block it only from the 10th within a minute, and
// only until that minute has passed. (The HTTP side, across two hosts, is
// test/network/dashboard-session.test.ts.)

function door() {
  let now = 1_000;
  return { door: new TokenDoor(() => now), move: (ms: number) => (now += ms) };
}

test('a session lasts 12 hours, is unknown under any other value, and ends at log out', () => {
  const { door: d, move } = door();
  const a = d.openSession();
  const b = d.openSession();
  assert.notEqual(a, b);
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(d.hasSession(a), true);
  assert.equal(d.hasSession(`${a}x`), false);
  assert.equal(d.hasSession(undefined), false);
  assert.equal(d.hasSession(''), false);
  move(SESSION_LIFETIME_MS - 1);
  assert.equal(d.hasSession(a), true, 'still open 1 ms before 12 h');
  d.closeSession(b);
  assert.equal(d.hasSession(b), false, 'logged out');
  move(1);
  assert.equal(d.hasSession(a), false, 'over at 12 h');
});

test('a peer is blocked from its 10th wrong token within a minute until the minute has passed; other peers are not', () => {
  const { door: d, move } = door();
  for (let i = 1; i < THROTTLE_FAILURES; i++) {
    d.failed('10.0.0.2');
    move(1_000);
  }
  assert.equal(d.blockedFor('10.0.0.2'), 0, '9 wrong tokens: not blocked');
  d.failed('10.0.0.2');
  const started = 1_000;
  assert.equal(d.blockedFor('10.0.0.2'), started + THROTTLE_WINDOW_MS - (started + (THROTTLE_FAILURES - 1) * 1_000), 'blocked until the window that began with the first one ends');
  assert.equal(d.blockedFor('10.0.0.3'), 0, 'another address');
  move(THROTTLE_WINDOW_MS - THROTTLE_FAILURES * 1_000 + 999);
  assert.equal(d.blockedFor('10.0.0.2'), 1_000 - 999);
  move(1);
  assert.equal(d.blockedFor('10.0.0.2'), 0, 'the window has passed');
  d.failed('10.0.0.2');
  assert.equal(d.blockedFor('10.0.0.2'), 0, 'a new window counts from 1');
});

test('wrong tokens spread over more than a minute never block', () => {
  const { door: d, move } = door();
  for (let i = 0; i < 3 * THROTTLE_FAILURES; i++) {
    d.failed('10.0.0.2');
    assert.equal(d.blockedFor('10.0.0.2'), 0, `wrong token ${i + 1}`);
    move(Math.ceil(THROTTLE_WINDOW_MS / (THROTTLE_FAILURES - 1)) + 1); // at most 9 within any window
  }
});
