import { describe, expect, it } from 'vitest';
import { folderCrumbs, folderName } from './folder-crumbs';

describe('folderCrumbs', () => {
  it('walks a POSIX path from /', () => {
    expect(folderCrumbs('/home/ada/code')).toEqual([
      { label: '/', path: '/' },
      { label: 'home', path: '/home' },
      { label: 'ada', path: '/home/ada' },
      { label: 'code', path: '/home/ada/code' },
    ]);
    expect(folderCrumbs('/')).toEqual([{ label: '/', path: '/' }]);
  });

  it('walks a Windows path from its drive', () => {
    expect(folderCrumbs('C:\\Users\\ada')).toEqual([
      { label: 'C:', path: 'C:\\' },
      { label: 'Users', path: 'C:\\Users' },
      { label: 'ada', path: 'C:\\Users\\ada' },
    ]);
  });

  it('treats a UNC share as the root', () => {
    expect(folderCrumbs('\\\\nas\\share\\docs').map((c) => c.path)).toEqual(['\\\\nas\\share', '\\\\nas\\share\\docs']);
  });
});

describe('folderName', () => {
  it('is the last segment', () => {
    expect(folderName('/home/ada/code')).toBe('code');
    expect(folderName('C:\\Users\\ada\\')).toBe('ada');
    expect(folderName('/')).toBe('/');
  });
});
