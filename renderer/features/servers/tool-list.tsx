import clsx from 'clsx';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';
import type { ToolInfo } from '../../../shared/domain';
import { Chip } from '../../ui/controls';
import { ChevronRightIcon } from '../../ui/icons';
import { SchemaTable } from './schema-table';
import { List, Row } from '../../ui/list';

const HINTS: { key: string; yes: string; no: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] = [
  { key: 'readOnlyHint', yes: 'read-only', no: 'writes', tone: 'success' },
  { key: 'destructiveHint', yes: 'destructive', no: 'not destructive', tone: 'danger' },
  { key: 'idempotentHint', yes: 'idempotent', no: 'not idempotent', tone: 'neutral' },
  { key: 'openWorldHint', yes: 'open world', no: 'closed world', tone: 'warning' },
];

/** The hints a server gave about a tool, as chips; only hints it actually stated. */
export function annotationChips(
  annotations: Record<string, unknown> | undefined,
): { label: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] {
  if (!annotations) return [];
  const chips: { label: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] = [];
  for (const hint of HINTS) {
    const value = annotations[hint.key];
    if (value === true) chips.push({ label: hint.yes, tone: hint.tone });
    else if (value === false) chips.push({ label: hint.no, tone: 'neutral' });
  }
  return chips;
}

export function ToolList({ tools }: { tools: ToolInfo[] }) {
  return (
    <List look="cards" aria-label="Tools">
      {tools.map((tool) => (
        <ToolItem key={tool.name} tool={tool} />
      ))}
    </List>
  );
}

function ToolItem({ tool }: { tool: ToolInfo }) {
  const [open, setOpen] = useState(false);
  const chips = annotationChips(tool.annotations);
  const title = tool.title ?? (typeof tool.annotations?.title === 'string' ? tool.annotations.title : undefined);
  return (
    <Row className={clsx('tool', open && 'open')} data-tool={tool.name}>
      <Collapsible.Root open={open} onOpenChange={setOpen}>
        <Collapsible.Trigger className="tool-trigger">
          <ChevronRightIcon />
          <span className="tool-heading">
            <span className="tool-name">{tool.name}</span>
            {title && title !== tool.name ? <span className="tool-title">{title}</span> : null}
          </span>
        </Collapsible.Trigger>
        {tool.description ? <p className={clsx('tool-description', !open && 'clamped')}>{tool.description}</p> : null}
        {chips.length > 0 ? (
          <div
            className="tool-claims"
            title="Hints the server reports about its own tool. Berth shows them but does not trust them."
          >
            <span className="claims-label">Claimed by the server:</span>
            {chips.map((chip) => (
              <Chip key={chip.label} tone={chip.tone}>
                {chip.label}
              </Chip>
            ))}
          </div>
        ) : null}
        <Collapsible.Content className="tool-body">
          <SchemaTable schema={tool.inputSchema} label="Input" />
          {tool.outputSchema ? <SchemaTable schema={tool.outputSchema} label="Structured output" /> : null}
        </Collapsible.Content>
      </Collapsible.Root>
    </Row>
  );
}
