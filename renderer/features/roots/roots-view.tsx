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

/** The folders servers may see: add, rename, remove, and who sees which. */
export function RootsView() {
  const rootsView = useBerth((s) => s.rootsView);
  const rootsError = useBerth((s) => s.rootsError);
  const loadRoots = useBerth((s) => s.loadRoots);
  const [browserOpen, setBrowserOpen] = useState(false);
  const [broadPick, setBroadPick] = useState<{ path: string; warning: string }>();
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
                Try again
              </Button>
            }
          >
            Could not read the roots: {rootsError}
          </InlineAlert>
        </div>
      </div>
    ) : (
      <p className="view-loading">Loading…</p>
    );
  }
  const { roots } = rootsView;
  const missing = roots.filter((r) => r.missing).length;
  const addButton = (
    <Button variant="primary" icon={<PlusIcon />} onClick={pick}>
      Add folder
    </Button>
  );

  return (
    <div className="roots-view">
      <div className="roots-page">
        {roots.length === 0 ? (
          <EmptyState icon={<FolderIcon />} title="No workspace roots yet" actions={addButton}>
            <p>
              Roots are the folders your servers may see. A server that works with files (a file system, git or a code
              search server) asks Berth for its roots and stays inside them.
            </p>
            <p>
              Add the folders you want servers to work in. Each server asks you before it first sees a folder, and you
              choose per server which ones it gets.
            </p>
          </EmptyState>
        ) : (
          <>
            <section className="settings-section" aria-labelledby="roots-title">
              <header className="settings-section-head">
                <h2 id="roots-title">
                  <FolderIcon /> Folders your servers may see
                </h2>
                <div className="spacer" />
                {addButton}
              </header>
              <p className="settings-text">
                Servers that ask for roots get these folders (each server asks you first).{' '}
                {missing > 0
                  ? `${missing} ${missing === 1 ? 'folder is' : 'folders are'} missing and given to no server.`
                  : ''}
              </p>
              <List aria-label="Workspace roots">
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
