import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_BUDGET_BYTES,
  INITIAL_JS_BUDGET_BYTES,
  initialScripts,
  measureCatalogs,
  measureInitialJs,
} from './check-initial-js.mjs';

let dist: string;
beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), 'berth-initial-js-'));
  await mkdir(join(dist, 'assets'));
});
afterEach(async () => rm(dist, { recursive: true, force: true }));

/** A catalog chunk as the build writes it: one JSON.parse of the messages, exported. */
const CATALOG = (json: string) =>
  `var e=JSON.parse(${JSON.stringify(json)});export{e as messages};\n//# sourceMappingURL=x.js.map\n`;

const PAGE = (scripts: string) =>
  `<!doctype html><html><head>${scripts}<link rel="stylesheet" href="./assets/index.css"></head><body></body></html>`;

describe('check-initial-js', () => {
  it('counts the module script and the preloaded chunks, not lazy chunks or styles', async () => {
    await writeFile(
      join(dist, 'index.html'),
      PAGE(
        '<script type="module" crossorigin src="./assets/index.js"></script><link rel="modulepreload" crossorigin href="./assets/vendor.js">',
      ),
    );
    await writeFile(join(dist, 'assets', 'index.js'), 'a'.repeat(5000));
    await writeFile(join(dist, 'assets', 'vendor.js'), 'b'.repeat(5000));
    await writeFile(join(dist, 'assets', 'lazy.js'), randomBytes(400_000));
    expect(initialScripts(await readFile(join(dist, 'index.html'), 'utf8'))).toEqual([
      './assets/index.js',
      './assets/vendor.js',
    ]);
    const measured = measureInitialJs(dist);
    expect(measured.files.map((f) => f.bytes)).toEqual([5000, 5000]);
    expect(measured.gzipBytes).toBeLessThan(1000);
  });

  it('fails the build when the first screen outgrows the budget', async () => {
    await writeFile(join(dist, 'index.html'), PAGE('<script type="module" src="./assets/index.js"></script>'));
    // Random bytes do not compress: the gzip size is about the file size.
    await writeFile(join(dist, 'assets', 'index.js'), randomBytes(INITIAL_JS_BUDGET_BYTES + 10_000));
    expect(() => execFileSync(process.execPath, ['scripts/check-initial-js.mjs', dist], { stdio: 'pipe' })).toThrow(
      /grew past its budget/,
    );
  });

  it('passes a small build and refuses a page that loads no script', async () => {
    await writeFile(join(dist, 'index.html'), PAGE('<script type="module" src="./assets/index.js"></script>'));
    await writeFile(join(dist, 'assets', '_berth-catalog_en-AbCd12_-.js'), CATALOG('{"a.b":["Hello"]}'));
    await writeFile(join(dist, 'assets', 'index.js'), 'console.log(1)');
    expect(execFileSync(process.execPath, ['scripts/check-initial-js.mjs', dist], { encoding: 'utf8' })).toMatch(
      /within the 150 KB target/,
    );
    await writeFile(join(dist, 'index.html'), PAGE(''));
    expect(() => measureInitialJs(dist)).toThrow(/loads no module script/);
  });

  it('measures each language catalog apart and fails one that holds code or outgrows its budget', async () => {
    await writeFile(join(dist, 'index.html'), PAGE('<script type="module" src="./assets/index.js"></script>'));
    await writeFile(join(dist, 'assets', 'index.js'), 'console.log(1)');
    await writeFile(join(dist, 'assets', '_berth-catalog_zh-CN-AbCd12_-.js'), CATALOG('{"a.b":["你好"]}'));
    expect(measureCatalogs(dist)).toEqual([
      expect.objectContaining({ locale: 'zh-CN', path: './assets/_berth-catalog_zh-CN-AbCd12_-.js' }),
    ]);
    expect(execFileSync(process.execPath, ['scripts/check-initial-js.mjs', dist], { encoding: 'utf8' })).toMatch(
      /Catalog zh-CN: 0\.\d KB gzip, budget 64\.0 KB/,
    );

    const hidden = `${CATALOG('{}')}\nexport function hidden(){return ${JSON.stringify('x'.repeat(300))}}`;
    await writeFile(join(dist, 'assets', '_berth-catalog_zh-CN-AbCd12_-.js'), hidden);
    expect(() => execFileSync(process.execPath, ['scripts/check-initial-js.mjs', dist], { stdio: 'pipe' })).toThrow(
      /holds code besides its messages/,
    );

    const huge = randomBytes(CATALOG_BUDGET_BYTES + 10_000).toString('base64');
    await writeFile(join(dist, 'assets', '_berth-catalog_zh-CN-AbCd12_-.js'), CATALOG(JSON.stringify({ a: [huge] })));
    expect(() => execFileSync(process.execPath, ['scripts/check-initial-js.mjs', dist], { stdio: 'pipe' })).toThrow(
      /zh-CN catalog grew past its budget/,
    );
  });
});
