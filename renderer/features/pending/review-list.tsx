import { useState } from 'react';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';
import { argumentsSummary } from './pending-model';
import { SafeName } from '../shell/safe-name';
import { useT } from '../../i18n/use-t';
import { failureWords, words } from '../../i18n/words';

type ToolCallRequest = PendingRequestOf<'tool-call'>;

/**
 * Several tool calls waiting at once, answered together or one by one.
 * `calls` is the list as it was when the tray opened: a call that arrives
 * later is not in it, so "Allow all N" never covers something the person was
 * not shown. Bulk answers send no edits (the arguments are shown read-only
 * here); to change arguments, open the call on its own. Each call is answered
 * through `pending.answer`, so each is validated, decided and audited alone.
 */
export function ReviewList({
  calls,
  onOpen,
  onDone,
}: {
  calls: readonly ToolCallRequest[];
  onOpen: (id: string) => void;
  onDone: () => void;
}) {
  const t = useT();
  const answerPending = useBerth((s) => s.answerPending);
  const pushToast = useBerth((s) => s.pushToast);
  const [busy, setBusy] = useState(false);
  const count = calls.length;

  const answerAll = async (decision: 'allow-once' | 'deny') => {
    setBusy(true);
    // The ids as listed at the click: nothing that arrives meanwhile is answered.
    const listed = calls.map((call) => call.id);
    const results = await Promise.all(listed.map((id) => answerPending(id, 'tool-call', { decision })));
    setBusy(false);
    const failed = results.filter((result) => !result.ok && result.code !== 'NOT_FOUND');
    if (failed.length > 0) {
      const first = failed[0]!;
      pushToast({
        tone: 'error',
        title: words('pending.review.failed', { failed: failed.length, total: listed.length }),
        ...(first.ok ? {} : { message: failureWords(first) }),
      });
    }
    onDone();
  };

  return (
    <section className="review-list" aria-label={t('pending.review.label')} data-testid="review-list">
      <div className="review-head">
        <span className="sidebar-heading">{t('pending.review.waiting', { count })}</span>
      </div>
      <ul className="tray-list review-items">
        {calls.map((call) => (
          <li key={call.id}>
            <button
              type="button"
              className="tray-item review-item"
              onClick={() => onOpen(call.id)}
              title={t('pending.review.openHint')}
            >
              <span className="pending-kind-icon small kind-tool-call" aria-hidden="true">
                <ShieldIcon />
              </span>
              <span className="tray-item-text">
                <span className="tray-item-title">
                  <strong>
                    <SafeName name={call.server} />
                  </strong>{' '}
                  ›{' '}
                  <code>
                    <SafeName name={call.payload.tool} />
                  </code>
                  {call.payload.requestedBy === 'app' ? (
                    <span className="muted">{t('pending.review.fromApp')}</span>
                  ) : null}
                </span>
                <code className="review-args" data-testid="review-args">
                  {argumentsSummary(call.payload.arguments)}
                </code>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="review-actions">
        <Button
          size="sm"
          variant="danger"
          disabled={busy}
          onClick={() => void answerAll('deny')}
          title={t('pending.review.denyAllHint')}
        >
          {t('pending.review.denyAll')}
        </Button>
        <div className="spacer" />
        <Button
          size="sm"
          variant="primary"
          disabled={busy}
          onClick={() => void answerAll('allow-once')}
          title={t('pending.review.allowAllHint')}
        >
          {t('pending.review.allowAll', { count })}
        </Button>
      </div>
      <p className="field-hint review-hint">{t('pending.review.hint')}</p>
    </section>
  );
}
