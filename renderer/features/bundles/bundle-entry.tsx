import { createContext, lazy, Suspense, useContext, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button } from '../../ui/controls';
import { InboxIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

// The dialog (form, review) loads only when a bundle is opened.
const BundleDialog = lazy(async () => ({ default: (await import('./bundle-dialog')).BundleDialog }));

const OpenBundle = createContext<(file: File) => void>(() => undefined);

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * Where a .mcpb can be dropped (the servers view): shows a drop target while
 * a file is dragged over it, and the install dialog for the file dropped or
 * picked with OpenBundleButton inside it.
 */
export function BundleDropZone({ children, className }: { children: ReactNode; className?: string }) {
  const t = useT();
  const [file, setFile] = useState<File>();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  return (
    <OpenBundle.Provider value={setFile}>
      <div
        className={className}
        data-dragging={dragging ? 'true' : undefined}
        onDragEnter={(event) => {
          if (!hasFiles(event)) return;
          depth.current += 1;
          setDragging(true);
        }}
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={() => {
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setDragging(false);
        }}
        onDrop={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          depth.current = 0;
          setDragging(false);
          const dropped = event.dataTransfer.files[0];
          if (dropped !== undefined) setFile(dropped);
        }}
      >
        {children}
        {dragging ? (
          <div className="bundle-drop-overlay" aria-hidden="true">
            <InboxIcon />
            <span>{t('bundles.entry.drop')}</span>
          </div>
        ) : null}
      </div>
      {file !== undefined ? (
        <Suspense fallback={null}>
          <BundleDialog
            key={`${file.name}:${file.size}:${file.lastModified}`}
            file={file}
            onClose={() => setFile(undefined)}
          />
        </Suspense>
      ) : null}
    </OpenBundle.Provider>
  );
}

/** "Install bundle…": picks a .mcpb file (the browser's file picker works in both shells). */
export function OpenBundleButton({
  variant = 'ghost',
  size = 'sm',
}: {
  variant?: 'ghost' | 'secondary';
  size?: 'sm' | 'md';
}) {
  const t = useT();
  const open = useContext(OpenBundle);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button size={size} variant={variant} icon={<InboxIcon />} onClick={() => input.current?.click()}>
        {t('bundles.entry.install')}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".mcpb,.dxt"
        hidden
        aria-label={t('bundles.entry.file')}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          event.target.value = '';
          if (picked !== undefined) open(picked);
        }}
      />
    </>
  );
}
