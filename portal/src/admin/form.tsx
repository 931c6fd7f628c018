/** Native form controls with labels, descriptions and the api's refusal under them (text fields: ui/Field). */
import { useId, type ReactNode } from 'react';

export function SelectField<T extends string>(props: {
  label: string;
  value: T;
  onChange(value: T): void;
  options: ReadonlyArray<{ value: T; label: string }>;
  description?: string;
  error?: string | undefined;
  isDisabled?: boolean;
  name?: string;
}) {
  const id = useId();
  return (
    <div className="select-field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        disabled={props.isDisabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.description || props.error ? `${id}-d` : undefined}
        onChange={(event) => props.onChange(event.target.value as T)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {props.description || props.error ? (
        <span id={`${id}-d`}>
          {props.description ? <span className="field-description">{props.description}</span> : null}
          {props.error ? <span className="field-error"> {props.error}</span> : null}
        </span>
      ) : null}
    </div>
  );
}

export function CheckField(props: { label: ReactNode; checked: boolean; onChange(checked: boolean): void; description?: string; isDisabled?: boolean; error?: string | undefined }) {
  const id = useId();
  return (
    <div className="check-field">
      <input id={id} type="checkbox" checked={props.checked} disabled={props.isDisabled} onChange={(event) => props.onChange(event.target.checked)} aria-describedby={props.description || props.error ? `${id}-d` : undefined} />
      <div>
        <label htmlFor={id}>{props.label}</label>
        {props.description || props.error ? (
          <span id={`${id}-d`}>
            {props.description ? <span className="field-description">{props.description}</span> : null}
            {props.error ? <span className="field-error"> {props.error}</span> : null}
          </span>
        ) : null}
      </div>
    </div>
  );
}

export function RadioGroupField<T extends string>(props: { legend: string; value: T; onChange(value: T): void; options: ReadonlyArray<{ value: T; label: string; description?: string }>; name: string; error?: string | undefined }) {
  return (
    <fieldset className="form-fieldset">
      <legend>{props.legend}</legend>
      <div className="radio-row" role="presentation">
        {props.options.map((option) => (
          <label key={option.value} title={option.description}>
            <input type="radio" name={props.name} value={option.value} checked={props.value === option.value} onChange={() => props.onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
      {props.options.find((o) => o.value === props.value)?.description ? <p className="field-description">{props.options.find((o) => o.value === props.value)!.description}</p> : null}
      {props.error ? <p className="field-error">{props.error}</p> : null}
    </fieldset>
  );
}
