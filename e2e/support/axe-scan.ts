import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

// The axe-core scan the e2e specs run: serious and critical violations, printed readably.
// Nothing is excluded but the inside of MCP App frames (a server's own HTML, not Berth's UI).

export type Finding = { view: string; text: string };

const MAX_NODES = 6;

/** axe's "Fix any of the following:\n  <reason>" cut to the reason. */
function firstReason(summary: string | undefined): string {
  const lines = (summary ?? '').split('\n').map((l) => l.trim());
  return lines.find((l) => l !== '' && !/^Fix (any|all) of the following:$/.test(l)) ?? '';
}

/** Scans the page as it is now and records serious/critical violations under `view`. */
export async function scan(app: Page, view: string, findings: Finding[]): Promise<void> {
  // Let transitions (dialog fade-in, tab switches) end, so colours are measured at rest: waited for as animations, not
  // for a fixed time a loaded machine may need more than (axe counts a fading dialog's opacity into its contrast).
  await app.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  const result = await new AxeBuilder({ page: app })
    // MCP App frames hold a third-party server's HTML, which Berth does not author.
    .exclude('.app-frame-iframe-slot iframe')
    .analyze();
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    // A few nodes per rule say enough (a log has hundreds of alike rows); the count says how many more.
    const shown = v.nodes
      .slice(0, MAX_NODES)
      .map((n) => `    ${n.target.join(' ')} ${n.html.slice(0, 100)}\n      ${firstReason(n.failureSummary)}`);
    if (v.nodes.length > MAX_NODES) shown.push(`    …and ${v.nodes.length - MAX_NODES} more`);
    findings.push({ view, text: `[${v.impact}] ${v.id}: ${v.help}\n${shown.join('\n')}` });
  }
}

export function report(findings: Finding[]): string {
  return `${findings.length} serious or critical violation(s):\n\n${findings.map((f) => `${f.view} — ${f.text}`).join('\n\n')}`;
}
