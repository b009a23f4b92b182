// The app's view of the browser lookup, which lives in plain ESM
// (browser-lookup.mjs) so that scripts/provision-browser.mjs, the Playwright
// config and the benchmarks share it before anything is compiled.
export { browserArgs, findBrowser, onPath, systemLookupInputs } from './browser-lookup.mjs';
export type { BrowserLookup, BrowserLookupInputs, BrowserSource } from './browser-lookup.mjs';
