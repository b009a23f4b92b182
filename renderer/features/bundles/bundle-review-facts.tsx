import clsx from 'clsx';
import type { BundleReview } from '../../../shared/contract/bundles';
import { CheckIcon, WarningIcon } from '../../ui/icons';
import { EnvList, WarningList } from '../launch-review/launch-lists';
import { launchLine } from '../launch-review/launch-line';

/** The command line as the other launch reviews show it (an argument a shell would split or expand is quoted). */
function commandLine(review: BundleReview): string {
  return launchLine({ kind: 'stdio', command: review.command, args: review.args, warnings: [] });
}

/** Everything the server would run with, in full (sensitive values masked), its runtime, and what to look at. */
export function BundleReviewFacts({ review }: { review: BundleReview }) {
  const flagged = new Set(review.warnings.flatMap((warning) => (warning.key === undefined ? [] : [warning.key])));
  const env = Object.entries(review.env);
  return (
    <div className="import-details bundle-review" aria-label="Launch review">
      <p className={clsx('bundle-runtime', review.runtime.ok ? 'ok' : 'missing')} role="status">
        {review.runtime.ok ? <CheckIcon /> : <WarningIcon />}
        <span>{review.runtime.message}</span>
      </p>
      <dl className="import-launch-facts">
        <dt>Runs</dt>
        <dd className="mono">
          {review.resolvedCommand ?? <span className="muted">{review.command} (not found)</span>}
        </dd>
        <dt>Command</dt>
        <dd className="mono import-command-line">{commandLine(review)}</dd>
        <dt>Environment</dt>
        <dd>
          <EnvList env={env} flagged={flagged} secretKeys={review.secretEnvKeys} />
        </dd>
        <dt>Installs into</dt>
        <dd className="mono">{review.installPath}</dd>
      </dl>
      <WarningList label="What to check" messages={review.warnings} />
      <WarningList label="Before it can be installed" messages={review.problems} />
    </div>
  );
}
