import type { ElicitationField, StringField } from '../../../shared/elicitation';
import { Field } from '../../ui/controls';
import { toggleOption, type FormState } from './elicitation-model';

const INPUT_TYPE: Record<NonNullable<StringField['format']>, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

const PLACEHOLDER: Partial<Record<NonNullable<StringField['format']>, string>> = {
  email: 'name@example.com',
  uri: 'https://',
};

function hintFor(field: ElicitationField): string | undefined {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  if (field.kind === 'string') {
    if (field.minLength !== undefined && field.maxLength !== undefined)
      parts.push(`${field.minLength}–${field.maxLength} characters.`);
    else if (field.minLength !== undefined) parts.push(`At least ${field.minLength} characters.`);
    else if (field.maxLength !== undefined) parts.push(`At most ${field.maxLength} characters.`);
    if (field.format === 'date-time') parts.push('In your local time; sent with your time zone.');
  }
  if (field.kind === 'number') {
    const kind = field.integer ? 'A whole number' : 'A number';
    if (field.minimum !== undefined && field.maximum !== undefined)
      parts.push(`${kind} from ${field.minimum} to ${field.maximum}.`);
    else if (field.minimum !== undefined) parts.push(`${kind} of at least ${field.minimum}.`);
    else if (field.maximum !== undefined) parts.push(`${kind} of at most ${field.maximum}.`);
  }
  if (field.kind === 'multi-select') {
    if (field.minItems !== undefined && field.maxItems !== undefined)
      parts.push(`Choose ${field.minItems} to ${field.maxItems}.`);
    else if (field.minItems !== undefined) parts.push(`Choose at least ${field.minItems}.`);
    else if (field.maxItems !== undefined) parts.push(`Choose at most ${field.maxItems}.`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function Label({ field }: { field: ElicitationField }) {
  return (
    <>
      {field.label}
      {field.required ? (
        <span className="required-mark" aria-label="required">
          {' '}
          *
        </span>
      ) : null}
    </>
  );
}

/** One elicitation field as the right HTML control, with its hint and error. */
export function ElicitationFieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ElicitationField;
  value: FormState[string] | undefined;
  error: string | undefined;
  onChange: (value: FormState[string]) => void;
}) {
  const hint = hintFor(field);
  const text = typeof value === 'string' ? value : '';
  if (field.kind === 'boolean') {
    return (
      <div className={error ? 'field field-invalid' : 'field'}>
        <label className="check-field">
          <input
            type="checkbox"
            name={field.name}
            checked={value === true}
            aria-invalid={Boolean(error)}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span>
            <strong>
              <Label field={field} />
            </strong>
            {hint ? <span className="field-hint">{hint}</span> : null}
          </span>
        </label>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  if (field.kind === 'multi-select') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset
        className={error ? 'field check-group field-invalid' : 'field check-group'}
        aria-invalid={Boolean(error)}
      >
        <legend className="field-label">
          <Label field={field} />
        </legend>
        {hint ? <p className="field-hint">{hint}</p> : null}
        <div className="check-options">
          {field.options.map((option) => (
            <label key={option.value} className="check-inline">
              <input
                type="checkbox"
                name={`${field.name}.${option.value}`}
                checked={chosen.includes(option.value)}
                onChange={(e) => onChange(toggleOption(field, chosen, option.value, e.target.checked))}
              />
              {option.label}
            </label>
          ))}
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  return (
    <Field label={<Label field={field} />} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => {
        const common = {
          id,
          name: field.name,
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
          'aria-required': field.required,
        };
        if (field.kind === 'select') {
          return (
            <select {...common} className="input select-input" value={text} onChange={(e) => onChange(e.target.value)}>
              <option value="">{field.required ? 'Choose…' : '(none)'}</option>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          );
        }
        if (field.kind === 'number') {
          return (
            <input
              {...common}
              className="input"
              type="number"
              inputMode={field.integer ? 'numeric' : 'decimal'}
              step={field.integer ? 1 : 'any'}
              min={field.minimum}
              max={field.maximum}
              value={text}
              onChange={(e) => onChange(e.target.value)}
            />
          );
        }
        return (
          <input
            {...common}
            className="input"
            type={field.format ? INPUT_TYPE[field.format] : 'text'}
            placeholder={field.format ? PLACEHOLDER[field.format] : undefined}
            minLength={field.minLength}
            maxLength={field.maxLength}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        );
      }}
    </Field>
  );
}
