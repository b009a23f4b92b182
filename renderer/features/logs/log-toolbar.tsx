import { DropdownMenu, ToggleGroup } from 'radix-ui';
import { useShallow } from 'zustand/react/shallow';
import { LOG_LEVELS, LOG_SOURCES, type LogLevel, type LogSource } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, WithTooltip } from '../../ui/controls';
import { ChevronDownIcon, SearchIcon } from '../../ui/icons';

const SOURCE_LABELS: Record<LogSource, { label: string; hint: string }> = {
  stderr: { label: 'stderr', hint: 'What the server printed to its standard error' },
  notification: { label: 'log messages', hint: 'notifications/message the server sent over MCP' },
  trace: { label: 'trace', hint: 'Every JSON-RPC message between Berth and the server' },
  host: { label: 'Berth', hint: 'Berth’s own lifecycle events: spawn, handshake, exit, restarts' },
  app: { label: 'app', hint: 'What the server’s MCP Apps (its UIs in chat cards) logged' },
};

export function ServerPicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (server: string | undefined) => void;
}) {
  const names = useBerth(useShallow((s) => Object.keys(s.servers).sort((a, b) => a.localeCompare(b))));
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button size="sm" aria-label={`Server: ${value ?? 'all servers'}`} className="picker">
          {value ?? 'All servers'} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.RadioGroup value={value ?? ''} onValueChange={(v) => onChange(v === '' ? undefined : v)}>
            <DropdownMenu.RadioItem value="" className="menu-item">
              <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
              All servers
            </DropdownMenu.RadioItem>
            {names.length > 0 ? <DropdownMenu.Separator className="menu-separator" /> : null}
            {names.map((name) => (
              <DropdownMenu.RadioItem key={name} value={name} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                {name}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function SourceToggles({
  value,
  onChange,
}: {
  value: readonly LogSource[];
  onChange: (sources: LogSource[]) => void;
}) {
  return (
    <ToggleGroup.Root
      type="multiple"
      className="toggle-group"
      aria-label="Sources"
      value={[...value]}
      // An empty selection would hide everything with no visible reason; keep at least one source.
      onValueChange={(next) => next.length > 0 && onChange(LOG_SOURCES.filter((s) => next.includes(s)))}
    >
      {LOG_SOURCES.map((source) => (
        <WithTooltip key={source} content={SOURCE_LABELS[source].hint}>
          <ToggleGroup.Item
            value={source}
            className={`toggle-chip tag-${source}`}
            aria-label={`Show ${SOURCE_LABELS[source].label}`}
          >
            {SOURCE_LABELS[source].label}
          </ToggleGroup.Item>
        </WithTooltip>
      ))}
    </ToggleGroup.Root>
  );
}

export function LevelPicker({
  value,
  onChange,
}: {
  value: LogLevel | undefined;
  onChange: (level: LogLevel | undefined) => void;
}) {
  const shown = value ? `${value}+` : 'Any level';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        {/* The name holds the visible words ("Any level", "warning+"), so a voice command naming them finds the button. */}
        <Button size="sm" aria-label={`Minimum level: ${shown}`} className="picker">
          {shown} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">
            Minimum level of log messages (lines without a level always show)
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={value ?? ''}
            onValueChange={(v) => onChange(v === '' ? undefined : (v as LogLevel))}
          >
            <DropdownMenu.RadioItem value="" className="menu-item">
              <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
              Any level
            </DropdownMenu.RadioItem>
            {LOG_LEVELS.map((level) => (
              <DropdownMenu.RadioItem key={level} value={level} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                <span className={`log-level lvl-${level}`}>{level}</span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function SearchBox({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <label className="search">
      <SearchIcon />
      <input
        type="search"
        className="search-input"
        placeholder="Search logs"
        aria-label="Search logs"
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value !== '') {
            e.preventDefault();
            onChange('');
          }
        }}
      />
    </label>
  );
}
