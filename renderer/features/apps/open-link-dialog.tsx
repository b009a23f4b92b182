import { AlertDialog } from 'radix-ui';
import { Button } from '../../ui/controls';

/** The question before a link an app asked for is opened: the domain plainly, then the whole address. */
export function OpenLinkDialog({ link, server, onAnswer }: { link: { url: string; domain: string } | undefined; server: string; onAnswer: (open: boolean) => void }) {
  return (
    <AlertDialog.Root open={link !== undefined} onOpenChange={(open) => (open ? undefined : onAnswer(false))}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-narrow">
          <AlertDialog.Title className="dialog-title">Open a link from the app?</AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">
            The app of “{server}” wants to open a page in your browser on <strong className="app-link-domain">{link?.domain}</strong>.
          </AlertDialog.Description>
          <p className="app-link-url">
            <span className="args-caption">Full address</span>
            <code className="wrap">{link?.url}</code>
          </p>
          <div className="dialog-footer">
            <AlertDialog.Cancel asChild>
              <Button variant="ghost">Don’t open</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="primary" onClick={() => onAnswer(true)}>
                Open {link?.domain}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
