import { useId, useState, type FormEvent } from 'react';
import type { ResourceTemplateInfo } from '../../../shared/contract/resources';
import { useCompletions } from '../completion/use-completions';
import { Button } from '../../ui/controls';
import { expandTemplate, templateVariables } from './resource-model';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';

interface TemplateFormProps {
  server: string;
  template: ResourceTemplateInfo;
  /** Whether the server declared the completions capability. */
  completions: boolean;
  onOpen: (uri: string) => void;
  /** What the submit button says: Read in the browser, Attach in the composer. */
  submitLabel?: string;
}

function VariableField({
  server,
  template,
  name,
  value,
  values,
  completions,
  onChange,
}: {
  server: string;
  template: ResourceTemplateInfo;
  name: string;
  value: string;
  values: Record<string, string>;
  completions: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const [focused, setFocused] = useState(false);
  const t = useT();
  const others = Object.fromEntries(Object.entries(values).filter(([key, other]) => key !== name && other !== ''));
  const suggestions = useCompletions(
    completions && focused
      ? {
          server,
          ref: { type: 'ref/resource', uri: template.uriTemplate },
          argument: { name, value },
          ...(Object.keys(others).length > 0 ? { context: others } : {}),
        }
      : undefined,
  );
  return (
    <div className="resource-variable">
      <label htmlFor={id}>{name}</label>
      <input
        id={id}
        className="input"
        value={value}
        list={`${id}-suggestions`}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      <datalist id={`${id}-suggestions`}>
        {suggestions.values.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
      {suggestions.status === 'error' ? (
        <span className="field-error">
          {t('resources.template.suggestionsFailed', { error: failureText(suggestions.failure) })}
        </span>
      ) : null}
    </div>
  );
}

/** A template's variables as a form; the filled-in URI is opened in the preview. */
export function ResourceTemplateForm({ server, template, completions, onOpen, submitLabel }: TemplateFormProps) {
  const variables = templateVariables(template.uriTemplate);
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const missing = variables
    .filter((variable) => (values[variable.name] ?? '') === '' && variable.operator === '')
    .map((variable) => variable.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing.length === 0) onOpen(uri);
  };
  return (
    <form
      className="resource-template-form"
      onSubmit={submit}
      aria-label={t('resources.template.fillIn', { name: template.title ?? template.name })}
    >
      {variables.map((variable) => (
        <VariableField
          key={variable.name}
          server={server}
          template={template}
          name={variable.name}
          value={values[variable.name] ?? ''}
          values={values}
          completions={completions}
          onChange={(value) => setValues((previous) => ({ ...previous, [variable.name]: value }))}
        />
      ))}
      <div className="resource-template-footer">
        <code className="resource-template-uri" data-testid="template-uri">
          {uri}
        </code>
        <Button
          type="submit"
          size="sm"
          variant="primary"
          disabled={missing.length > 0}
          title={missing.length > 0 ? t('resources.template.fillIn', { name: missing.join(', ') }) : undefined}
        >
          {submitLabel ?? t('resources.template.read')}
        </Button>
      </div>
    </form>
  );
}
