import { useEffect, useRef, useState } from 'react';
import type { BundleInspection } from '../../../shared/contract/bundles';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { bundleFileProblem, toBase64, UPLOAD_CHUNK_BYTES } from './bundle-model';
import { BundleInstallStep } from './bundle-install-step';
import { Dialog, DialogBody, DialogDescription, DialogFooter, DialogHeader } from '../../ui/dialog';
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureWords, wordsText, type Words } from '../../i18n/words';

type Opening =
  | { step: 'opening'; sent: number }
  | { step: 'refused'; message: Words }
  | { step: 'open'; inspection: BundleInspection };

/** Sends the file to the host in chunks, then asks it to open (validate, check, extract) the bundle. */
function useOpenedBundle(file: File): Opening {
  const transport = useBerth((s) => s.appsTransport);
  const [state, setState] = useState<Opening>(() => {
    const problem = bundleFileProblem(file);
    return problem === undefined ? { step: 'opening', sent: 0 } : { step: 'refused', message: problem };
  });
  useEffect(() => {
    if (bundleFileProblem(file) !== undefined) return;
    let cancelled = false;
    void (async () => {
      let uploadId: string | undefined;
      for (let at = 0; at < file.size || (at === 0 && uploadId === undefined); at += UPLOAD_CHUNK_BYTES) {
        const bytes = new Uint8Array(await file.slice(at, at + UPLOAD_CHUNK_BYTES).arrayBuffer());
        const sent = await transport.call('bundles.upload', {
          data: toBase64(bytes),
          ...(uploadId === undefined ? {} : { uploadId }),
        });
        if (cancelled) return;
        if (!sent.ok) return setState({ step: 'refused', message: failureWords(sent) });
        uploadId = sent.value.uploadId;
        setState({ step: 'opening', sent: sent.value.size });
      }
      const opened = await transport.call('bundles.inspect', {
        source: { kind: 'upload', uploadId: uploadId!, fileName: file.name },
      });
      if (cancelled) {
        if (opened.ok) void transport.call('bundles.discard', { stageId: opened.value.stageId });
        return;
      }
      setState(
        opened.ok ? { step: 'open', inspection: opened.value } : { step: 'refused', message: failureWords(opened) },
      );
    })();
    return () => {
      cancelled = true;
    };
  }, [file, transport]);
  return state;
}

/** "Install a bundle": the file opened by the host, its details, its settings, the review, then Install. */
export function BundleDialog({ file, onClose }: { file: File; onClose: () => void }) {
  const t = useT();
  const transport = useBerth((s) => s.appsTransport);
  const opening = useOpenedBundle(file);
  const installed = useRef(false);
  const stageId = opening.step === 'open' ? opening.inspection.stageId : undefined;

  function close() {
    // A bundle looked at and not installed is forgotten (its staged files go).
    if (stageId !== undefined && !installed.current) void transport.call('bundles.discard', { stageId });
    onClose();
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && close()}
      className="dialog-bundle"
      aria-describedby="bundle-dialog-description"
    >
      <DialogHeader title={t('bundles.dialog.title')} />
      <DialogDescription id="bundle-dialog-description">{t('bundles.dialog.description')}</DialogDescription>
      {opening.step === 'opening' ? (
        <DialogBody>
          <p role="status" className="muted">
            {t('bundles.dialog.opening', { file: file.name })}{' '}
            {file.size > UPLOAD_CHUNK_BYTES
              ? formatNumber(Math.round((opening.sent / file.size) * 100) / 100, { style: 'percent' })
              : ''}
          </p>
        </DialogBody>
      ) : opening.step === 'refused' ? (
        <>
          <DialogBody>
            <InlineAlert>
              <T
                id="bundles.dialog.refused"
                values={{ file: file.name, reason: wordsText(opening.message, t) }}
                components={{ strong: <strong /> }}
              />
            </InlineAlert>
          </DialogBody>
          <DialogFooter>
            <Button variant="primary" onClick={close}>
              {t('bundles.dialog.close')}
            </Button>
          </DialogFooter>
        </>
      ) : (
        <BundleInstallStep
          inspection={opening.inspection}
          onCancel={close}
          onInstalled={() => {
            installed.current = true;
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}
