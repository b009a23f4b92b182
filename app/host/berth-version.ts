import { version } from '../../package.json';

/** Berth's version, as package.json states it (bundlers inline just this field). */
export const BERTH_VERSION: string = version;
