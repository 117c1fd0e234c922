import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isSea } from 'node:sea';
import { packageFile, SHIPPED_FILES, shippedText } from '../../emulator/assets.js';

// emulator/assets.ts from the npm package (the executable's side: test/examples/executable.test.ts,
// which moves the built file to an empty folder and starts the emulator from it).

test('in the package, a shipped file is the package file, and every one is published', () => {
  assert.equal(isSea(), false);
  const published: string[] = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')).files;
  for (const name of SHIPPED_FILES) {
    assert.equal(shippedText(name), readFileSync(packageFile(name), 'utf8'), name);
    assert.ok(published.some((entry) => name === entry || name.startsWith(`${entry}/`)), `${name} is in package.json's files`);
  }
});
