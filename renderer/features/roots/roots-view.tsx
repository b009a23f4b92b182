import { useEffect, useState } from 'react';
import { useBerth } from '../../store';
import { Button, EmptyState, InlineAlert } from '../../ui/controls';
import { FolderIcon, PlusIcon } from '../../ui/icons';
import { AddRootDialog } from './add-root-dialog';
import { ConfirmBroadRootDialog } from './broad-folder-warning';
import { RootRow } from './root-row';
import { RootsAccess } from './roots-access';
import { usePickRoot } from './use-pick-root';
import { List } from '../../ui/list';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/** The folders servers may see: add, rename, remove, and who sees which. */
export function RootsView() {
  const rootsView = useBerth((s) => s.rootsView);
  const rootsError = useBerth((s) => s.rootsError);
  const loadRoots = useBerth((s) => s.loadRoots);
  const t = useT();
  const [browserOpen, setBrowserOpen] = useState(false);
  const [broadPick, setBroadPick] = useState<{ path: string; warning: Failure }>();
  const pick = usePickRoot(
    () => setBrowserOpen(true),
    (path, warning) => setBroadPick({ path, warning }),
  );
  // Listing looks at the disk again, so opening this view flags folders deleted since the last check.
  useEffect(() => {
    void loadRoots();
  }, [loadRoots]);

  if (!rootsView) {
    return rootsError ? (
      <div className="roots-view">
        <div className="roots-page">
          <InlineAlert
            action={
              <Button size="sm" onClick={() => void loadRoots()}>
                {t('roots.view.retry')}
              </Button>
            }
          >
            {t('roots.view.loadFailed', { error: failureText(rootsError) })}
          </InlineAlert>
        </div>
      </div>
    ) : (
      <p className="view-loading">{t('roots.view.loading')}</p>
    );
  }
  const { roots } = rootsView;
  const missing = roots.filter((r) => r.missing).length;
  const addButton = (
    <Button variant="primary" icon={<PlusIcon />} onClick={pick}>
      {t('roots.view.add')}
    </Button>
  );

  return (
    <div className="roots-view">
      <div className="roots-page">
        {roots.length === 0 ? (
          <EmptyState icon={<FolderIcon />} title={t('roots.view.empty.title')} actions={addButton}>
            <p>{t('roots.view.empty.what')}</p>
            <p>{t('roots.view.empty.how')}</p>
          </EmptyState>
        ) : (
          <>
            <section className="settings-section" aria-labelledby="roots-title">
              <header className="settings-section-head">
                <h2 id="roots-title">
                  <FolderIcon /> {t('roots.view.heading')}
                </h2>
                <div className="spacer" />
                {addButton}
              </header>
              <p className="settings-text">{t('roots.view.intro', { missing })}</p>
              <List aria-label={t('roots.view.listLabel')}>
                {roots.map((root) => (
                  <RootRow key={root.id} root={root} />
                ))}
              </List>
            </section>
            <RootsAccess />
          </>
        )}
      </div>
      <AddRootDialog open={browserOpen} onOpenChange={setBrowserOpen} />
      <ConfirmBroadRootDialog pick={broadPick} onDone={() => setBroadPick(undefined)} />
    </div>
  );
}
