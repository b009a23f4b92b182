/**
 * The sandbox UI, as the views use it. One entry so the bundler makes one
 * lazy chunk of it for every view that shows the sandbox: each extra chunk
 * name costs the first screen's bytes (its preload map), which has none to spare.
 */
export { ServerDenialNotice } from './denial-notice';
export { useFormSandbox } from './form-sandbox';
export { useImportSandbox } from './import-sandbox';
export { LogDenialAction, isDenialLine } from './log-denial-action';
export { declaredDomains, useReviewSandbox } from './review-sandbox';
export type { SandboxChoice } from './sandbox-draft';
export { SandboxOffer } from './sandbox-offer';
export { SandboxFact } from './sandbox-fact';
export { SandboxPanel } from './sandbox-panel';
export { SandboxedChip } from './sandboxed-chip';
