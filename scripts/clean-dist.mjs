// `prepack`'s first step: removes the folders the tarball ships from dist/, so a compiled file
// whose source was removed or renamed (tsc never deletes an output) cannot be published.
// dist/test and dist/bench (the suite's) stay; tsconfig.build.json writes the rest again.
import { rmSync } from 'node:fs';

for (const dir of ['contract', 'src', 'emulator', 'cjs', 'cli', 'testing']) rmSync(new URL(`../dist/${dir}`, import.meta.url), { recursive: true, force: true });
