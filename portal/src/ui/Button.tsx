import { Button as AriaButton, type ButtonProps } from 'react-aria-components';

/** The portal's button: `variant` primary (the dialog's action), danger (destroys something) or plain. */
export function Button({ variant = 'plain', className, ...props }: ButtonProps & { variant?: 'primary' | 'danger' | 'plain' }) {
  return <AriaButton {...props} className={`button button-${variant}${typeof className === 'string' ? ` ${className}` : ''}`} />;
}
