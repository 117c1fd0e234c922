import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { PAGES } from './readme-blocks.js';

// The README is a front page (issue 47): what svc is, the two set-up commands, a quick start,
// "use it in your project", "install without Node" and one table of links to docs/, in at most
// 250 lines; everything else lives on a page under docs/ that the table links. (That each of
// their blocks runs is readme-blocks.test.ts's.)

const readme = readFileSync(packageFile('README.md'), 'utf8');
const lines = readme.split('\n');
const section = (heading: string) => {
  const start = lines.findIndex((l) => l === `## ${heading}`);
  assert.ok(start >= 0, `README: ## ${heading}`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
};

test('the README fits a screen: at most 250 lines, with the sections a newcomer needs, in order', () => {
  assert.ok(lines.length <= 250, `README.md is ${lines.length} lines`);
  const headings = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
  const wanted = ['Set up', 'Quick start', 'Use it in your project', 'Install without Node', 'Documentation'];
  const at = wanted.map((w) => headings.findIndex((h) => h.startsWith(w)));
  assert.ok(at.every((i) => i >= 0), `README sections: ${headings.join(' / ')}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, 'in this order');
  // The quick start: the emulator, a link, a simulated payment, a webhook.
  const quick = section('Quick start');
  for (const step of [/npm start/, /^svc links create /m, /^svc links simulate /m, /^svc webhooks listen --forward /m]) assert.match(quick, step);
});

test('one table in the README links every page under docs/, and every link it makes leads to a file', () => {
  const table = section('Documentation').split('\n').filter((l) => l.startsWith('| ['));
  const linked = table.map((l) => /^\| \[([^\]]+)\]\(([^)]+)\)/.exec(l)!).map((m) => { assert.equal(m[1], m[2]); return m[2]!; });
  assert.deepEqual([...linked].sort(), PAGES.filter((p) => p !== 'README.md').sort(), 'the table lists exactly the pages in docs/');
  // Every relative link on every page names a file that exists (anchors aside).
  for (const page of PAGES) {
    const text = readFileSync(packageFile(page), 'utf8');
    const base = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
    for (const [, target] of text.matchAll(/\]\(((?!https?:|#|mailto:)[^)\s]+)\)/g)) {
      const file = target!.split('#')[0]!;
      assert.ok(existsSync(packageFile(new URL(file, `file:///${base}`).pathname.slice(1))), `${page}: a link to ${target} leads nowhere`);
    }
  }
});

test('the download instructions carry no placeholder: the release URL from package.json\'s repository once set, else words saying where', () => {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { repository?: string | { url: string } };
  const install = readFileSync(packageFile('docs/install.md'), 'utf8');
  const both = `${section('Install without Node')}\n${install}`;
  assert.doesNotMatch(both, /<owner>|<org>|<user>|OWNER/, 'a placeholder someone would paste');
  const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const github = repository && /github\.com[/:]([^/]+\/[^/.]+?)(\.git)?$/.exec(repository)?.[1];
  if (github) {
    // Once set, the commands download from that repository's releases.
    assert.match(both, new RegExp(`https://github\\.com/${github}/releases/latest/download/svc-linux-x64`));
  } else {
    // Until then, no URL at all, and the words say where each release's files are.
    assert.doesNotMatch(both, /releases\/latest\/download/);
    assert.match(section('Install without Node'), /Every release attaches the five files[\s\S]*to its GitHub release, on the Releases page/);
  }
});
