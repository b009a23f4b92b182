import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { explainSpawnError, missingCwdMessage, shortenPath, withPathSource } from './spawn-errors';

function errno(code: string, message = `spawn x ${code}`): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('explainSpawnError', () => {
  it('explains a command missing from PATH, showing the PATH used', () => {
    const error = explainSpawnError(errno('ENOENT'), { command: 'npx', path: ['/usr/bin', '/bin'].join(delimiter) });
    expect(error).toBeInstanceOf(ServerStartError);
    expect(error.message).toBe(
      `command 'npx' not found on PATH (/usr/bin${delimiter}/bin) — install it or use its full path`,
    );
    expect(error.permanent).toBe(true);
    expect(error.code).toBe('ENOENT');
  });

  it('says "does not exist" for a missing absolute command', () => {
    expect(explainSpawnError(errno('ENOENT'), { command: '/opt/nope/server' }).message).toMatch(
      /^command '\/opt\/nope\/server' does not exist/,
    );
  });

  it('explains a command that is not executable', () => {
    const error = explainSpawnError(errno('EACCES'), { command: './server.sh' });
    expect(error.message).toMatch(/is not executable \(permission denied\)/);
    expect(error.kind).toBe('config');
  });

  it('keeps the original code in the generic fallback and treats it as transient', () => {
    const error = explainSpawnError(errno('EAGAIN', 'spawn EAGAIN'), { command: 'node' });
    expect(error.message).toBe("could not start 'node': spawn EAGAIN");
    expect(error.kind).toBe('spawn');
    expect(explainSpawnError(errno('EMFILE', 'too many open files'), { command: 'node' }).message).toBe(
      "could not start 'node': too many open files (EMFILE)",
    );
  });
});

describe('missingCwdMessage', () => {
  it('names the directory', () => {
    expect(missingCwdMessage('/tmp/gone')).toMatch(/^working directory '\/tmp\/gone' does not exist/);
    expect(missingCwdMessage('/etc/hosts', true)).toMatch(/is not a directory/);
  });
});

describe('shortenPath', () => {
  it('keeps short PATHs whole and counts the rest of long ones', () => {
    expect(shortenPath(['/a', '/b'].join(delimiter))).toBe(['/a', '/b'].join(delimiter));
    const long = Array.from({ length: 10 }, (_, i) => `/dir${i}`).join(delimiter);
    expect(shortenPath(long)).toBe(`${['/dir0', '/dir1', '/dir2', '/dir3'].join(delimiter)}${delimiter}… 6 more`);
  });

  it('says when PATH is empty', () => {
    expect(shortenPath(undefined)).toBe('PATH is empty');
    expect(shortenPath('')).toBe('PATH is empty');
  });
});

describe('the start failures as codes for the renderer', () => {
  it('gives each failure its code and the facts it names, matching the English text', () => {
    const path = ['/usr/bin', '/bin'].join(delimiter);
    expect(explainSpawnError(errno('ENOENT'), { command: 'npx', path }).wording).toEqual({
      code: 'server-start.command-not-on-path',
      params: { command: 'npx', path },
    });
    expect(explainSpawnError(errno('ENOENT'), { command: '/opt/x' }).wording).toEqual({
      code: 'server-start.command-missing',
      params: { command: '/opt/x' },
    });
    expect(explainSpawnError(errno('EPERM'), { command: './s.sh' }).wording?.code).toBe('server-start.not-executable');
    expect(explainSpawnError(errno('ENOEXEC'), { command: './s.sh' }).wording?.code).toBe('server-start.bad-format');
    expect(explainSpawnError(errno('ENOTDIR'), { command: 'node', cwd: '/tmp/f' }).wording).toEqual({
      code: 'server-start.cwd-not-directory',
      params: { cwd: '/tmp/f' },
    });
    expect(explainSpawnError(errno('EMFILE', 'too many open files'), { command: 'node' }).wording).toEqual({
      code: 'server-start.spawn-failed',
      params: { command: 'node', detail: 'too many open files (EMFILE)' },
    });
  });

  it("keeps the PATH and says where it came from when the login shell's PATH was searched", () => {
    const path = ['/usr/bin', '/bin'].join(delimiter);
    const error = withPathSource(explainSpawnError(errno('ENOENT'), { command: 'uvx', path }), 'uvx', 'from zsh');
    expect(error.wording).toEqual({
      code: 'server-start.command-not-on-login-path',
      params: { command: 'uvx', path, pathSource: 'from zsh' },
    });
  });
});

describe('withPathSource', () => {
  const path = ['/usr/bin', '/bin'].join(delimiter);

  it('says where the searched PATH came from when a command is not found on it', () => {
    const error = withPathSource(
      explainSpawnError(errno('ENOENT'), { command: 'uvx', path }),
      'uvx',
      "it includes the login shell's PATH (/bin/zsh -il)",
    );
    expect(error.message).toBe(
      `command 'uvx' not found on PATH (${path}) — install it or use its full path. About that PATH: it includes the login shell's PATH (/bin/zsh -il)`,
    );
    expect(error).toMatchObject({ kind: 'config', code: 'ENOENT' });
  });

  it('leaves other failures alone: a missing path, a missing cwd, permission denied', () => {
    const missingFile = explainSpawnError(errno('ENOENT'), { command: '/opt/x' });
    expect(withPathSource(missingFile, '/opt/x', 'note')).toBe(missingFile);
    const missingCwd = new ServerStartError(missingCwdMessage('/gone'), 'config', 'ENOENT');
    expect(withPathSource(missingCwd, 'npx', 'note')).toBe(missingCwd);
    const denied = explainSpawnError(errno('EACCES'), { command: 'npx' });
    expect(withPathSource(denied, 'npx', 'note')).toBe(denied);
  });
});
