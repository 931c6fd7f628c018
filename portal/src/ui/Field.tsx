/** Labelled text fields with the rule or the server's refusal shown under them. */
import { FieldError, Input, Label, Text, TextArea, TextField, type TextFieldProps } from 'react-aria-components';

type FieldProps = Omit<TextFieldProps, 'children'> & { label: string; description?: string; error?: string | undefined; multiline?: boolean };

export function Field({ label, description, error, multiline, ...props }: FieldProps) {
  return (
    <TextField {...props} className="field" isInvalid={error !== undefined && error !== ''}>
      <Label className="field-label">{label}</Label>
      {multiline ? <TextArea className="field-input" rows={4} /> : <Input className="field-input" />}
      {description ? (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      ) : null}
      <FieldError className="field-error">{error}</FieldError>
    </TextField>
  );
}
