import type { AppUiPermission } from '../../../shared/domain/app-ui';
import { Button } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';

const PERMISSION_WORDS: Record<AppUiPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'your location',
  clipboardWrite: 'writing to the clipboard',
};

/** "camera, microphone and your location" */
export function permissionWords(permissions: readonly AppUiPermission[]): string {
  const words = permissions.map((p) => PERMISSION_WORDS[p]);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** What the resource declares it needs, asked once on the card; the app runs without it until the person allows. */
export function PermissionAsk({
  permissions,
  onAllow,
  onDismiss,
}: {
  permissions: readonly AppUiPermission[];
  onAllow: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="app-permission-ask" role="group" aria-label="Permissions the app asks for">
      <ShieldIcon />
      <span>
        This app asks for: <strong>{permissionWords(permissions)}</strong>
      </span>
      <div className="spacer" />
      <Button size="sm" variant="primary" onClick={onAllow}>
        Allow
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        Not now
      </Button>
    </div>
  );
}
