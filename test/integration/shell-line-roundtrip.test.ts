import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellLine, shellWord } from '../../shared/domain/shell-line';

/** The argv a real shell builds from the line: printf prints each word NUL-terminated. */
function argvThrough(shell: readonly string[], line: string): string[] {
  const [program = 'sh', ...options] = shell;
  const result = spawnSync(program, [...options, '-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

const PRINTABLE = [
  'plain',
  'two words',
  '',
  "it's",
  '"double"',
  '$HOME',
  '${PATH}',
  '`id`',
  '$(id)',
  'back\\slash',
  '\\',
  "'",
  "''",
  '*',
  '?',
  '[a]',
  '~',
  '~/x',
  '=cmd',
  'a;b',
  'a|b',
  'a&b',
  '<in',
  '>out',
  '#hash',
  '!bang',
  '{a,b}',
  'héllo wörld',
  '日本語',
  'emoji 🚀',
  '-v',
  '--flag=a b',
  ' leading',
  'trailing ',
];
const HIDDEN = [
  'line\nbreak',
  '\n',
  'trailing newline\n',
  'tab\there',
  'esc\u001b[31mred',
  'cr\r',
  'bell\u0007',
  'del\u007f',
  'c1\u0085',
  'rtl\u202eevil',
  'zero\u200bwidth',
  "mix 'q' \n $x `y` \\ \t\u001b é",
];

describe('shellLine', () => {
  it('round-trips printable arguments through a real sh -c byte for byte', () => {
    expect(argvThrough(['sh'], shellLine(PRINTABLE))).toEqual(PRINTABLE);
  });

  it("round-trips control and invisible characters through a POSIX.1-2024 shell ($'…'), byte for byte", () => {
    const argv = [...PRINTABLE, ...HIDDEN];
    expect(argvThrough(['bash', '--posix'], shellLine(argv))).toEqual(argv);
  });

  it('shows every control character as a visible escape, never raw and never dropped', () => {
    const line = shellLine(HIDDEN);
    // eslint-disable-next-line no-control-regex -- no raw control character may remain
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\u200b]/u);
    expect(shellWord('a\nb')).toBe("'a'$'\\n''b'");
    expect(shellWord('esc\u001b[0m')).toBe("'esc'$'\\e''[0m'");
    expect(shellWord('\u202e')).toBe("$'\\xe2\\x80\\xae'");
  });

  it('leaves safe words bare and quotes the rest in single quotes', () => {
    expect(shellLine(['npx', '-y', '@scope/pkg@1.2.3', '--port=8080'])).toBe('npx -y @scope/pkg@1.2.3 --port=8080');
    expect(shellLine(['echo', 'a b', "it's", '$HOME', ''])).toBe(`echo 'a b' 'it'\\''s' '$HOME' ''`);
  });
});
