import { useEffect, useMemo, useState } from 'react';
import type { BundleInspection, BundleReview } from '../../../shared/contract/bundles';
import { useBerth } from '../../store';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { BundleFacts } from './bundle-facts';
import { initialDrafts, valuesFromDrafts, type Drafts } from './bundle-model';
import { BundleReviewFacts } from './bundle-review-facts';
import { BundleSettings } from './bundle-settings';
import { declaredDomains, useReviewSandbox } from '../sandbox';
import { useRiskConfirmation } from '../launch-review/risk-confirm';
import { DialogBody } from '../../ui/dialog';
import { useT } from '../../i18n/use-t';
import { failureText, hostText } from '../../i18n/host-message';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

/** The review follows the form, a moment after the person stops typing. */
const REVIEW_DELAY_MS = 250;

/** What the bundle is, the settings it asks for, what would run with them, and Install. */
export function BundleInstallStep({
  inspection,
  onCancel,
  onInstalled,
}: {
  inspection: BundleInspection;
  onCancel: () => void;
  onInstalled: () => void;
}) {
  const t = useT();
  const transport = useBerth((s) => s.appsTransport);
  const selectServer = useBerth((s) => s.selectServer);
  const pushToast = useBerth((s) => s.pushToast);
  const [name, setName] = useState(inspection.suggestedName);
  const [drafts, setDrafts] = useState<Drafts>(() => initialDrafts(inspection.fields));
  const [review, setReview] = useState<BundleReview>();
  // Failures are kept, not their words: worded as they render, so a language switch re-words them.
  const [reviewError, setReviewError] = useState<Failure>();
  const [installError, setInstallError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const values = useMemo(() => valuesFromDrafts(inspection.fields, drafts), [inspection.fields, drafts]);
  // An update keeps the installed server's own sandbox setting (changed in its Sandbox tab).
  const updating = inspection.installed.some((installed) => installed.server === name.trim());
  const sandbox = useReviewSandbox(review === undefined ? [] : declaredDomains({ args: review.args, env: review.env }));
  const risks = useRiskConfirmation(review?.warnings, busy);

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      void transport
        .call('bundles.review', { stageId: inspection.stageId, name: name.trim() || inspection.suggestedName, values })
        .then((result) => {
          if (stale) return;
          if (result.ok) {
            setReview(result.value);
            setReviewError(undefined);
          } else setReviewError(result);
        });
    }, REVIEW_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [transport, inspection.stageId, inspection.suggestedName, name, values]);

  const problems = new Map(
    (review?.problems ?? []).map((problem) => [problem.field, hostText(problem.hostMessage, problem.message)]),
  );
  const ready =
    review !== undefined && review.problems.length === 0 && review.runtime.ok && name.trim() !== '' && risks.confirmed;

  async function install() {
    const choice = updating ? undefined : sandbox.check();
    if (choice === false) return;
    setBusy(true);
    setInstallError(undefined);
    const result = await transport.call('bundles.install', {
      stageId: inspection.stageId,
      name: name.trim(),
      values,
      ...(choice === undefined ? {} : { sandbox: choice }),
      ...(risks.keys.length === 0 ? {} : { confirmed: risks.keys }),
    });
    setBusy(false);
    if (!result.ok) {
      setInstallError(result);
      return;
    }
    selectServer(result.value.name);
    pushToast({
      tone: 'success',
      title: words('bundles.install.installed', { server: result.value.name }),
      message: words('bundles.install.starting', {
        bundle: inspection.manifest.displayName ?? inspection.manifest.name,
        version: inspection.manifest.version,
      }),
    });
    onInstalled();
  }

  return (
    <>
      <DialogBody className="bundle-body">
        <BundleFacts inspection={inspection} />
        <section className="bundle-section" aria-labelledby="bundle-settings-title">
          <h3 id="bundle-settings-title" className="bundle-section-title">
            {t('bundles.install.settings')}
          </h3>
          <Field
            label={t('bundles.install.name')}
            error={installError?.path === 'name' ? failureText(installError) : undefined}
            hint={t('bundles.install.nameHint')}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input"
                value={name}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          <BundleSettings
            fields={inspection.fields}
            drafts={drafts}
            problems={problems}
            onChange={(key, draft) => setDrafts((current) => ({ ...current, [key]: draft }))}
          />
        </section>
        <section className="bundle-section" aria-labelledby="bundle-review-title">
          <h3 id="bundle-review-title" className="bundle-section-title">
            {t('bundles.install.review')}
          </h3>
          {reviewError !== undefined ? (
            <InlineAlert>{failureText(reviewError)}</InlineAlert>
          ) : review === undefined ? (
            <p className="muted">{t('bundles.install.checking')}</p>
          ) : (
            <BundleReviewFacts review={review} />
          )}
          {risks.section}
        </section>
        {updating ? null : <div className="bundle-section">{sandbox.section}</div>}
        {installError !== undefined && installError.path !== 'name' ? (
          <InlineAlert>{failureText(installError)}</InlineAlert>
        ) : null}
      </DialogBody>
      <footer className="dialog-footer">
        <Button onClick={onCancel}>{t('bundles.install.cancel')}</Button>
        <Button variant="primary" disabled={!ready || busy} onClick={() => void install()}>
          {t(busy ? 'bundles.install.installing' : 'bundles.install.install')}
        </Button>
      </footer>
    </>
  );
}
