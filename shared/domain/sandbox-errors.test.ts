import { describe, expect, it } from 'vitest';
import { sandboxError } from './sandbox-errors';

describe("the sandbox's refusals: a code with its facts, and the English Berth always said", () => {
  it("keeps the runtime's reason and its install hint as facts", () => {
    expect(
      sandboxError('sandbox-errors.unavailable-install', {
        reason: 'bubblewrap (bwrap) is not installed',
        install: 'Install it with: sudo apt-get install bubblewrap',
      }),
    ).toEqual({
      text: 'The sandbox is unavailable here: bubblewrap (bwrap) is not installed. Install it with: sudo apt-get install bubblewrap',
      hostMessage: {
        code: 'sandbox-errors.unavailable-install',
        params: {
          reason: 'bubblewrap (bwrap) is not installed',
          install: 'Install it with: sudo apt-get install bubblewrap',
        },
      },
    });
    expect(sandboxError('sandbox-errors.unavailable', { reason: 'Windows is not supported yet' }).text).toBe(
      'The sandbox is unavailable here: Windows is not supported yet',
    );
  });

  it('names the domain it will not open', () => {
    expect(sandboxError('sandbox-errors.own-port', { domain: '127.0.0.1:5173' }).text).toBe(
      "127.0.0.1:5173 is Berth's own port on this computer (its window's bridge or its apps' sandbox): a sandboxed server may never reach it",
    );
  });

  it('words a folder it never lets a sandboxed server write by what the folder holds', () => {
    expect(
      sandboxError('sandbox-errors.folder-protected', { folder: '/home/ann/.ssh', kind: 'secrets', place: '~/.ssh' }),
    ).toEqual({
      text: 'Berth never lets a sandboxed server write there: it holds credentials (~/.ssh). Pick the one folder it needs, such as a project folder: /home/ann/.ssh',
      hostMessage: {
        code: 'sandbox-errors.folder-protected',
        params: { folder: '/home/ann/.ssh', kind: 'secrets', place: '~/.ssh' },
      },
    });
    expect(sandboxError('sandbox-errors.folder-entry', { folder: '/a/../b', issue: 'dots' }).text).toBe(
      'Enter the folder without "." or "..": /a/../b',
    );
  });
});
