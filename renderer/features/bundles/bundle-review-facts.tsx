import clsx from 'clsx';
import type { BundleReview } from '../../../shared/contract/bundles';
import { CheckIcon, WarningIcon } from '../../ui/icons';
import { EnvList, WarningList } from '../launch-review/launch-lists';
import { launchLine } from '../launch-review/launch-line';
import { useT } from '../../i18n/use-t';

/** The command line as the other launch reviews show it (an argument a shell would split or expand is quoted). */
function commandLine(review: BundleReview): string {
  return launchLine({ kind: 'stdio', command: review.command, args: review.args, warnings: [] });
}

/** Everything the server would run with, in full (sensitive values masked), its runtime, and what to look at. */
export function BundleReviewFacts({ review }: { review: BundleReview }) {
  const t = useT();
  const flagged = new Set(review.warnings.flatMap((warning) => (warning.key === undefined ? [] : [warning.key])));
  const env = Object.entries(review.env);
  return (
    <div className="import-details bundle-review" aria-label={t('bundles.review.label')}>
      <p className={clsx('bundle-runtime', review.runtime.ok ? 'ok' : 'missing')} role="status">
        {review.runtime.ok ? <CheckIcon /> : <WarningIcon />}
        <span>{review.runtime.message}</span>
      </p>
      <dl className="import-launch-facts">
        <dt>{t('bundles.review.runs')}</dt>
        <dd className="mono">
          {review.resolvedCommand ?? (
            <span className="muted">{t('bundles.review.notFound', { command: review.command })}</span>
          )}
        </dd>
        <dt>{t('bundles.review.command')}</dt>
        <dd className="mono import-command-line">{commandLine(review)}</dd>
        <dt>{t('bundles.review.environment')}</dt>
        <dd>
          <EnvList env={env} flagged={flagged} secretKeys={review.secretEnvKeys} />
        </dd>
        <dt>{t('bundles.review.installsInto')}</dt>
        <dd className="mono">{review.installPath}</dd>
      </dl>
      <WarningList label={t('bundles.review.check')} messages={review.warnings} />
      <WarningList label={t('bundles.review.problems')} messages={review.problems} />
    </div>
  );
}
