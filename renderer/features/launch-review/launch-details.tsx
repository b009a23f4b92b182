import clsx from 'clsx';
import type { ReactNode } from 'react';
import { launchLine, type LaunchView } from './launch-line';
import { EnvList, WarningList } from './launch-lists';
import { useT } from '../../i18n/use-t';

/**
 * Everything a server would run with, in full: nothing is cut off, secret
 * values are masked, and what to look at is said in words. One review for
 * every way a server arrives (config import, registry install); `extra`
 * adds rows a source knows more about (e.g. the transport of a remote).
 */
export function LaunchDetails({ launch, label, extra }: { launch: LaunchView; label: string; extra?: ReactNode }) {
  const t = useT();
  const flagged = new Set(launch.warnings.flatMap((warning) => (warning.key === undefined ? [] : [warning.key])));
  const env = Object.entries(launch.env ?? {});
  return (
    <div className="import-details">
      <dl className="import-launch-facts">
        {launch.kind === 'remote' ? (
          <>
            <dt>{t('launch-review.address')}</dt>
            <dd className="mono">{launch.url}</dd>
            {launch.headerNames !== undefined && launch.headerNames.length > 0 ? (
              <>
                <dt>{t('launch-review.headers')}</dt>
                <dd>
                  <span className="mono">{launch.headerNames.join(', ')}</span>{' '}
                  <span className="muted">{t('launch-review.valuesNotShown')}</span>
                </dd>
              </>
            ) : null}
          </>
        ) : (
          <>
            <dt>{t('launch-review.runs')}</dt>
            <dd className={clsx('mono', launch.warnings.some((warning) => warning.kind === 'command') && 'flagged')}>
              {launch.resolvedCommand ?? (
                <span className="muted">{t('launch-review.notFound', { command: launch.command ?? '' })}</span>
              )}
            </dd>
            <dt>{t('launch-review.command')}</dt>
            <dd className="mono import-command-line">{launchLine(launch)}</dd>
            {launch.cwd !== undefined ? (
              <>
                <dt>{t('launch-review.inFolder')}</dt>
                <dd className="mono">{launch.cwd}</dd>
              </>
            ) : null}
            <dt>{t('launch-review.environment')}</dt>
            <dd>
              <EnvList env={env} flagged={flagged} />
            </dd>
          </>
        )}
        {extra}
      </dl>
      <WarningList label={t('launch-review.whatToCheck', { label })} messages={launch.warnings} />
    </div>
  );
}
