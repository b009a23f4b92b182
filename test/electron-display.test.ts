import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findXvfb, startDisplay } from '../e2e/electron/support/display';

// The Electron e2e specs need a display; on a Linux without one they start a
// private Xvfb. Electron itself may be absent here, but Xvfb can be checked.
describe('startDisplay (Electron e2e specs)', () => {
  it('uses the desktop display as it is', async () => {
    const display = await startDisplay({ PATH: '', DISPLAY: ':7' });
    expect(display.env).toEqual({});
    await display.stop();
  });

  // Needs a real Xvfb to start (Linux only); npm test provisions one as root, so it runs on CI.
  it.skipIf(process.platform !== 'linux' || findXvfb({ PATH: process.env.PATH }) === undefined)(
    'starts a private Xvfb on a Linux without a display, and stops it',
    async () => {
      const display = await startDisplay({ PATH: process.env.PATH });
      const number = /^:(\d+)$/.exec(display.env.DISPLAY ?? '')?.[1];
      expect(number).toBeDefined();
      const socket = `/tmp/.X11-unix/X${number}`;
      expect(existsSync(socket)).toBe(true);
      await display.stop();
      await expect.poll(() => existsSync(socket)).toBe(false);
    },
  );

  // Xvfb's usual path is a Linux fact.
  it.skipIf(process.platform !== 'linux')('finds Xvfb at /usr/bin without PATH, or says what to install', async () => {
    const noXvfb = findXvfb({ PATH: '' }) === undefined;
    if (noXvfb) await expect(startDisplay({ PATH: '' })).rejects.toThrow(/apt-get install xvfb/);
    else expect(findXvfb({ PATH: '' })).toBe('/usr/bin/Xvfb');
  });
});
